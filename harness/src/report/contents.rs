//! Everything a report shows: the run, its baseline, the comparisons and the
//! charts drawn from them, and the verdict counts of its summary.

use crate::chart::render::render_svg;
use crate::chart::set::build_charts;
use crate::model::{Baseline, Comparison, PhaseComparison, Run, Verdict};
use crate::HarnessError;

/// Verdict names, in the order of [`Report::verdict_counts`].
pub const VERDICTS: [&str; 5] = ["regressed", "improved", "unchanged", "inconclusive", "overlapped"];

/// Rows per verdict, in the order of [`VERDICTS`].
pub fn count_verdicts<'a>(rows: impl IntoIterator<Item = &'a PhaseComparison>) -> [usize; 5] {
    let mut c = [0; 5];
    for r in rows {
        c[match r.verdict {
            Verdict::Regressed => 0,
            Verdict::Improved => 1,
            Verdict::Unchanged => 2,
            Verdict::Inconclusive => 3,
            Verdict::Overlapped => 4,
        }] += 1;
    }
    c
}

/// Chart size inside the report, in pixels.
pub const CHART_W: u32 = 960;
pub const CHART_H: u32 = 520;

/// Everything a report shows.
pub struct Report {
    pub run: Run,
    pub baseline: Option<Baseline>,
    pub comparisons: Vec<Comparison>,
    /// (caption, inline SVG document).
    pub charts: Vec<(String, String)>,
}

impl Report {
    /// Draws the charts of `run` and assembles the report.
    pub fn build(run: Run, baseline: Option<Baseline>, comparisons: Vec<Comparison>) -> Result<Self, HarnessError> {
        let history = [&run];
        let charts = build_charts(&run, &history, baseline.as_ref(), &comparisons)
            .into_iter()
            .map(|c| Ok((c.caption, render_svg(&c.chart, CHART_W, CHART_H)?)))
            .collect::<Result<Vec<_>, HarnessError>>()?;
        Ok(Report {
            run,
            baseline,
            comparisons,
            charts,
        })
    }

    /// Rows per verdict: regressed, improved, unchanged, inconclusive, overlapped.
    pub fn verdict_counts(&self) -> [usize; 5] {
        count_verdicts(self.comparisons.iter().flat_map(|c| c.rows.iter()))
    }
}
