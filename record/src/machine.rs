//! Facts of the machine a runner reports in `info --json` and the harness
//! keys its testbed by, read one way for both.

/// The CPU model from `/proc/cpuinfo`, or `unknown` where it cannot be read.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| "unknown".into())
}
