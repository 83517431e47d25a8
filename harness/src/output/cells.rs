//! Cell formatting shared by the human-readable formats.

use crate::model::{PhaseComparison, Verdict};

/// False for a row that could not be tested (a side missing, too few samples): such rows carry
/// placeholder ratio and interval (`ci_low == ci_high == ratio`, `p == q == 1`) and a note.
pub fn is_tested(r: &PhaseComparison) -> bool {
    let placeholder = r.note.is_some()
        && r.p_value == 1.0
        && r.q_value == 1.0
        && r.ci_low == r.ratio
        && r.ci_high == r.ratio
        && r.verdict == Verdict::Inconclusive;
    r.ref_n > 0 && r.cand_n > 0 && !placeholder
}

/// Milliseconds with precision that fits the size.
pub fn ms(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// A ratio as a signed percentage change (`1.054` -> `+5.4%`).
pub fn change(ratio: f64) -> String {
    if ratio >= 1e6 {
        return "huge".into();
    }
    format!("{:+.1}%", (ratio - 1.0) * 100.0)
}

pub fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// A phase's effective threshold. Where the absolute floor dominates (a phase
/// of microseconds against a floor of half a millisecond) the relative value
/// is thousands of percent and says only "too small to judge", so it is
/// capped in the text; the JSON and CSV keep the exact value.
pub fn threshold(v: f64) -> String {
    if v >= 10.0 {
        ">999%".into()
    } else {
        pct(v)
    }
}

/// p or q with enough digits to read small values.
pub fn pval(p: f64) -> String {
    if p < 0.0001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

pub fn verdict_word(v: Verdict) -> &'static str {
    v.as_str()
}

/// Verdict with the reps-needed hint of inconclusive rows.
pub fn verdict_cell(r: &PhaseComparison) -> String {
    match (r.verdict, r.reps_needed) {
        (Verdict::Inconclusive, Some(n)) => format!("inconclusive (~{n} reps)"),
        (v, _) => verdict_word(v).to_string(),
    }
}

/// The seven number cells of a comparison row, in column order: reference
/// median, candidate median, change, 95% interval, p, q, threshold. A value
/// that is missing (a side without samples) or untested is `dash`; `interval`
/// writes the interval from its two ends, already formatted as changes.
pub fn number_cells(r: &PhaseComparison, dash: &str, interval: impl Fn(String, String) -> String) -> [String; 7] {
    let tested = is_tested(r);
    let cell = |ok: bool, text: String| if ok { text } else { dash.to_string() };
    [
        cell(r.ref_n > 0, ms(r.ref_median_ms)),
        cell(r.cand_n > 0, ms(r.cand_median_ms)),
        cell(r.ref_n > 0 && r.cand_n > 0, change(r.ratio)),
        cell(tested, interval(change(r.ci_low), change(r.ci_high))),
        cell(tested, pval(r.p_value)),
        cell(tested, pval(r.q_value)),
        threshold(r.threshold),
    ]
}

/// Order used to list regressions first.
pub fn severity(v: Verdict) -> u8 {
    match v {
        Verdict::Regressed => 0,
        Verdict::Inconclusive => 1,
        Verdict::Overlapped => 2,
        Verdict::Improved => 3,
        Verdict::Unchanged => 4,
    }
}

/// Counts per verdict, as "1 regressed, 3 unchanged".
pub fn counts(rows: &[PhaseComparison]) -> String {
    let parts: Vec<String> = [
        Verdict::Regressed,
        Verdict::Improved,
        Verdict::Unchanged,
        Verdict::Inconclusive,
        Verdict::Overlapped,
    ]
    .into_iter()
    .filter_map(|v| {
        let n = rows.iter().filter(|r| r.verdict == v).count();
        (n > 0).then(|| format!("{n} {}", verdict_word(v)))
    })
    .collect();
    if parts.is_empty() {
        "no rows".into()
    } else {
        parts.join(", ")
    }
}

/// Left-aligned text columns padded to the widest cell; `right` marks right-aligned columns.
pub fn align(rows: &[Vec<String>], right: &[bool]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c].saturating_sub(cell.chars().count());
            if c > 0 {
                line.push_str("  ");
            }
            if right.get(c).copied().unwrap_or(false) {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
