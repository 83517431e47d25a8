//! The record written per repetition: the same JSON shape (schema version 1)
//! as the `phaseline-prover` runner's records, so the harness reads both alike.
//! Fields the runner fills from its counting allocator are zero here; the
//! fields after `verified` are the anchor's own additions.

use serde::{Deserialize, Serialize};

pub const SCHEMA_VERSION: u32 = 1;

/// Circuit facts, as in the runner's records.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CircuitInfo {
    pub name: String,
    pub shape_id: String,
    /// Rows of the constraint system, including one `input * 1 = 0` row per input.
    pub constraints: usize,
    pub aux: usize,
    /// Public inputs, including the constant one.
    pub inputs: usize,
    pub partitions: usize,
    pub domain_log2: u32,
    pub aux_zero: usize,
    pub aux_one: usize,
    pub aux_other: usize,
    pub a_aux_density: f64,
    pub b_aux_density: f64,
    pub b_input_density: f64,
}

/// One timed span.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Phase {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Start offset from the start of the repetition, in milliseconds.
    pub start_ms: f64,
    pub ms: f64,
    pub thread: String,
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

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

/// Length of the union of the top-level spans (overlaps count once).
pub fn covered_ms(phases: &[Phase]) -> f64 {
    let mut spans: Vec<(f64, f64)> = phases
        .iter()
        .filter(|p| p.parent.is_none())
        .map(|p| (p.start_ms, p.start_ms + p.ms))
        .collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut total = 0.0;
    let mut cur: Option<(f64, f64)> = None;
    for (s, e) in spans {
        cur = match cur {
            Some((cs, ce)) if s <= ce => Some((cs, ce.max(e))),
            Some((cs, ce)) => {
                total += ce - cs;
                Some((s, e))
            }
            None => Some((s, e)),
        };
    }
    total + cur.map(|(s, e)| e - s).unwrap_or(0.0)
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
mod tests {
    use super::*;

    fn p(name: &str, s: f64, ms: f64) -> Phase {
        Phase {
            name: name.into(),
            parent: None,
            start_ms: s,
            ms,
            thread: "main".into(),
            extra: Default::default(),
        }
    }

    #[test]
    fn overlapping_spans_count_once() {
        assert!((covered_ms(&[p("a", 0.0, 10.0), p("b", 5.0, 10.0), p("c", 20.0, 5.0)]) - 20.0).abs() < 1e-9);
        assert_eq!(covered_ms(&[]), 0.0);
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
