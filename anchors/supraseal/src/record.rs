//! The record written per repetition: the same JSON shape (schema version 1)
//! as the `phaseline-prover` runner's records, so the harness reads both alike.
//! Fields the runner fills from its counting allocator are zero here; the
//! fields after `verified` are the anchor's own additions. The circuit facts
//! and phases are the shared `phaseline-record` types, so they cannot drift.

pub use phaseline_record::{covered_ms, CircuitInfo, Phase, SCHEMA_VERSION};
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
    pub phase_sum_ms: f64,
    pub unaccounted_ms: f64,
    pub allocations: u64,
    pub reallocations: u64,
    pub allocated_bytes: u64,
    pub peak_rss_bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// The first proof made in this process (supraseal-c2 then pays one-off
    /// costs such as the PTX JIT of its kernels).
    pub cold: bool,
    /// Time to load the parameter file into supraseal-c2 (once per process).
    pub srs_load_ms: f64,
}

/// Phases every anchor `prove` record must carry.
pub fn required_phases(verify: bool) -> Vec<&'static str> {
    let mut v = vec!["synthesis", "supraseal_prove"];
    if verify {
        v.push("verify");
    }
    v
}

impl Record {
    /// The name of the first required phase this record lacks, if any.
    pub fn missing_phase(&self) -> Option<&'static str> {
        required_phases(self.verified.is_some())
            .into_iter()
            .find(|name| !self.phases.iter().any(|p| p.name == *name))
    }

    /// Fills the derived totals from the phases and the wall time.
    pub fn set_totals(&mut self, total_ms: f64) {
        self.total_ms = total_ms;
        self.phase_sum_ms = self.phases.iter().filter(|p| p.parent.is_none()).map(|p| p.ms).sum();
        self.unaccounted_ms = (total_ms - covered_ms(&self.phases)).max(0.0);
    }
}

#[cfg(test)]
mod shape_tests {
    use super::*;
    use serde_json::Value;

    /// Keys of `runner` (recursively, into objects and the first array element) missing in `ours`.
    fn missing(runner: &Value, ours: &Value, at: &str, out: &mut Vec<String>) {
        match (runner, ours) {
            (Value::Object(r), Value::Object(o)) => {
                for (k, v) in r {
                    match o.get(k) {
                        Some(w) => missing(v, w, &format!("{at}.{k}"), out),
                        None => out.push(format!("{at}.{k}")),
                    }
                }
            }
            (Value::Array(r), Value::Array(o)) => {
                if let (Some(a), Some(b)) = (r.first(), o.first()) {
                    missing(a, b, &format!("{at}[0]"), out);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn carries_every_field_of_a_runner_record() {
        let runner: Value = serde_json::from_str(include_str!("../tests/fixtures/runner-record.json")).unwrap();
        let mut rec = Record {
            schema_version: SCHEMA_VERSION,
            mode: "prove".into(),
            backend: "supraseal".into(),
            features: vec![],
            inert_features: vec![],
            fingerprint: "f".into(),
            git_commit: "c".into(),
            rep: 0,
            warmup: false,
            circuit: CircuitInfo::default(),
            phases: vec![Phase {
                name: "synthesis".into(),
                parent: None,
                start_ms: 0.0,
                ms: 1.0,
                thread: "main".into(),
                extra: Default::default(),
            }],
            total_ms: 0.0,
            phase_sum_ms: 0.0,
            unaccounted_ms: 0.0,
            allocations: 0,
            reallocations: 0,
            allocated_bytes: 0,
            peak_rss_bytes: 0,
            verified: Some(true),
            cold: true,
            srs_load_ms: 0.0,
        };
        rec.set_totals(3.0);
        assert_eq!((rec.phase_sum_ms, rec.unaccounted_ms), (1.0, 2.0));
        let ours = serde_json::to_value(&rec).unwrap();
        let mut out = Vec::new();
        missing(&runner, &ours, "record", &mut out);
        assert!(out.is_empty(), "fields of the runner's record missing here: {out:?}");
        assert_eq!(runner["schema_version"], ours["schema_version"]);
        assert_eq!(rec.missing_phase(), Some("supraseal_prove"));
    }
}
