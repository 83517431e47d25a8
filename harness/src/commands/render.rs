//! Text forms of a comparison for the command line: table, json, csv, markdown.

use crate::error::HarnessError;
use crate::model::{Comparison, PhaseComparison, Verdict};

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Regressed => "REGRESSED",
        Verdict::Improved => "improved",
        Verdict::Unchanged => "unchanged",
        Verdict::Inconclusive => "inconclusive",
    }
}

fn cells(r: &PhaseComparison) -> Vec<String> {
    vec![
        r.variant.clone(),
        r.case.label(),
        r.phase.clone(),
        format!("{:.2}", r.ref_median_ms),
        format!("{:.2}", r.cand_median_ms),
        format!("{:+.1}%", (r.ratio - 1.0) * 100.0),
        format!(
            "[{:+.1}%, {:+.1}%]",
            (r.ci_low - 1.0) * 100.0,
            (r.ci_high - 1.0) * 100.0
        ),
        format!("{:.3}", r.q_value),
        format!("{:.1}%", r.threshold * 100.0),
        match (r.verdict, r.reps_needed) {
            (Verdict::Inconclusive, Some(n)) => format!("inconclusive (~{n} reps)"),
            (v, _) => verdict(v).into(),
        },
    ]
}

const HEAD: [&str; 10] = [
    "variant",
    "case",
    "phase",
    "ref ms",
    "cand ms",
    "change",
    "95% CI",
    "q",
    "threshold",
    "verdict",
];

fn header(c: &Comparison) -> String {
    let mut s = format!(
        "{} -> {} (alpha {}, seed {})\n",
        c.reference, c.candidate, c.alpha, c.bootstrap_seed
    );
    if c.cross_testbed {
        s.push_str(&format!(
            "WARNING: CROSS-TESTBED comparison ({} vs {}): timings from different machines\n",
            c.ref_testbed, c.cand_testbed
        ));
    }
    s
}

fn table(c: &Comparison) -> String {
    let rows: Vec<Vec<String>> = c.rows.iter().map(cells).collect();
    let mut w: Vec<usize> = HEAD.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (i, x) in r.iter().enumerate() {
            w[i] = w[i].max(x.len());
        }
    }
    let line = |r: &[String]| {
        r.iter()
            .enumerate()
            .map(|(i, x)| format!("{:<1$}", x, w[i]))
            .collect::<Vec<_>>()
            .join("  ")
    };
    let mut s = header(c);
    s.push_str(&line(&HEAD.map(String::from)));
    s.push('\n');
    for r in &rows {
        s.push_str(line(r).trim_end());
        s.push('\n');
    }
    s
}

fn markdown(c: &Comparison) -> String {
    let mut s = format!("### {}\n\n", header(c).trim_end().replace('\n', "\n\n"));
    s.push_str(&format!(
        "| {} |\n|{}|\n",
        HEAD.join(" | "),
        vec!["---"; HEAD.len()].join("|")
    ));
    for r in &c.rows {
        s.push_str(&format!("| {} |\n", cells(r).join(" | ")));
    }
    s
}

fn csv(c: &Comparison) -> Result<String, HarnessError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let e = |e: csv::Error| HarnessError::Invalid(format!("csv: {e}"));
    w.write_record([
        "variant",
        "suite",
        "circuit",
        "partitions",
        "backend",
        "phase",
        "ref_n",
        "cand_n",
        "ref_median_ms",
        "cand_median_ms",
        "ratio",
        "ci_low",
        "ci_high",
        "p_value",
        "q_value",
        "threshold",
        "verdict",
        "reps_needed",
        "cross_testbed",
    ])
    .map_err(e)?;
    for r in &c.rows {
        w.write_record([
            r.variant.clone(),
            r.case.suite.clone(),
            r.case.circuit.clone(),
            r.case.partitions.to_string(),
            r.case.backend.clone(),
            r.phase.clone(),
            r.ref_n.to_string(),
            r.cand_n.to_string(),
            r.ref_median_ms.to_string(),
            r.cand_median_ms.to_string(),
            r.ratio.to_string(),
            r.ci_low.to_string(),
            r.ci_high.to_string(),
            r.p_value.to_string(),
            r.q_value.to_string(),
            r.threshold.to_string(),
            verdict(r.verdict).to_lowercase(),
            r.reps_needed.map(|n| n.to_string()).unwrap_or_default(),
            c.cross_testbed.to_string(),
        ])
        .map_err(e)?;
    }
    let bytes = w.into_inner().map_err(|x| HarnessError::Invalid(format!("csv: {x}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Renders `c` in `format`.
pub fn render(c: &Comparison, format: &str) -> Result<String, HarnessError> {
    match format {
        "table" => Ok(table(c)),
        "markdown" => Ok(markdown(c)),
        "csv" => csv(c),
        "json" => serde_json::to_string_pretty(c)
            .map(|s| s + "\n")
            .map_err(|e| HarnessError::Invalid(format!("json: {e}"))),
        f => Err(HarnessError::Invalid(format!("unknown format `{f}`"))),
    }
}
