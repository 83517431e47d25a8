//! Distribution of the raw samples per phase and variant: a strip of points
//! (one per measured sample, spread sideways by a fixed pattern) over a box
//! from the 25th to the 75th percentile with the median as a bar. Phases sit
//! side by side on a log time axis so short and long phases are both legible.

use super::axis::{category_chart, AxisText};
use super::data;
use super::palette::phase_color;
use super::render::{self, Chart, LegendEntry, OrChartErr, Swatch};
use crate::model::{Case, Run};
use crate::HarnessError;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Raw values of one (phase, variant).
#[derive(Clone, Debug, PartialEq)]
pub struct Strip {
    pub variant: String,
    pub values_ms: Vec<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub title: String,
    pub variants: Vec<String>,
    /// (phase, one strip per variant in `variants` order).
    pub phases: Vec<(String, Vec<Strip>)>,
    /// Variants with failed samples, and why.
    pub notes: Vec<String>,
}

impl Distribution {
    pub fn from_run(run: &Run, case: &Case) -> Self {
        let variants = data::variants(run);
        let phases = data::all_phases(run, case)
            .into_iter()
            .map(|p| {
                let strips = variants
                    .iter()
                    .map(|v| Strip {
                        variant: v.clone(),
                        values_ms: data::values(run, v, case, &p)
                            .into_iter()
                            .filter(|x| *x > 0.0)
                            .collect(),
                    })
                    .collect();
                (p, strips)
            })
            .collect();
        let notes = variants
            .iter()
            .filter_map(|v| data::failure_note(&data::failed(run, v, case)).map(|n| format!("{v}: {n}")))
            .collect();
        Distribution {
            title: format!("Samples per phase and variant, {} (log scale)", case.label()),
            variants,
            phases,
            notes,
        }
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        let all = self
            .phases
            .iter()
            .flat_map(|(_, s)| s.iter().flat_map(|s| s.values_ms.iter().copied()));
        let (lo, hi) = all.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        (hi > 0.0).then_some((lo, hi))
    }
}

/// Sideways offset of the k-th point of a strip: a fixed, repeating spread.
fn jitter(k: usize, width: f64) -> f64 {
    const PATTERN: [f64; 8] = [0.0, 0.5, -0.5, 0.25, -0.25, 0.75, -0.75, 0.125];
    PATTERN[k % PATTERN.len()] * width / 2.0
}

impl Chart for Distribution {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), HarnessError> {
        let (plot, legend) = render::layout(root, &self.title)?;
        let Some((lo, hi)) = self.bounds() else {
            let mut lines = vec!["No successful samples to show.".to_string()];
            lines.extend(self.notes.iter().cloned());
            return render::draw_message(&plot, &lines);
        };
        let nv = self.variants.len().max(1);
        let mut chart = category_chart(
            &plot,
            self.phases.iter().map(|p| p.0.clone()).collect(),
            (lo / 1.5..hi * 1.5).log_scale(),
            AxisText {
                x_desc: "phase",
                y_desc: "time per sample (ms, log scale)",
                label_size: 12,
            },
        )?;
        let slot = 0.8 / nv as f64;
        for (i, (phase, strips)) in self.phases.iter().enumerate() {
            let color = phase_color(phase);
            for (j, s) in strips.iter().enumerate() {
                let xc = i as f64 - 0.4 + slot * (j as f64 + 0.5);
                if let (Some(q1), Some(q2), Some(q3)) = (
                    data::quantile(&s.values_ms, 0.25),
                    data::quantile(&s.values_ms, 0.5),
                    data::quantile(&s.values_ms, 0.75),
                ) {
                    let hw = slot * 0.4;
                    let boxr = Rectangle::new([(xc - hw, q1), (xc + hw, q3)], color.mix(0.9).stroke_width(1));
                    chart.draw_series(std::iter::once(boxr)).ce()?;
                    let med = PathElement::new(vec![(xc - hw, q2), (xc + hw, q2)], BLACK.stroke_width(2));
                    chart.draw_series(std::iter::once(med)).ce()?;
                }
                let pts: Vec<(f64, f64)> = s
                    .values_ms
                    .iter()
                    .enumerate()
                    .map(|(k, v)| (xc + jitter(k, slot * 0.6), *v))
                    .collect();
                match j % 4 {
                    0 => chart
                        .draw_series(pts.iter().map(|p| Circle::new(*p, 3, color.filled())))
                        .ce()?,
                    1 => chart
                        .draw_series(pts.iter().map(|p| TriangleMarker::new(*p, 4, color.filled())))
                        .ce()?,
                    2 => chart
                        .draw_series(
                            pts.iter()
                                .map(|p| EmptyElement::at(*p) + Rectangle::new([(-3, -3), (3, 3)], color.filled())),
                        )
                        .ce()?,
                    _ => chart
                        .draw_series(pts.iter().map(|p| Cross::new(*p, 3, color.stroke_width(2))))
                        .ce()?,
                };
            }
        }
        let mut entries: Vec<LegendEntry> = self
            .variants
            .iter()
            .enumerate()
            .map(|(j, v)| LegendEntry::new(v.clone(), BLACK, Swatch::Marker(j)))
            .collect();
        entries.push(LegendEntry::new("box: 25-75th pct", BLACK, Swatch::Line));
        entries.push(LegendEntry::new("bar: median", BLACK, Swatch::Line));
        for note in &self.notes {
            entries.push(LegendEntry::note(note, BLACK, 28));
        }
        render::draw_legend(&legend, "variant (marker)", &entries)
    }
}
