//! The JSON record written per repetition (one JSON Lines row each): the
//! runner protocol's head (`phaseline_record::RecordHead`: mode, backend,
//! build facts, circuit, phases, totals) and this runner's counters, and the
//! check that a record carries every phase the protocol requires of it.

use crate::error::ProverError;
use crate::pipeline::PipelineStats;
pub use phaseline_record::{Backend, CircuitInfo, Mode, RecordHead, SCHEMA_VERSION};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One repetition's record.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    #[serde(flatten)]
    pub head: RecordHead,
    pub allocations: u64,
    pub reallocations: u64,
    pub allocated_bytes: u64,
    /// The phase the allocation counters cover: `synthesis`, or on a backend
    /// whose synthesis is not separable (bellperson) its one proving phase.
    #[serde(default = "default_alloc_phase")]
    pub allocations_phase: String,
    pub peak_rss_bytes: u64,
    /// CPU time the process used over the repetition (every thread), in ms:
    /// `total` on the CPU clock (`phaseline_record::names::TOTAL_CPU_MS`).
    #[serde(default)]
    pub total_cpu_ms: f64,
    /// Host bytes page-locked for transfers (B1, `pin`), summed over the
    /// repetition's `pin` spans (each reports the bytes it locked as its
    /// `count`); absent when nothing was pinned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinned_bytes: Option<u64>,
    /// Setup records: the fixed-base engine that ran (`cpu`, `cpu-projective`, `cuda`, `cuda-host`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_base: Option<String>,
    /// Self-test delays that were injected (`--inject-delay`), phase -> ms.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub injected_delays: BTreeMap<String, f64>,
    /// Pipelined proofs only: the bound on partitions in flight and how it was met.
    #[serde(flatten, default)]
    pub pipeline: PipelineFacts,
}

/// What a pipelined `prove` did (`crate::pipeline`), as top-level numbers of
/// the record (the harness keeps them as counters); all absent on the batch path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PipelineFacts {
    /// The bound on partitions in flight (made, waiting, or being proven).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline_depth: Option<usize>,
    /// The most partitions that were in flight at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline_max_in_flight: Option<usize>,
    /// The first partition's synthesized heap bytes, measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition_bytes: Option<u64>,
    /// `--mem-budget` in bytes, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mem_budget_bytes: Option<u64>,
}

impl From<PipelineStats> for PipelineFacts {
    fn from(s: PipelineStats) -> Self {
        PipelineFacts {
            pipeline_depth: Some(s.depth),
            pipeline_max_in_flight: Some(s.max_in_flight),
            partition_bytes: Some(s.partition_bytes),
            mem_budget_bytes: s.budget.map(|b| b.0),
        }
    }
}

fn default_alloc_phase() -> String {
    phaseline_record::names::SYNTHESIS.into()
}

/// A record is its head plus counters: its head's fields read and write through it.
impl std::ops::Deref for Record {
    type Target = RecordHead;
    fn deref(&self) -> &RecordHead {
        &self.head
    }
}

impl std::ops::DerefMut for Record {
    fn deref_mut(&mut self) -> &mut RecordHead {
        &mut self.head
    }
}

/// Bytes the repetition's `pin` spans locked, summed; `None` without such a span.
pub fn pinned_bytes(phases: &[phaseline_record::Phase]) -> Option<u64> {
    let pins: Vec<u64> = phases
        .iter()
        .filter(|p| p.name == "pin")
        .map(|p| p.extra.get("count").and_then(|c| c.as_u64()).unwrap_or(0))
        .collect();
    (!pins.is_empty()).then(|| pins.iter().sum())
}

impl Record {
    /// Fails with the name of the first phase the protocol requires of this record and it lacks.
    pub fn check_phases(&self) -> Result<(), ProverError> {
        match self.head.missing_phase() {
            Some(name) => Err(ProverError::MissingPhase(name.into())),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phaseline_record::Phase;

    fn span(name: &str, count: Option<u64>) -> Phase {
        let mut extra = serde_json::Map::new();
        if let Some(c) = count {
            extra.insert("count".into(), c.into());
        }
        Phase {
            name: name.into(),
            parent: None,
            start_ms: 0.0,
            ms: 1.0,
            thread: "gpu-host".into(),
            extra,
        }
    }

    #[test]
    fn pinned_bytes_sum_the_pin_spans_only() {
        assert_eq!(pinned_bytes(&[span("h2d", Some(7))]), None);
        let ph = [
            span("pin", Some(4096)),
            span("h2d", Some(7)),
            span("pin", Some(100)),
            span("unpin", Some(1)),
        ];
        assert_eq!(pinned_bytes(&ph), Some(4196));
    }
}
