//! Per-phase medians per variant and case: the table printed after a run and
//! `summary.csv`.

use crate::model::{Case, Run};

/// One line of a run summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub case: Case,
    pub variant: String,
    pub phase: String,
    pub n: usize,
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
}

/// Median of `v` (NaN when empty).
pub fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}

/// Rows for every case, variant and phase with at least one measured value.
pub fn rows(run: &Run) -> Vec<Row> {
    let mut out = Vec::new();
    for case in &run.cases {
        for variant in run.variant_names() {
            for phase in run.phase_names(&variant, case) {
                let v = run.values(&variant, case, &phase);
                if v.is_empty() {
                    continue;
                }
                out.push(Row {
                    case: case.clone(),
                    variant: variant.clone(),
                    phase,
                    n: v.len(),
                    median_ms: median(&v),
                    min_ms: v.iter().copied().fold(f64::INFINITY, f64::min),
                    max_ms: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                });
            }
        }
    }
    out
}

/// A terminal table: one block per case, phases down, variants across (median ms).
pub fn table(run: &Run) -> String {
    let rows = rows(run);
    let variants = run.variant_names();
    let mut s = String::new();
    for case in &run.cases {
        let mut phases: Vec<String> = Vec::new();
        for r in rows.iter().filter(|r| &r.case == case) {
            if !phases.contains(&r.phase) {
                phases.push(r.phase.clone());
            }
        }
        if phases.is_empty() {
            s.push_str(&format!("{}: no measured samples\n\n", case.label()));
            continue;
        }
        s.push_str(&format!("{} (median ms)\n", case.label()));
        s.push_str(&format!("{:<16}", "phase"));
        for v in &variants {
            s.push_str(&format!(" {:>14}", v));
        }
        s.push('\n');
        for p in &phases {
            s.push_str(&format!("{:<16}", p));
            for v in &variants {
                let cell = rows
                    .iter()
                    .find(|r| &r.case == case && &r.variant == v && &r.phase == p)
                    .map(|r| format!("{:.2}", r.median_ms))
                    .unwrap_or_else(|| "-".into());
                s.push_str(&format!(" {:>14}", cell));
            }
            s.push('\n');
        }
        s.push('\n');
    }
    s
}
