//! One timed span of a record, and the wall time the top-level spans cover.

use serde::{Deserialize, Serialize};

/// One timed span.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Phase {
    pub name: String,
    /// Parent phase name, for nested phases (`intt` inside `ntt_h`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Start offset from the start of the repetition, in milliseconds.
    pub start_ms: f64,
    pub ms: f64,
    /// Lane: the thread (or stream) that ran it.
    pub thread: String,
    /// Extra numbers (allocation counts, MSM sizes).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Length of the union of the top-level spans (overlapping spans count once).
pub fn covered_ms(phases: &[Phase]) -> f64 {
    union_ms(
        phases
            .iter()
            .filter(|p| p.parent.is_none())
            .map(|p| (p.start_ms, p.start_ms + p.ms)),
    )
}

/// Length of the union of `[start, end)` intervals (overlaps count once).
pub fn union_ms(intervals: impl IntoIterator<Item = (f64, f64)>) -> f64 {
    let mut spans: Vec<(f64, f64)> = intervals.into_iter().collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, parent: Option<&str>, s: f64, ms: f64) -> Phase {
        Phase {
            name: name.into(),
            parent: parent.map(String::from),
            start_ms: s,
            ms,
            thread: "t".into(),
            extra: Default::default(),
        }
    }

    #[test]
    fn union_counts_overlap_once() {
        let v = vec![
            p("a", None, 0.0, 10.0),
            p("b", None, 5.0, 10.0),
            p("c", None, 20.0, 5.0),
        ];
        assert!((covered_ms(&v) - 20.0).abs() < 1e-9);
        assert_eq!(covered_ms(&[]), 0.0);
    }

    #[test]
    fn nested_spans_do_not_count() {
        let v = vec![p("a", None, 0.0, 10.0), p("inner", Some("a"), 50.0, 10.0)];
        assert!((covered_ms(&v) - 10.0).abs() < 1e-9);
    }

    #[test]
    fn json_leaves_out_empty_parent_and_extra() {
        let json = serde_json::to_string(&p("a", None, 1.0, 2.0)).unwrap();
        assert_eq!(json, r#"{"name":"a","start_ms":1.0,"ms":2.0,"thread":"t"}"#);
        let back: Phase = serde_json::from_str(&json).unwrap();
        assert_eq!(back, p("a", None, 1.0, 2.0));
    }
}
