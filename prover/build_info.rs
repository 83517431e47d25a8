//! What the build script embedded: fingerprint, features, profile, commit.

use phaseline_record::Backend;
use serde::Serialize;

pub const FINGERPRINT: &str = env!("PHASELINE_FINGERPRINT");
pub const PROFILE: &str = env!("PHASELINE_PROFILE");
pub const GIT_COMMIT: &str = env!("PHASELINE_GIT_COMMIT");
pub const GIT_DIRTY: &str = env!("PHASELINE_GIT_DIRTY");
pub const RUSTC: &str = env!("PHASELINE_RUSTC");

/// Optimization features this crate declares.
pub const OPT_FEATURES: &[&str] = &["smallvec", "presize", "shape-synth", "par-bg2", "pin", "window-tune"];

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

/// Optimization features that act on nothing in a real PoRep circuit's
/// synthesis. `presize` (A2) pre-sizes our engine's vectors from the
/// circuit's size hint, which a real circuit does not have, and our circuits'
/// own vectors and LCs, which it does not use: a 2 KiB synthesis made the same
/// 20,236,313 allocations and 575,803 reallocations with and without it.
/// Given a hint, it removed 125 of those reallocations (the engine's vectors;
/// the rest are in filecoin-proofs' and bellpepper's gadgets) and no
/// measurable time (docs/real-circuit.md). `smallvec` (A1) acts: the adapter
/// builds our LC type for every constraint.
pub const REAL_CIRCUIT_INERT: &[&str] = &["presize"];

/// Features of this build that a run of `circuit` on `backend` does not act
/// on (recorded, never silently ignored).
pub fn inert_features(backend: Backend, circuit: &str) -> Vec<String> {
    inert_of(&features(), backend, circuit)
}

/// Of the features `enabled`, those a run of `circuit` on `backend` does not act on.
fn inert_of(enabled: &[String], backend: Backend, circuit: &str) -> Vec<String> {
    let by_backend: &[&str] = match backend {
        Backend::Cpu => &["pin", "window-tune"],
        // The CUDA backend acts on every optimization feature.
        Backend::Cuda => &[],
        // smallvec/presize act on our circuits' LC type, which bellperson's
        // synthesis runs through the bridge; the rest are our prover's own
        // (shape-synth: bellperson's prover synthesizes by itself, and the
        // runner keeps our engine on this backend in synth mode too).
        Backend::Bellperson => &["shape-synth", "par-bg2", "pin", "window-tune"],
        // Not this runner's backend: nothing of ours runs.
        Backend::Supraseal => &[],
    };
    let by_circuit: &[&str] = if circuit.starts_with(phaseline_real::NAME_PREFIX) {
        REAL_CIRCUIT_INERT
    } else {
        &[]
    };
    enabled
        .iter()
        .filter(|f| by_backend.contains(&f.as_str()) || by_circuit.contains(&f.as_str()))
        .cloned()
        .collect()
}

/// The backends this build proves on; the first is the default.
pub fn backends() -> Vec<Backend> {
    let mut v = vec![Backend::Cpu, Backend::Bellperson];
    if cfg!(feature = "cuda") {
        v.push(Backend::Cuda);
    }
    v
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
    pub backends: Vec<Backend>,
    pub cpu_model: String,
    pub cpu_cores: usize,
    pub gpu: Option<String>,
    /// CUDA architectures compiled in (empty without the `cuda` feature).
    pub cuda_archs: &'static str,
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
        gpu: gpu_name(),
        cuda_archs: env!("PHASELINE_CUDA_ARCHS"),
    }
}

/// The CUDA device's name when this build has the backend and a device answers.
pub fn gpu_name() -> Option<String> {
    #[cfg(feature = "cuda")]
    {
        crate::gpu::device::init().ok().map(|d| d.name)
    }
    #[cfg(not(feature = "cuda"))]
    {
        None
    }
}

pub use phaseline_record::machine::cpu_model;

#[cfg(test)]
mod tests {
    use super::*;

    /// `info --json` is the protocol's runner info (plus facts of its own): the harness can read it.
    #[test]
    fn info_speaks_the_protocol() {
        let json = serde_json::to_value(info()).unwrap();
        let r: phaseline_record::RunnerInfo = serde_json::from_value(json).unwrap();
        assert_eq!(r.schema_version, phaseline_record::SCHEMA_VERSION);
        assert_eq!(
            r.backends[0],
            phaseline_record::Backend::Cpu,
            "cpu is the default backend"
        );
        assert!(r.makes_params);
        assert_eq!(r.features, features());
    }

    #[test]
    fn inert_by_backend_and_by_circuit() {
        let on = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let all = on(&["par-bg2", "pin", "presize", "shape-synth", "smallvec", "window-tune"]);
        assert_eq!(inert_of(&all, Backend::Cpu, "small"), on(&["pin", "window-tune"]));
        assert_eq!(inert_of(&all, Backend::Cuda, "small"), on(&[]));
        // the real circuit has no size hint and none of our circuits' vectors
        assert_eq!(inert_of(&all, Backend::Cuda, "porep-real:2KiB"), on(&["presize"]));
        assert_eq!(
            inert_of(&all, Backend::Cpu, "porep-real:8MiB"),
            on(&["pin", "presize", "window-tune"])
        );
        assert_eq!(
            inert_of(&all, Backend::Bellperson, "porep-real:2KiB"),
            on(&["par-bg2", "pin", "presize", "shape-synth", "window-tune"])
        );
        // shape-synth acts wherever our engine would synthesize
        assert!(!inert_of(&all, Backend::Cpu, "porep-real:2KiB").contains(&"shape-synth".to_string()));
        assert!(!inert_of(&all, Backend::Cuda, "small").contains(&"shape-synth".to_string()));
        // smallvec acts on the real circuit (the adapter builds our Lc type)
        assert!(!inert_of(&all, Backend::Cpu, "porep-real:2KiB").contains(&"smallvec".to_string()));
        // only enabled features are ever listed
        assert_eq!(inert_of(&on(&["smallvec"]), Backend::Cpu, "porep-real:2KiB"), on(&[]));
    }
}
