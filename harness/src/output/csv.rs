//! CSV: one flat record per row, header first; numbers unformatted.

use serde::Serialize;

use super::exporter::Exporter;
use crate::error::HarnessError;
use crate::model::{Case, Comparison};
use crate::summary::RunSummary;

pub struct Csv;

/// The columns that name a row: variant, case and phase. Records are written
/// as tuples `(head, key, values)`, which the CSV writer lays out flat, so the
/// key columns stand between each format's own columns.
#[derive(Serialize)]
struct RowKey<'a> {
    variant: &'a str,
    suite: &'a str,
    circuit: &'a str,
    partitions: usize,
    backend: &'a str,
    phase: &'a str,
}

impl<'a> RowKey<'a> {
    fn new(variant: &'a str, case: &'a Case, phase: &'a str) -> Self {
        RowKey {
            variant,
            suite: &case.suite,
            circuit: &case.circuit,
            partitions: case.partitions,
            backend: case.backend.as_str(),
            phase,
        }
    }
}

#[derive(Serialize)]
struct ComparisonHead<'a> {
    reference: &'a str,
    candidate: &'a str,
    cross_testbed: bool,
}

#[derive(Serialize)]
struct ComparisonValues<'a> {
    ref_n: usize,
    cand_n: usize,
    ref_median_ms: f64,
    cand_median_ms: f64,
    ratio: f64,
    ci_low: f64,
    ci_high: f64,
    p_value: f64,
    q_value: f64,
    threshold: f64,
    verdict: &'a str,
    reps_needed: Option<usize>,
    note: &'a str,
}

#[derive(Serialize)]
struct SummaryHead<'a> {
    run_id: &'a str,
    testbed: &'a str,
}

#[derive(Serialize)]
struct SummaryValues {
    n: usize,
    failed: usize,
    median_ms: Option<f64>,
    p25_ms: Option<f64>,
    p75_ms: Option<f64>,
    min_ms: Option<f64>,
    max_ms: Option<f64>,
}

fn write_all<T: Serialize>(records: impl IntoIterator<Item = T>) -> Result<String, HarnessError> {
    let err = |e: String| HarnessError::Data(format!("CSV encoding: {e}"));
    let mut w = ::csv::Writer::from_writer(Vec::new());
    for r in records {
        w.serialize(r).map_err(|e| err(e.to_string()))?;
    }
    let bytes = w.into_inner().map_err(|e| err(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| err(e.to_string()))
}

impl Exporter for Csv {
    fn comparison(&self, c: &Comparison) -> Result<String, HarnessError> {
        let head = ComparisonHead {
            reference: &c.reference,
            candidate: &c.candidate,
            cross_testbed: c.cross_testbed,
        };
        write_all(c.rows.iter().map(|r| {
            let values = ComparisonValues {
                ref_n: r.ref_n,
                cand_n: r.cand_n,
                ref_median_ms: r.ref_median_ms,
                cand_median_ms: r.cand_median_ms,
                ratio: r.ratio,
                ci_low: r.ci_low,
                ci_high: r.ci_high,
                p_value: r.p_value,
                q_value: r.q_value,
                threshold: r.threshold,
                verdict: super::cells::verdict_word(r.verdict),
                reps_needed: r.reps_needed,
                note: r.note.as_deref().unwrap_or(""),
            };
            (&head, RowKey::new(&r.variant, &r.case, &r.phase), values)
        }))
    }

    fn run_summary(&self, s: &RunSummary) -> Result<String, HarnessError> {
        let head = SummaryHead {
            run_id: &s.run_id,
            testbed: &s.testbed,
        };
        write_all(s.rows.iter().map(|r| {
            let values = SummaryValues {
                n: r.n,
                failed: r.failed,
                median_ms: r.median_ms,
                p25_ms: r.p25_ms,
                p75_ms: r.p75_ms,
                min_ms: r.min_ms,
                max_ms: r.max_ms,
            };
            (&head, RowKey::new(&r.variant, &r.case, &r.phase), values)
        }))
    }
}
