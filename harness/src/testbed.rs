//! The testbed: the machine class a measurement belongs to. Its key is derived
//! from the GPU model, driver, CPU model and core count, so runs and baselines
//! compare only within one class.

use crate::model::Testbed;

/// Lower-case `[a-z0-9-]` form of `s`, without trademark marks, at most 40 characters.
pub fn slug(s: &str) -> String {
    let s = s.to_lowercase().replace("(r)", "").replace("(tm)", "");
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let mut out: String = out.trim_end_matches('-').chars().take(40).collect();
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        "unknown".into()
    } else {
        out
    }
}

/// Whether `s` has the shape of a testbed key (`[a-z0-9-]`, no path characters).
pub fn is_key(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The key of a testbed with these facts, e.g. `amd-epyc-7b13-2c-nogpu`.
pub fn key(cpu_model: &str, cpu_cores: usize, gpu_model: Option<&str>, gpu_driver: Option<&str>) -> String {
    let gpu = match gpu_model {
        Some(m) => format!("{}-drv{}", slug(m), slug(gpu_driver.unwrap_or("unknown"))),
        None => "nogpu".into(),
    };
    format!("{}-{}c-{}", slug(cpu_model), cpu_cores, gpu)
}

/// The key recomputed from a testbed's own fields.
pub fn derived_key(t: &Testbed) -> String {
    key(
        &t.cpu_model,
        t.cpu_cores,
        t.gpu_model.as_deref(),
        t.gpu_driver.as_deref(),
    )
}

/// CPU model from `/proc/cpuinfo` (or `unknown`), as every runner reads it.
pub use phaseline_record::machine::cpu_model;

/// Logical CPUs online on this machine, whatever this process's affinity mask allows: the
/// testbed key must not change under `taskset`.
pub fn cpu_cores() -> usize {
    // SAFETY: sysconf only reads a system constant.
    let online = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(online)
        .ok()
        .filter(|n| *n > 0)
        .unwrap_or_else(cpus_allowed)
}

/// CPUs this process may run on (its affinity mask).
pub fn cpus_allowed() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// The testbed of this machine.
pub fn detect() -> Testbed {
    let cpu = cpu_model();
    let cores = cpu_cores();
    let gpu = crate::gpu::model_and_driver();
    Testbed {
        key: key(
            &cpu,
            cores,
            gpu.as_ref().map(|g| g.0.as_str()),
            gpu.as_ref().map(|g| g.1.as_str()),
        ),
        cpu_model: cpu,
        cpu_cores: cores,
        gpu_model: gpu.as_ref().map(|g| g.0.clone()),
        gpu_driver: gpu.map(|g| g.1),
        cpus_allowed: Some(cpus_allowed()).filter(|n| *n < cores),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_slugs() {
        assert_eq!(
            key("AMD EPYC 7B13 64-Core Processor", 2, None, None),
            "amd-epyc-7b13-64-core-processor-2c-nogpu"
        );
        assert_eq!(
            key("Intel(R) Xeon(R) Platinum", 16, Some("NVIDIA H200"), Some("580.65.06")),
            "intel-xeon-platinum-16c-nvidia-h200-drv580-65-06"
        );
        assert_eq!(slug("***"), "unknown");
    }
}
