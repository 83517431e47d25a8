//! The Markdown summary (a CI job summary or a PR comment): verdict counts,
//! the rows that moved or could not be settled, total and top-level medians,
//! provenance in one line. Table cells are escaped so a name cannot break a row.

use super::contents::Report;
use crate::chart::data;
use crate::model::{PhaseComparison, Verdict};
use std::fmt::Write;

/// Escapes text for a Markdown table cell.
pub fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\n' | '\r' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '`' | '*' | '_' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

fn mark(v: Verdict) -> &'static str {
    match v {
        Verdict::Regressed => "**REGRESSED**",
        Verdict::Improved => "improved",
        Verdict::Unchanged => "unchanged",
        Verdict::Inconclusive => "inconclusive",
        Verdict::Overlapped => "overlapped",
    }
}

fn line(r: &PhaseComparison) -> String {
    let verdict = match (r.verdict, r.reps_needed) {
        (Verdict::Inconclusive, Some(n)) => format!("inconclusive (~{n} reps)"),
        (v, _) => mark(v).to_string(),
    };
    format!(
        "| {} | {} | {} | {:.2} | {:.2} | {:+.1}% | [{:+.1}%, {:+.1}%] | {:.3} | {} | {} |\n",
        cell(&r.variant),
        cell(&r.case.label()),
        cell(&r.phase),
        r.ref_median_ms,
        r.cand_median_ms,
        (r.ratio - 1.0) * 100.0,
        (r.ci_low - 1.0) * 100.0,
        (r.ci_high - 1.0) * 100.0,
        r.q_value,
        verdict,
        cell(r.note.as_deref().unwrap_or(""))
    )
}

/// One table of every case: end to end and prove part (end to end minus
/// synthesis and verification), median ms per variant; the table a comparison
/// of provers (ours against supraseal-c2) is read from. A case without
/// synthesis (a setup) has no prove part, and a run of such cases no row of it.
fn headline(s: &mut String, run: &crate::model::Run, variants: &[String]) {
    let fmt = |x: Option<f64>| x.map(|m| format!("{m:.1}")).unwrap_or_else(|| "-".into());
    let rows: Vec<(String, Vec<String>, Option<Vec<String>>)> = data::cases(run)
        .into_iter()
        .map(|case| {
            let e2e = variants
                .iter()
                .map(|v| fmt(data::median(&data::values(run, v, &case, crate::model::TOTAL))))
                .collect();
            let parts: Vec<Option<f64>> = variants
                .iter()
                .map(|v| data::median(&data::prove_part_values(run, v, &case)))
                .collect();
            let part = parts
                .iter()
                .any(Option::is_some)
                .then(|| parts.into_iter().map(fmt).collect());
            (cell(&case.label()), e2e, part)
        })
        .collect();
    let title = if rows.iter().any(|r| r.2.is_some()) {
        "End to end and prove part (end to end minus synthesis and verification), median ms:"
    } else {
        "End to end, median ms:"
    };
    let _ = writeln!(s, "{title}\n");
    let _ = writeln!(
        s,
        "| case | | {} |",
        variants.iter().map(|v| cell(v)).collect::<Vec<_>>().join(" | ")
    );
    let _ = writeln!(s, "|---|---|{}", "---:|".repeat(variants.len()));
    for (label, e2e, part) in rows {
        let _ = writeln!(s, "| {label} | end to end | {} |", e2e.join(" | "));
        if let Some(part) = part {
            let _ = writeln!(s, "| {label} | prove part | {} |", part.join(" | "));
        }
    }
    s.push('\n');
}

/// The summary document.
pub fn summary(rep: &Report) -> String {
    let run = &rep.run;
    let p = &run.provenance;
    let mut s = format!("## phaseline: run {}\n\n", cell(&run.id));
    let c = rep.verdict_counts();
    let against = match &rep.baseline {
        Some(b) => format!("against baseline `{}`", b.name.replace('`', "'")),
        None => "between the run's variants".into(),
    };
    let _ = writeln!(
        s,
        "{} regressed, {} improved, {} unchanged, {} inconclusive, {} overlapped phase rows {against}.\n",
        c[0], c[1], c[2], c[3], c[4]
    );
    for cmp in rep.comparisons.iter().filter(|c| c.cross_testbed) {
        let _ = writeln!(
            s,
            "> **Cross-testbed comparison** ({} vs {}): timings from different machines.\n",
            cell(&cmp.ref_testbed),
            cell(&cmp.cand_testbed)
        );
    }
    // A phase only one side records (another prover's own phases) is no change to list
    // row by row: such phases are named once per variant and case below the table.
    let one_sided = |r: &PhaseComparison| crate::compare::missing_side(r.note.as_deref()).is_some();
    let moved: Vec<&PhaseComparison> = rep
        .comparisons
        .iter()
        .flat_map(|c| c.rows.iter())
        .filter(|r| r.verdict != Verdict::Unchanged && !one_sided(r))
        .collect();
    let mut only: std::collections::BTreeMap<(String, String, String), Vec<&str>> = Default::default();
    for r in rep
        .comparisons
        .iter()
        .flat_map(|c| c.rows.iter())
        .filter(|r| one_sided(r))
    {
        let side = r
            .note
            .as_deref()
            .unwrap_or_default()
            .trim_start_matches("phase missing in ");
        let who = if side == "reference" { "candidate" } else { "reference" };
        only.entry((r.variant.clone(), r.case.label(), who.to_string()))
            .or_default()
            .push(&r.phase);
    }
    if moved.is_empty() {
        s.push_str("No phase moved beyond its noise threshold.\n\n");
    } else {
        s.push_str("| variant | case | phase | ref ms | cand ms | change | 95% CI | q | verdict | note |\n");
        s.push_str("|---|---|---|---|---|---|---|---|---|---|\n");
        for r in moved {
            s.push_str(&line(r));
        }
        s.push('\n');
    }
    for ((variant, case, who), phases) in &only {
        let _ = writeln!(
            s,
            "- {}, {}: only the {who} records {}.",
            cell(variant),
            cell(case),
            phases
                .iter()
                .map(|p| format!("`{}`", p.replace('`', "'")))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if !only.is_empty() {
        s.push('\n');
    }
    let variants = data::variants(run);
    headline(&mut s, run, &variants);
    for case in data::cases(run) {
        let _ = writeln!(s, "**{}**, median ms of top-level phases:\n", cell(&case.label()));
        let _ = writeln!(
            s,
            "| phase | {} |",
            variants.iter().map(|v| cell(v)).collect::<Vec<_>>().join(" | ")
        );
        let _ = writeln!(s, "|---|{}", "---|".repeat(variants.len()));
        let mut phases = vec![crate::model::TOTAL.to_string()];
        phases.extend(data::top_level_phases(run, &case));
        for ph in phases {
            let vals: Vec<String> = variants
                .iter()
                .map(|v| match data::median(&data::values(run, v, &case, &ph)) {
                    Some(m) => format!("{m:.2}"),
                    None => "-".into(),
                })
                .collect();
            let _ = writeln!(s, "| {} | {} |", cell(&ph), vals.join(" | "));
        }
        s.push('\n');
        for v in &variants {
            if let Some(n) = data::failure_note(&data::failed(run, v, &case)) {
                let _ = writeln!(s, "- {}: {}", cell(v), cell(&n));
            }
        }
    }
    let _ = writeln!(
        s,
        "\nCommit `{}`{}, testbed `{}`, {} samples, started {} UTC. Full report: `report.html`.",
        p.git_commit.replace('`', "'"),
        if p.git_dirty { " (dirty)" } else { "" },
        run.testbed.key.replace('`', "'"),
        run.samples.len(),
        cell(&p.started_utc)
    );
    // Runners given by path were built elsewhere: the commit above is only
    // the checkout the harness ran in, so each one's own build is named too.
    let given: Vec<String> = p
        .settings
        .iter()
        .filter_map(|(k, v)| k.strip_prefix("runner.").map(|n| format!("`{}`: {}", cell(n), cell(v))))
        .collect();
    if !given.is_empty() {
        let _ = writeln!(s, "Runners given by path (their own builds): {}.", given.join("; "));
    }
    s
}
