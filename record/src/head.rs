//! The head of every runner record: the fields the harness reads, written
//! alike by our prover, the anchors and the harness's test double. Each runner
//! embeds it (`#[serde(flatten)]`) and adds counters of its own after it.

use crate::mode::{Backend, Mode};
use crate::required::{first_missing, Requires};
use crate::{CircuitInfo, ParamsFile, Phase, SCHEMA_VERSION};
use serde::{Deserialize, Serialize};

/// One repetition's record, as far as every runner writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordHead {
    /// [`SCHEMA_VERSION`]; a reader refuses others.
    pub schema_version: u32,
    pub mode: Mode,
    pub backend: Backend,
    /// Cargo features the runner was built with, sorted.
    pub features: Vec<String>,
    /// Features that change nothing on this backend (`pin` on the CPU).
    #[serde(default)]
    pub inert_features: Vec<String>,
    /// Build fingerprint, as `info --json` reports it.
    pub fingerprint: String,
    pub git_commit: String,
    pub rep: usize,
    /// A warm-up repetition: stored, never measured.
    pub warmup: bool,
    pub circuit: CircuitInfo,
    pub phases: Vec<Phase>,
    /// Wall time of the repetition, in ms.
    pub total_ms: f64,
    /// Sum of top-level phase durations (overlapping phases each counted).
    pub phase_sum_ms: f64,
    /// Wall time not covered by any top-level phase.
    pub unaccounted_ms: f64,
    /// Whether the proofs were verified (absent: not asked to).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// The parameter file the proofs were made with (`prove` records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<ParamsFile>,
}

impl RecordHead {
    /// A head with no phases yet (totals zero), for the runner to fill.
    pub fn new(mode: Mode, backend: Backend, features: Vec<String>, fingerprint: String, git_commit: String) -> Self {
        RecordHead {
            schema_version: SCHEMA_VERSION,
            mode,
            backend,
            features,
            inert_features: Vec::new(),
            fingerprint,
            git_commit,
            rep: 0,
            warmup: false,
            circuit: CircuitInfo::default(),
            phases: Vec::new(),
            total_ms: 0.0,
            phase_sum_ms: 0.0,
            unaccounted_ms: 0.0,
            verified: None,
            params: None,
        }
    }

    /// Sets `total_ms` and derives the phase sum and the time no top-level phase covers.
    pub fn set_totals(&mut self, total_ms: f64) {
        self.total_ms = total_ms;
        self.phase_sum_ms = self.phases.iter().filter(|p| p.parent.is_none()).map(|p| p.ms).sum();
        self.unaccounted_ms = (total_ms - crate::covered_ms(&self.phases)).max(0.0);
    }

    /// What decides the required phases besides mode and backend.
    pub fn requires(&self) -> Requires {
        Requires::of(self.verified.is_some(), &self.features)
    }

    /// The first phase this record must carry and lacks.
    pub fn missing_phase(&self) -> Option<&'static str> {
        first_missing(self.mode, self.backend, self.requires(), |n| {
            self.phases.iter().any(|p| p.name == n)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_missing_phases() {
        let mut h = RecordHead::new(Mode::Prove, Backend::Supraseal, vec![], "f".into(), "c".into());
        h.verified = Some(true);
        h.phases.push(Phase {
            name: crate::names::SYNTHESIS.into(),
            parent: None,
            start_ms: 0.0,
            ms: 1.0,
            thread: "main".into(),
            extra: Default::default(),
        });
        h.set_totals(3.0);
        assert_eq!((h.phase_sum_ms, h.unaccounted_ms), (1.0, 2.0));
        assert_eq!(h.missing_phase(), Some(crate::names::SUPRASEAL_PROVE));
        let json = serde_json::to_value(&h).unwrap();
        assert_eq!(json["mode"], "prove");
        assert_eq!(json["backend"], "supraseal");
        let back: RecordHead = serde_json::from_value(json).unwrap();
        assert_eq!(back, h);
    }
}
