//! The trend chart of one history series (`chart::trend`), its steps marked.

use super::changes::SeriesChanges;
use super::series::Series;
use crate::chart::trend::{Line, Trend};

/// One line (the series' phase), one point per night, a marker per step.
pub fn trend_of(s: &Series, c: &SeriesChanges) -> Trend {
    let mut title = format!(
        "History: {} {} {} on {} (median per night)",
        s.key.variant,
        s.key.case.label(),
        s.key.phase,
        s.key.testbed
    );
    if let Some(t) = &c.trend {
        title.push_str(&format!(", trend {:+.2}%/night", t.pct_per_night));
    }
    Trend {
        title,
        runs: s
            .nights
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{} {}", i + 1, n.commit.get(..7).unwrap_or(&n.commit)))
            .collect(),
        lines: vec![Line {
            phase: s.key.phase.clone(),
            points: s.nights.iter().enumerate().map(|(i, n)| (i, n.median_ms)).collect(),
            band: None,
        }],
        baseline: None,
        steps: c
            .steps
            .iter()
            .map(|st| (st.night - 1, format!("{:+.1}%", st.change_pct)))
            .collect(),
    }
}
