//! Stacked bars: one bar per variant, one segment per top-level phase (its
//! median), so nested phases are not counted twice. A black tick marks the
//! median total; wall time no top-level phase covers is its own grey segment.

use super::axis::{category_chart, AxisText};
use super::data;
use super::palette::{phase_color, UNACCOUNTED};
use super::render::{self, Chart, LegendEntry, OrChartErr, Swatch};
use crate::model::{Case, Run, TOTAL};
use crate::HarnessError;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One variant's bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub variant: String,
    /// (phase, median ms), bottom to top.
    pub segments: Vec<(String, f64)>,
    pub total_ms: Option<f64>,
    pub n_ok: usize,
    /// Why the bar is missing or short, e.g. "3 failed sample(s), first: ...".
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stacked {
    pub title: String,
    pub phases: Vec<String>,
    pub bars: Vec<Bar>,
}

impl Stacked {
    pub fn from_run(run: &Run, case: &Case) -> Self {
        let phases = data::top_level_phases(run, case);
        let mut bars = Vec::new();
        for v in data::variants(run) {
            let ok = data::measured(run, &v, case);
            let failed = data::failed(run, &v, case);
            let mut segments = Vec::new();
            for p in &phases {
                if let Some(m) = data::median(&data::values(run, &v, case, p)) {
                    segments.push((p.clone(), m));
                }
            }
            let total_ms = data::median(&data::values(run, &v, case, TOTAL));
            let covered: f64 = segments.iter().map(|s| s.1).sum();
            if let Some(t) = total_ms {
                if !segments.is_empty() && t > covered {
                    segments.push((UNACCOUNTED.to_string(), t - covered));
                }
            }
            let mut note = data::failure_note(&failed);
            if ok.is_empty() && note.is_none() {
                note = Some("no samples".into());
            }
            bars.push(Bar {
                variant: v,
                segments,
                total_ms,
                n_ok: ok.len(),
                note,
            });
        }
        Stacked {
            title: format!("Phase times per variant, {} (median of ok samples)", case.label()),
            phases,
            bars,
        }
    }

    fn max_ms(&self) -> f64 {
        self.bars
            .iter()
            .map(|b| {
                b.segments
                    .iter()
                    .map(|s| s.1)
                    .sum::<f64>()
                    .max(b.total_ms.unwrap_or(0.0))
            })
            .fold(0.0, f64::max)
    }
}

impl Chart for Stacked {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), HarnessError> {
        let (plot, legend) = render::layout(root, &self.title)?;
        let max = self.max_ms();
        if self.bars.is_empty() || max <= 0.0 {
            let mut lines = vec!["No successful samples to stack.".to_string()];
            lines.extend(
                self.bars
                    .iter()
                    .filter_map(|b| b.note.as_ref().map(|n| format!("{}: {n}", b.variant))),
            );
            return render::draw_message(&plot, &lines);
        }
        let (div, unit) = render::time_unit(max);
        let mut chart = category_chart(
            &plot,
            self.bars.iter().map(|b| b.variant.clone()).collect(),
            0.0..max / div * 1.12,
            AxisText {
                x_desc: "variant",
                y_desc: &format!("time ({unit})"),
                label_size: 13,
            },
        )?;
        for (i, b) in self.bars.iter().enumerate() {
            let x = i as f64;
            let mut y = 0.0;
            for (p, ms) in &b.segments {
                let top = y + ms / div;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.32, y), (x + 0.32, top)],
                        phase_color(p).filled(),
                    )))
                    .ce()?;
                y = top;
            }
            if let Some(t) = b.total_ms {
                let t = t / div;
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x - 0.4, t), (x + 0.4, t)],
                        BLACK.stroke_width(2),
                    )))
                    .ce()?;
            }
            let label = match (&b.note, b.segments.is_empty()) {
                (Some(n), true) => format!("missing: {n}"),
                (Some(_), false) => format!("n={} (+ failures)", b.n_ok),
                (None, _) => format!("n={}", b.n_ok),
            };
            let top = y.max(b.total_ms.unwrap_or(0.0) / div);
            let style = render::font(12).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Bottom,
            ));
            chart
                .draw_series(std::iter::once(Text::new(label, (x, top + max / div * 0.015), style)))
                .ce()?;
        }
        let mut entries: Vec<LegendEntry> = self.phases.iter().map(|p| LegendEntry::phase(p, Swatch::Box)).collect();
        if self.bars.iter().any(|b| b.segments.iter().any(|s| s.0 == UNACCOUNTED)) {
            entries.push(LegendEntry::phase(UNACCOUNTED, Swatch::Box));
        }
        entries.push(LegendEntry::new("median total", BLACK, Swatch::Line));
        render::draw_legend(&legend, "phase (top level)", &entries)
    }
}
