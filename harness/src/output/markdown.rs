//! Markdown for CI job summaries: a header line, regressions first, verdict markers.

use super::cells;
use super::exporter::Exporter;
use super::table::{median_cell, samples_cell};
use crate::error::HarnessError;
use crate::model::{Comparison, Verdict};
use crate::summary::RunSummary;

pub struct Markdown;

fn marker(v: Verdict) -> &'static str {
    match v {
        Verdict::Regressed => "🔴",
        Verdict::Improved => "🟢",
        Verdict::Unchanged => "⚪",
        Verdict::Inconclusive => "🟡",
        Verdict::Overlapped => "🔵",
    }
}

/// Escapes a table cell (pipes, newlines).
fn esc(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

impl Exporter for Markdown {
    fn comparison(&self, c: &Comparison) -> Result<String, HarnessError> {
        let mut out = format!("### phaseline compare: {}\n\n", cells::counts(&c.rows));
        out.push_str(&format!(
            "Reference `{}` · candidate `{}` · testbed `{}`\n\n",
            esc(&c.reference),
            esc(&c.candidate),
            esc(&c.cand_testbed)
        ));
        if c.cross_testbed {
            out.push_str(&format!(
                "> ⚠️ **Cross-testbed comparison**: reference testbed `{}`, candidate testbed `{}`. \
                 Timings may differ for reasons other than the code.\n\n",
                esc(&c.ref_testbed),
                esc(&c.cand_testbed)
            ));
        }
        out.push_str(
            "| | variant | case | phase | ref ms | cand ms | change | 95% CI | p | q | threshold | verdict | note |\n",
        );
        out.push_str("|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|---|\n");
        let mut rows: Vec<_> = c.rows.iter().collect();
        rows.sort_by_key(|r| cells::severity(r.verdict));
        for r in rows {
            let mut cols = vec![
                marker(r.verdict).to_string(),
                esc(&r.variant),
                esc(&r.case.label()),
                esc(&r.phase),
            ];
            cols.extend(cells::number_cells(r, "–", |lo, hi| format!("{lo} … {hi}")));
            cols.push(if r.verdict == Verdict::Regressed {
                format!("**{}**", cells::verdict_cell(r))
            } else {
                cells::verdict_cell(r)
            });
            cols.push(esc(r.note.as_deref().unwrap_or("")));
            out.push_str(&format!("| {} |\n", cols.join(" | ")));
        }
        out.push_str(&format!(
            "\nA change counts when its Benjamini-Hochberg q < {} and its whole 95% bootstrap interval lies beyond the \
             threshold; bootstrap seed {}.\n",
            c.alpha, c.bootstrap_seed
        ));
        Ok(out)
    }

    fn run_summary(&self, s: &RunSummary) -> Result<String, HarnessError> {
        let mut out = format!(
            "### phaseline run `{}`\n\nTestbed `{}`. Median ms ± half the interquartile range.\n",
            esc(&s.run_id),
            esc(&s.testbed)
        );
        for case in &s.cases {
            out.push_str(&format!("\n**{}**\n\n| phase |", esc(&case.label())));
            for v in &s.variants {
                out.push_str(&format!(" {} |", esc(v)));
            }
            out.push_str("\n|---|");
            out.push_str(&"--:|".repeat(s.variants.len()));
            out.push_str("\n| samples |");
            for v in &s.variants {
                out.push_str(&format!(" {} |", samples_cell(s, v, case)));
            }
            out.push('\n');
            for p in s.phases(case) {
                out.push_str(&format!("| {} |", esc(&p)));
                for v in &s.variants {
                    let cell = s.get(v, case, &p).map(median_cell).unwrap_or_else(|| "–".into());
                    out.push_str(&format!(" {cell} |"));
                }
                out.push('\n');
            }
        }
        Ok(out)
    }
}
