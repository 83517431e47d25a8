//! The record written per repetition: the same JSON shape (schema version 1)
//! as the `phaseline-prover` runner's records, so the harness reads both alike.
//! Fields the runner fills from its counting allocator are zero here; the
//! fields after the head are the anchor's own additions. The head (mode,
//! backend, circuit facts, phases, totals) is the runner protocol's
//! `RecordHead`, so it cannot drift.

pub use phaseline_record::{CircuitInfo, Phase, RecordHead, SCHEMA_VERSION};
use serde::{Deserialize, Serialize};

/// One repetition's record: the protocol's head, then the anchor's counters.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    #[serde(flatten)]
    pub head: RecordHead,
    pub allocations: u64,
    pub reallocations: u64,
    pub allocated_bytes: u64,
    pub peak_rss_bytes: u64,
    /// The first proof made in this process (supraseal-c2 then pays one-off
    /// costs such as the PTX JIT of its kernels).
    pub cold: bool,
    /// Time to load the parameter file into supraseal-c2 (once per process).
    pub srs_load_ms: f64,
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
        let mut head = RecordHead::new(
            phaseline_record::Mode::Prove,
            phaseline_record::Backend::Supraseal,
            vec![],
            "f".into(),
            "c".into(),
        );
        head.phases = vec![Phase {
            name: "synthesis".into(),
            parent: None,
            start_ms: 0.0,
            ms: 1.0,
            thread: "main".into(),
            extra: Default::default(),
        }];
        head.verified = Some(true);
        let mut rec = Record {
            head,
            allocations: 0,
            reallocations: 0,
            allocated_bytes: 0,
            peak_rss_bytes: 0,
            cold: true,
            srs_load_ms: 0.0,
        };
        rec.head.set_totals(3.0);
        assert_eq!((rec.head.phase_sum_ms, rec.head.unaccounted_ms), (1.0, 2.0));
        let ours = serde_json::to_value(&rec).unwrap();
        let mut out = Vec::new();
        missing(&runner, &ours, "record", &mut out);
        assert!(out.is_empty(), "fields of the runner's record missing here: {out:?}");
        assert_eq!(runner["schema_version"], ours["schema_version"]);
        assert_eq!(rec.head.missing_phase(), Some("supraseal_prove"));
    }
}
