//! Trend over many runs (a nightly history): one point per run and phase (the
//! median of its measured samples) joined by a line in the phase's colour, and
//! the baseline's range (min to max of its samples) as a band behind it.
//! Steps found in the history are marked by a dashed line before their first run.

use super::axis::{category_chart, AxisText};
use super::data;
use super::palette::phase_color;
use super::render::{self, Chart, LegendEntry, OrChartErr, Swatch};
use crate::model::{Case, Run, TOTAL};
use crate::HarnessError;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One phase's history.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub phase: String,
    /// (run index, median ms); runs without the phase are left out.
    pub points: Vec<(usize, f64)>,
    /// Baseline min and max, ms.
    pub band: Option<(f64, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Trend {
    pub title: String,
    /// Run ids, oldest first.
    pub runs: Vec<String>,
    pub lines: Vec<Line>,
    pub baseline: Option<String>,
    /// Steps: index of the first run at the new level, and its label (e.g. `+4.1%`).
    pub steps: Vec<(usize, String)>,
}

impl Trend {
    /// `runs` in the order given (callers sort them by start time).
    pub fn from_runs(runs: &[&Run], variant: &str, case: &Case, baseline: Option<(&str, &Run)>) -> Self {
        let mut phases = vec![TOTAL.to_string()];
        for r in runs {
            for p in data::top_level_phases(r, case) {
                if !phases.contains(&p) {
                    phases.push(p);
                }
            }
        }
        let lines = phases
            .into_iter()
            .map(|p| {
                let points = runs
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| data::median(&data::values(r, variant, case, &p)).map(|m| (i, m)))
                    .collect();
                let band = baseline.and_then(|(_, b)| {
                    let v = data::values(b, variant, case, &p);
                    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = v.iter().copied().fold(0.0, f64::max);
                    (!v.is_empty()).then_some((lo, hi))
                });
                Line { phase: p, points, band }
            })
            .collect();
        Trend {
            title: format!(
                "Trend over {} runs, {variant}, {} (median per run)",
                runs.len(),
                case.label()
            ),
            runs: runs.iter().map(|r| r.id.clone()).collect(),
            lines,
            baseline: baseline.map(|b| b.0.to_string()),
            steps: Vec::new(),
        }
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        let vals = self.lines.iter().flat_map(|l| {
            l.points
                .iter()
                .map(|p| p.1)
                .chain(l.band.iter().flat_map(|b| [b.0, b.1]))
        });
        let (lo, hi) = vals
            .filter(|v| *v > 0.0)
            .fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        (hi > 0.0).then_some((lo, hi))
    }
}

impl Chart for Trend {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), HarnessError> {
        let (plot, legend) = render::layout(root, &self.title)?;
        let Some((lo, hi)) = self.bounds() else {
            return render::draw_message(
                &plot,
                &["No run has a successful sample of this variant and case.".into()],
            );
        };
        let n = self.runs.len();
        let mut chart = category_chart(
            &plot,
            self.runs.clone(),
            (lo / 1.5..hi * 1.5).log_scale(),
            AxisText {
                x_desc: "run (oldest first)",
                y_desc: "median time (ms, log scale)",
                label_size: 12,
            },
        )?;
        for l in &self.lines {
            if let Some((a, b)) = l.band {
                let band = Rectangle::new(
                    [(-0.5, a.max(lo / 1.5)), (n as f64 - 0.5, b)],
                    phase_color(&l.phase).mix(0.15).filled(),
                );
                chart.draw_series(std::iter::once(band)).ce()?;
            }
        }
        for l in &self.lines {
            let c = phase_color(&l.phase);
            let pts: Vec<(f64, f64)> = l.points.iter().map(|(i, m)| (*i as f64, *m)).collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                .ce()?;
            chart
                .draw_series(pts.iter().map(|p| Circle::new(*p, 4, c.filled())))
                .ce()?;
        }
        for (i, label) in &self.steps {
            let x = *i as f64 - 0.5;
            let top = hi * 1.4;
            chart
                .draw_series(DashedLineSeries::new(
                    [(x, lo / 1.5), (x, top)],
                    6,
                    4,
                    RED.stroke_width(2),
                ))
                .ce()?;
            chart
                .draw_series(std::iter::once(Text::new(
                    label.clone(),
                    (x, top),
                    render::font(12).color(&RED),
                )))
                .ce()?;
        }
        let mut entries: Vec<LegendEntry> = self
            .lines
            .iter()
            .map(|l| LegendEntry::phase(&l.phase, Swatch::Line))
            .collect();
        if let Some(b) = &self.baseline {
            entries.push(LegendEntry::new(format!("band: {b} min-max"), BLACK, Swatch::Band));
        }
        if !self.steps.is_empty() {
            entries.push(LegendEntry::new("step (history)", RED, Swatch::Dashed));
        }
        render::draw_legend(&legend, "phase", &entries)
    }
}
