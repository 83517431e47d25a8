//! The text table of `phaseline history changes`: one block per series with a
//! step or a trend, then a count of the quiet ones.

use crate::history::SeriesChanges;

fn short(c: &str) -> &str {
    c.get(..10).unwrap_or(c)
}

/// The table of `found`.
pub fn changes_table(found: &[SeriesChanges]) -> String {
    let mut out = String::new();
    let mut quiet = 0;
    for c in found {
        if c.steps.is_empty() && c.trend.is_none() {
            quiet += 1;
            continue;
        }
        out.push_str(&format!("{} ({} nights)\n", c.key.label(), c.nights));
        for s in &c.steps {
            out.push_str(&format!(
                "  STEP  night {:>3} ({}): {:+.1}% ({:.4} -> {:.4} ms), p = {:.4}, commits {}..{} (last before, first after)\n",
                s.night,
                s.run_id,
                s.change_pct,
                s.before_ms,
                s.after_ms,
                s.p_value,
                short(&s.commit_before),
                short(&s.commit_after)
            ));
        }
        if let Some(t) = &c.trend {
            out.push_str(&format!(
                "  TREND {:+.2}% per night (Theil-Sen), Mann-Kendall p = {:.2e}, commits {}..{}\n",
                t.pct_per_night,
                t.p_value,
                short(&t.first_commit),
                short(&t.last_commit)
            ));
        }
    }
    out.push_str(&format!(
        "{} series: {} with a step or trend, {} without\n",
        found.len(),
        found.len() - quiet,
        quiet
    ));
    out
}
