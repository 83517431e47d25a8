//! The record of one repetition of any runner mode (`synth`, `prove`,
//! `setup`): the build's facts, the phases and the wall time they leave
//! uncovered, the allocation counters. The modes' own files say what they
//! measure; this one says how it becomes a [`Record`].

use crate::alloc_count::{peak_rss_bytes, AllocCounts};
use crate::build_info;
use crate::phases::Recorder;
use crate::record::{pinned_bytes, Backend, CircuitInfo, Mode, Record, RecordHead};
use std::collections::BTreeMap;

/// Which repetition of which run a record describes.
#[derive(Clone, Copy, Debug)]
pub struct Repetition<'a> {
    pub mode: Mode,
    pub backend: Backend,
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
        let mut head = RecordHead::new(
            self.mode,
            self.backend,
            build_info::features(),
            build_info::FINGERPRINT.into(),
            build_info::GIT_COMMIT.into(),
        );
        head.inert_features = build_info::inert_features(self.backend, &info.name);
        head.rep = self.rep;
        head.warmup = self.warmup;
        head.circuit = info;
        let total_cpu_ms = rec.cpu_elapsed_ms();
        head.phases = rec.into_phases();
        head.set_totals(total_ms);
        let pinned_bytes = pinned_bytes(&head.phases);
        Record {
            head,
            allocations: a.allocs,
            reallocations: a.reallocs,
            allocated_bytes: a.bytes,
            allocations_phase: phaseline_record::names::SYNTHESIS.into(),
            peak_rss_bytes: peak_rss_bytes().unwrap_or(0),
            total_cpu_ms,
            pinned_bytes,
            fixed_base: None,
            injected_delays: self.delays.clone(),
            pipeline: Default::default(),
        }
    }
}
