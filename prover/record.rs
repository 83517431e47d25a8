//! The JSON record written per repetition (one JSON Lines row each), and the
//! check that a record carries every phase its mode and backend must produce.

use crate::error::ProverError;
use crate::phases::Phase;
pub use phaseline_record::{CircuitInfo, SCHEMA_VERSION};
use serde::{Deserialize, Serialize};

/// One repetition's record.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    pub schema_version: u32,
    pub mode: String,
    pub backend: String,
    pub features: Vec<String>,
    pub inert_features: Vec<String>,
    pub fingerprint: String,
    pub git_commit: String,
    pub rep: usize,
    pub warmup: bool,
    pub circuit: CircuitInfo,
    pub phases: Vec<Phase>,
    pub total_ms: f64,
    /// Sum of top-level phase durations (overlapping phases each counted).
    pub phase_sum_ms: f64,
    /// Wall time not covered by any top-level phase.
    pub unaccounted_ms: f64,
    pub allocations: u64,
    pub reallocations: u64,
    pub allocated_bytes: u64,
    /// The phase the allocation counters cover: `synthesis`, or on a backend
    /// whose synthesis is not separable (bellperson) its one proving phase.
    #[serde(default = "default_alloc_phase")]
    pub allocations_phase: String,
    pub peak_rss_bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// The parameter file the proofs were made with (`prove` records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<phaseline_record::ParamsFile>,
    /// Self-test delays that were injected (`--inject-delay`), phase -> ms.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub injected_delays: std::collections::BTreeMap<String, f64>,
}

fn default_alloc_phase() -> String {
    "synthesis".into()
}

/// Phases a record of `mode` on `backend` must contain.
pub fn required_phases(mode: &str, backend: &str, verify: bool) -> Vec<&'static str> {
    if mode == "setup" {
        return match backend {
            "bellperson" => vec!["bellperson_generate", "write"],
            _ => vec![
                "record_shape",
                "qap_eval",
                "fixed_base_g1",
                "fixed_base_g2",
                "normalize",
                "write",
            ],
        };
    }
    if mode == "prove" && backend == "bellperson" {
        // bellperson synthesizes and proves inside one call: one phase.
        let mut v = vec![crate::bellperson_backend::PROVE_PHASE];
        if verify {
            v.push("verify");
        }
        return v;
    }
    let mut v = vec!["synthesis"];
    if mode == "prove" {
        v.extend([
            "ntt_h",
            "intt",
            "coset_ntt",
            "coset_intt",
            "msm_h",
            "msm_l",
            "msm_a",
            "msm_b_g1",
            "msm_b_g2",
            "assemble",
        ]);
        if backend == "cuda" {
            v.extend(["msm_prep", "h2d", "batch_add", "tail_msm", "b_g2"]);
            if cfg!(feature = "pin") {
                v.push("pin");
            }
        }
        if verify {
            v.push("verify");
        }
    }
    v
}

impl Record {
    /// Fails with the name of the first required phase that is missing.
    pub fn check_phases(&self) -> Result<(), ProverError> {
        let verify = self.verified.is_some();
        for name in required_phases(&self.mode, &self.backend, verify) {
            if !self.phases.iter().any(|p| p.name == name) {
                return Err(ProverError::MissingPhase(name.into()));
            }
        }
        Ok(())
    }
}
