//! Terminal table: aligned columns, verdict column, cross-testbed warning on top.

use super::cells::{self, align};
use super::exporter::Exporter;
use crate::error::HarnessError;
use crate::model::Comparison;
use crate::summary::RunSummary;

pub struct Table;

impl Exporter for Table {
    fn comparison(&self, c: &Comparison) -> Result<String, HarnessError> {
        let mut out = String::new();
        out.push_str(&format!("reference: {} (testbed {})\n", c.reference, c.ref_testbed));
        out.push_str(&format!("candidate: {} (testbed {})\n", c.candidate, c.cand_testbed));
        if c.cross_testbed {
            out.push_str(&cross_warning(c));
        }
        let mut rows = vec![[
            "variant", "case", "phase", "ref ms", "cand ms", "change", "95% CI", "p", "q", "thr", "verdict", "note",
        ]
        .map(String::from)
        .to_vec()];
        let mut prev: Option<(String, String)> = None;
        for r in &c.rows {
            let key = (r.variant.clone(), r.case.label());
            let (v, k) = if prev.as_ref() == Some(&key) {
                (String::new(), String::new())
            } else {
                key.clone()
            };
            prev = Some(key);
            let mut row = vec![v, k, r.phase.clone()];
            row.extend(cells::number_cells(r, "-", |lo, hi| format!("[{lo}, {hi}]")));
            row.push(cells::verdict_cell(r));
            row.push(r.note.clone().unwrap_or_default());
            rows.push(row);
        }
        let right = [
            false, false, false, true, true, true, true, true, true, true, false, false,
        ];
        out.push_str(&align(&rows, &right));
        out.push_str(&format!(
            "{} (change counts when q < {} and the whole 95% CI lies beyond the threshold; bootstrap seed {})\n",
            cells::counts(&c.rows),
            c.alpha,
            c.bootstrap_seed
        ));
        if c.cross_testbed {
            out.push_str(&cross_warning(c));
        }
        Ok(out)
    }

    fn run_summary(&self, s: &RunSummary) -> Result<String, HarnessError> {
        let mut out = format!(
            "run {} (testbed {}): median ms ± half-IQR per phase\n",
            s.run_id, s.testbed
        );
        for case in &s.cases {
            let mut rows = vec![std::iter::once(case.label())
                .chain(s.variants.iter().cloned())
                .collect::<Vec<_>>()];
            rows.push(
                std::iter::once("samples".to_string())
                    .chain(s.variants.iter().map(|v| samples_cell(s, v, case)))
                    .collect(),
            );
            for p in s.phases(case) {
                let cells_row = s.variants.iter().map(|v| match s.get(v, case, &p) {
                    Some(r) => median_cell(r),
                    None => "-".into(),
                });
                rows.push(std::iter::once(p.clone()).chain(cells_row).collect());
            }
            let right: Vec<bool> = (0..=s.variants.len()).map(|i| i > 0).collect();
            out.push('\n');
            out.push_str(&align(&rows, &right));
        }
        Ok(out)
    }
}

pub(super) fn cross_warning(c: &Comparison) -> String {
    format!(
        "WARNING: cross-testbed comparison (reference testbed {}, candidate testbed {}): timings may differ for reasons other than the code\n",
        c.ref_testbed, c.cand_testbed
    )
}

/// `median ±spread` of a summary row, `-` without samples.
pub(super) fn median_cell(r: &crate::summary::PhaseSummary) -> String {
    match (r.median_ms, r.rel_half_iqr()) {
        (Some(m), Some(h)) => format!("{} ±{}", cells::ms(m), cells::pct(h)),
        (Some(m), None) => cells::ms(m),
        _ => "-".into(),
    }
}

/// `n` (and failures) of a variant on a case.
pub(super) fn samples_cell(s: &RunSummary, variant: &str, case: &crate::model::Case) -> String {
    let rows: Vec<_> = s
        .rows
        .iter()
        .filter(|r| r.variant == variant && &r.case == case)
        .collect();
    let n = rows.iter().map(|r| r.n).max().unwrap_or(0);
    let failed = rows.first().map(|r| r.failed).unwrap_or(0);
    match (rows.is_empty(), failed) {
        (true, _) => "-".into(),
        (false, 0) => n.to_string(),
        (false, f) => format!("{n} ({f} failed)"),
    }
}
