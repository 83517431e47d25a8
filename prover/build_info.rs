//! What the build script embedded: fingerprint, features, profile, commit.

use serde::Serialize;

pub const FINGERPRINT: &str = env!("PHASELINE_FINGERPRINT");
pub const PROFILE: &str = env!("PHASELINE_PROFILE");
pub const GIT_COMMIT: &str = env!("PHASELINE_GIT_COMMIT");
pub const GIT_DIRTY: &str = env!("PHASELINE_GIT_DIRTY");
pub const RUSTC: &str = env!("PHASELINE_RUSTC");

/// Optimization features this crate declares.
pub const OPT_FEATURES: &[&str] = &["smallvec", "presize", "par-bg2", "pin", "window-tune"];

/// Harness self-test features: never optimizations, never part of a variant
/// that combines the optimization flags.
pub const SELFTEST_FEATURES: &[&str] = &["selftest-slow"];

/// Enabled cargo features, sorted.
pub fn features() -> Vec<String> {
    env!("PHASELINE_FEATURES")
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// Features that the given backend does not act on (recorded, never silently ignored).
pub fn inert_features(backend: &str) -> Vec<String> {
    let inert: &[&str] = match backend {
        "cpu" => &["pin", "window-tune"],
        // smallvec/presize act on our circuits' LC type, which bellperson's
        // synthesis runs through the bridge; the rest are our prover's own.
        "bellperson" => &["par-bg2", "pin", "window-tune"],
        _ => &[],
    };
    features().into_iter().filter(|f| inert.contains(&f.as_str())).collect()
}

pub fn backends() -> Vec<&'static str> {
    vec!["cpu", "bellperson"]
}

#[derive(Debug, Serialize)]
pub struct Info {
    pub schema_version: u32,
    pub package_version: &'static str,
    pub features: Vec<String>,
    pub fingerprint: &'static str,
    pub profile: &'static str,
    pub git_commit: &'static str,
    pub git_dirty: bool,
    pub rustc: &'static str,
    pub backends: Vec<&'static str>,
    pub cpu_model: String,
    pub cpu_cores: usize,
    pub gpu: Option<String>,
}

pub fn info() -> Info {
    Info {
        schema_version: crate::record::SCHEMA_VERSION,
        package_version: env!("CARGO_PKG_VERSION"),
        features: features(),
        fingerprint: FINGERPRINT,
        profile: PROFILE,
        git_commit: GIT_COMMIT,
        git_dirty: GIT_DIRTY == "true",
        rustc: RUSTC,
        backends: backends(),
        cpu_model: cpu_model(),
        cpu_cores: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        gpu: None,
    }
}

pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}
