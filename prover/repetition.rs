//! The record of one repetition of any runner mode (`synth`, `prove`,
//! `setup`): the build's facts, the phases and the wall time they leave
//! uncovered, the allocation counters. The modes' own files say what they
//! measure; this one says how it becomes a [`Record`].

use crate::alloc_count::{peak_rss_bytes, AllocCounts};
use crate::build_info;
use crate::phases::{covered_ms, Recorder};
use crate::record::{CircuitInfo, Record, SCHEMA_VERSION};
use std::collections::BTreeMap;

/// Which repetition of which run a record describes.
#[derive(Clone, Copy, Debug)]
pub struct Repetition<'a> {
    pub mode: &'a str,
    pub backend: &'a str,
    pub rep: usize,
    pub warmup: bool,
    /// Self-test delays injected into the phases, phase -> ms.
    pub delays: &'a BTreeMap<String, f64>,
}

impl Repetition<'_> {
    /// The record of this repetition: its phases from `rec`, `total_ms` of
    /// wall time, allocation counters `a` (of `synthesis` unless the caller
    /// says otherwise); not yet verified, no parameter file.
    pub fn record(&self, info: CircuitInfo, rec: Recorder, total_ms: f64, a: AllocCounts) -> Record {
        let phases = rec.into_phases();
        let phase_sum_ms = phases.iter().filter(|p| p.parent.is_none()).map(|p| p.ms).sum();
        let unaccounted_ms = (total_ms - covered_ms(&phases)).max(0.0);
        Record {
            schema_version: SCHEMA_VERSION,
            mode: self.mode.into(),
            backend: self.backend.into(),
            features: build_info::features(),
            inert_features: build_info::inert_features(self.backend),
            fingerprint: build_info::FINGERPRINT.into(),
            git_commit: build_info::GIT_COMMIT.into(),
            rep: self.rep,
            warmup: self.warmup,
            circuit: info,
            phases,
            total_ms,
            phase_sum_ms,
            unaccounted_ms,
            allocations: a.allocs,
            reallocations: a.reallocs,
            allocated_bytes: a.bytes,
            allocations_phase: "synthesis".into(),
            peak_rss_bytes: peak_rss_bytes().unwrap_or(0),
            verified: None,
            params: None,
            injected_delays: self.delays.clone(),
        }
    }
}
