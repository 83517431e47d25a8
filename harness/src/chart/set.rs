//! The set of charts drawn for a run: every kind, per case (and per variant
//! where a chart shows one proof), each with a stable file name.

use super::data;
use super::distribution::Distribution;
use super::memory::Memory;
use super::ratio::RatioChart;
use super::render::Chart;
use super::stacked::Stacked;
use super::timeline::Timeline;
use super::trend::Trend;
use crate::model::{Baseline, Comparison, Run};
use crate::HarnessError;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Any chart kind.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyChart {
    Stacked(Stacked),
    Ratio(RatioChart),
    Distribution(Distribution),
    Timeline(Timeline),
    Memory(Memory),
    Trend(Trend),
}

impl Chart for AnyChart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), HarnessError> {
        match self {
            AnyChart::Stacked(c) => c.draw(root),
            AnyChart::Ratio(c) => c.draw(root),
            AnyChart::Distribution(c) => c.draw(root),
            AnyChart::Timeline(c) => c.draw(root),
            AnyChart::Memory(c) => c.draw(root),
            AnyChart::Trend(c) => c.draw(root),
        }
    }
}

/// A chart with its file stem (`stacked-e2e-tiny-x1-cpu`) and a caption.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedChart {
    pub stem: String,
    pub caption: String,
    pub chart: AnyChart,
}

/// Every chart for `run` (the newest of `history`, if given), ratio charts for
/// each comparison, and a trend when there are several runs or a baseline.
pub fn build_charts(
    run: &Run,
    history: &[&Run],
    baseline: Option<&Baseline>,
    comparisons: &[Comparison],
) -> Vec<NamedChart> {
    let mut out = Vec::new();
    for case in data::cases(run) {
        let cs = data::case_slug(&case);
        let label = case.label();
        out.push(NamedChart {
            stem: format!("stacked-{cs}"),
            caption: format!("Top-level phase medians per variant, {label}"),
            chart: AnyChart::Stacked(Stacked::from_run(run, &case)),
        });
        for cmp in comparisons {
            let mut seen: Vec<&str> = Vec::new();
            for row in cmp.rows.iter().filter(|r| r.case == case) {
                if seen.contains(&row.variant.as_str()) {
                    continue;
                }
                seen.push(&row.variant);
                let ref_slug = data::slug(&cmp.reference);
                out.push(NamedChart {
                    stem: format!("ratio-{cs}-{}-vs-{ref_slug}", data::slug(&row.variant)),
                    caption: format!("{} against {}, {label}", row.variant, cmp.reference),
                    chart: AnyChart::Ratio(RatioChart::from_comparison(cmp, &row.variant, &case)),
                });
            }
        }
        out.push(NamedChart {
            stem: format!("distribution-{cs}"),
            caption: format!("Raw samples per phase and variant, {label}"),
            chart: AnyChart::Distribution(Distribution::from_run(run, &case)),
        });
        for v in data::variants(run) {
            let vs = data::slug(&v);
            out.push(NamedChart {
                stem: format!("timeline-{cs}-{vs}"),
                caption: format!("Timeline of one proof of {v}, {label}"),
                chart: AnyChart::Timeline(Timeline::from_run(run, &v, &case)),
            });
            out.push(NamedChart {
                stem: format!("memory-{cs}-{vs}"),
                caption: format!("Memory during one proof of {v}, {label}"),
                chart: AnyChart::Memory(Memory::from_run(run, &v, &case)),
            });
            if history.len() > 1 || baseline.is_some() {
                let runs: Vec<&Run> = if history.is_empty() {
                    vec![run]
                } else {
                    history.to_vec()
                };
                let b = baseline.map(|b| (b.name.as_str(), &b.run));
                out.push(NamedChart {
                    stem: format!("trend-{cs}-{vs}"),
                    caption: format!("Trend of {v} over {} run(s), {label}", runs.len()),
                    chart: AnyChart::Trend(Trend::from_runs(&runs, &v, &case, b)),
                });
            }
        }
    }
    out
}
