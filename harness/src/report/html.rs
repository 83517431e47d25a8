//! The self-contained HTML report: inline CSS, charts as inline SVG, tables of
//! medians, intervals and verdicts, provenance. No script, no external URL:
//! opening it fetches nothing. Every piece of text from a run is escaped.

use super::contents::{Report, VERDICTS};
use crate::chart::{data, palette::phase_hex};
use crate::model::{PhaseComparison, Run, Verdict};
use std::fmt::Write;

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:'DejaVu Sans',sans-serif;margin:24px;color:#222;max-width:1100px}\
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px}\
table{border-collapse:collapse;margin:8px 0;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}\
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f2f2f2}\
.regressed{color:#c80000;font-weight:bold}.improved{color:#008200}.unchanged,.inconclusive,.overlapped{color:#666}\
.warn{background:#fff3cd;border:1px solid #e0c060;padding:8px}.sw{display:inline-block;width:10px;height:10px;margin-right:6px}\
figure{margin:16px 0}figcaption{font-size:13px;color:#444}svg{max-width:100%;height:auto}";

fn row(cells: &[String]) -> String {
    format!("<tr>{}</tr>", cells.concat())
}

fn td(s: &str) -> String {
    format!("<td>{}</td>", escape(s))
}

fn num(s: String) -> String {
    format!("<td class=\"n\">{}</td>", escape(&s))
}

fn th(cols: &[&str]) -> String {
    let cells: Vec<String> = cols.iter().map(|c| format!("<th>{}</th>", escape(c))).collect();
    row(&cells)
}

fn phase_cell(p: &str) -> String {
    format!(
        "<td><span class=\"sw\" style=\"background:{}\"></span>{}</td>",
        phase_hex(p),
        escape(p)
    )
}

fn verdict_name(v: Verdict) -> &'static str {
    VERDICTS[match v {
        Verdict::Regressed => 0,
        Verdict::Improved => 1,
        Verdict::Unchanged => 2,
        Verdict::Inconclusive => 3,
        Verdict::Overlapped => 4,
    }]
}

fn provenance(run: &Run) -> String {
    let p = &run.provenance;
    let t = &run.testbed;
    let mut rows = vec![
        ("run", run.id.clone()),
        (
            "git commit",
            format!("{}{}", p.git_commit, if p.git_dirty { " (dirty tree)" } else { "" }),
        ),
        (
            "started / finished (UTC)",
            format!("{} / {}", p.started_utc, p.finished_utc),
        ),
        ("command", p.command.join(" ")),
        ("harness version", p.harness_version.clone()),
        ("testbed", t.key.clone()),
        ("CPU", format!("{} ({} cores)", t.cpu_model, t.cpu_cores)),
        (
            "GPU",
            match (&t.gpu_model, &t.gpu_driver) {
                (Some(m), Some(d)) => format!("{m}, driver {d}"),
                (Some(m), None) => m.clone(),
                _ => "none".into(),
            },
        ),
        ("OS / kernel", format!("{} / {}", p.os, p.kernel)),
        (
            "memory",
            format!("{:.1} GiB", p.total_memory_bytes as f64 / (1u64 << 30) as f64),
        ),
    ];
    for (k, v) in &p.settings {
        rows.push(("setting", format!("{k} = {v}")));
    }
    let mut s = String::from("<table>");
    for (k, v) in rows {
        s.push_str(&row(&[format!("<th>{}</th>", escape(k)), td(&v)]));
    }
    s.push_str("</table><h3>Variants</h3><table>");
    s.push_str(&th(&["variant", "features", "fingerprint", "runner"]));
    for v in &run.variants {
        let feats = if v.variant.features.is_empty() {
            "(none)".to_string()
        } else {
            v.variant.feature_list()
        };
        let runner = if v.cached { "cached" } else { "built" };
        s.push_str(&row(&[td(&v.variant.name), td(&feats), td(&v.fingerprint), td(runner)]));
    }
    s.push_str("</table>");
    s
}

fn medians(run: &Run) -> String {
    let mut s = String::new();
    let variants = data::variants(run);
    for case in data::cases(run) {
        let _ = write!(
            s,
            "<h3>{} (median ms, n ok / failed)</h3><table>",
            escape(&case.label())
        );
        let mut head = vec!["phase"];
        head.extend(variants.iter().map(String::as_str));
        s.push_str(&th(&head));
        for p in data::all_phases(run, &case) {
            let mut cells = vec![phase_cell(&p)];
            for v in &variants {
                let vals = data::values(run, v, &case, &p);
                cells.push(match data::median(&vals) {
                    Some(m) => num(format!("{m:.2} (n={})", vals.len())),
                    None => td("-"),
                });
            }
            s.push_str(&row(&cells));
        }
        s.push_str("</table>");
        for v in &variants {
            let failed = data::failed(run, v, &case);
            if !failed.is_empty() {
                let _ = write!(
                    s,
                    "<p class=\"warn\">{} failed sample(s) of {}:</p><ul>",
                    failed.len(),
                    escape(v)
                );
                for f in failed.iter().take(5) {
                    let err = f.error.as_deref().unwrap_or("no error text");
                    let _ = write!(s, "<li>rep {}: <code>{}</code></li>", f.rep, escape(err));
                }
                s.push_str("</ul>");
            }
        }
    }
    s
}

fn comparison_rows(rows: &[PhaseComparison]) -> String {
    let mut s = String::from("<table>");
    s.push_str(&th(&[
        "variant",
        "case",
        "phase",
        "ref median ms",
        "cand median ms",
        "change",
        "95% CI",
        "p",
        "q",
        "threshold",
        "verdict",
        "note",
    ]));
    for r in rows {
        let v = verdict_name(r.verdict);
        let verdict = match r.reps_needed {
            Some(n) if r.verdict == Verdict::Inconclusive => format!("{v} (~{n} reps per side)"),
            _ => v.to_string(),
        };
        s.push_str(&row(&[
            td(&r.variant),
            td(&r.case.label()),
            phase_cell(&r.phase),
            num(format!("{:.2}", r.ref_median_ms)),
            num(format!("{:.2}", r.cand_median_ms)),
            num(format!("{:+.1}%", (r.ratio - 1.0) * 100.0)),
            num(format!(
                "[{:+.1}%, {:+.1}%]",
                (r.ci_low - 1.0) * 100.0,
                (r.ci_high - 1.0) * 100.0
            )),
            num(format!("{:.3}", r.p_value)),
            num(format!("{:.3}", r.q_value)),
            num(crate::output::cells::threshold(r.threshold)),
            format!("<td class=\"{v}\">{}</td>", escape(&verdict)),
            td(r.note.as_deref().unwrap_or("")),
        ]));
    }
    s.push_str("</table>");
    s
}

/// The whole report page.
pub fn page(rep: &Report) -> String {
    let run = &rep.run;
    let mut s = String::new();
    let title = format!("phaseline report: run {}", run.id);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\
         <title>{}</title><style>{STYLE}</style></head><body><h1>{}</h1>",
        escape(&title),
        escape(&title)
    );
    let counts = rep.verdict_counts();
    let _ = write!(
        s,
        "<p><b>{}</b> regressed, {} improved, {} unchanged, {} inconclusive, {} overlapped phase rows",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    );
    match &rep.baseline {
        Some(b) => {
            let _ = write!(
                s,
                " against baseline <b>{}</b> (saved {}).</p>",
                escape(&b.name),
                escape(&b.saved_utc)
            );
        }
        None => s.push_str(" between the run's variants.</p>"),
    }
    for c in rep.comparisons.iter().filter(|c| c.cross_testbed) {
        let _ = write!(
            s,
            "<p class=\"warn\">CROSS-TESTBED comparison: {} ({}) vs {} ({}); timings from different machines.</p>",
            escape(&c.reference),
            escape(&c.ref_testbed),
            escape(&c.candidate),
            escape(&c.cand_testbed)
        );
    }
    s.push_str("<h2>Comparison</h2>");
    if rep.comparisons.is_empty() {
        s.push_str("<p>No comparison: the run has one variant and no baseline was given.</p>");
    }
    for c in &rep.comparisons {
        let _ = write!(
            s,
            "<h3>{} against {} (alpha {}, bootstrap seed {})</h3>",
            escape(&c.candidate),
            escape(&c.reference),
            c.alpha,
            c.bootstrap_seed
        );
        s.push_str(&comparison_rows(&c.rows));
    }
    s.push_str("<h2>Charts</h2>");
    for (caption, svg) in &rep.charts {
        let _ = write!(s, "<figure>{svg}<figcaption>{}</figcaption></figure>", escape(caption));
    }
    s.push_str("<h2>Medians</h2>");
    s.push_str(&medians(run));
    s.push_str("<h2>Provenance</h2>");
    s.push_str(&provenance(run));
    if let Some(b) = &rep.baseline {
        let _ = write!(s, "<h3>Baseline {} (from {})</h3>", escape(&b.name), escape(&b.source));
        s.push_str(&provenance(&b.run));
    }
    s.push_str("</body></html>\n");
    s
}
