//! Timeline (Gantt) of one proof: one lane per CPU thread or GPU stream
//! (`Span.thread`), each span a bar from its start to its end in its phase's
//! colour; nested phases are drawn inside their parent, thinner and outlined,
//! so overlap between lanes (or its absence) shows at a glance.

use super::axis::{label_at, Categories};
use super::data;
use super::palette::phase_color;
use super::render::{self, Chart, LegendEntry, OrChartErr, Swatch};
use crate::model::{Case, Run, Sample, Span};
use crate::HarnessError;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One span placed on a lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub lane: usize,
    pub depth: usize,
    pub phase: String,
    pub start_ms: f64,
    pub end_ms: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    pub title: String,
    pub lanes: Vec<String>,
    pub bars: Vec<Bar>,
    /// Why there is nothing to draw.
    pub missing: Option<String>,
}

impl Timeline {
    /// The representative sample (median total) of `variant` on `case`.
    pub fn from_run(run: &Run, variant: &str, case: &Case) -> Self {
        match data::representative(run, variant, case) {
            Some(s) => Self::from_sample(s),
            None => {
                let why =
                    data::failure_note(&data::failed(run, variant, case)).unwrap_or_else(|| "no samples".to_string());
                Timeline {
                    title: format!("Timeline of one proof, {variant}, {}", case.label()),
                    lanes: Vec::new(),
                    bars: Vec::new(),
                    missing: Some(format!("No successful sample of {variant}: {why}")),
                }
            }
        }
    }

    pub fn from_sample(s: &Sample) -> Self {
        let title = format!(
            "Timeline of one proof, {} rep {}, {} (sample nearest the median total)",
            s.variant,
            s.rep,
            s.case.label()
        );
        let spans: Vec<&Span> = s
            .spans
            .iter()
            .filter(|sp| sp.start_ms.is_finite() && sp.ms.is_finite())
            .collect();
        let mut lanes: Vec<String> = Vec::new();
        let mut sorted = spans.clone();
        sorted.sort_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
        for sp in &sorted {
            let l = lane_name(sp);
            if !lanes.contains(&l) {
                lanes.push(l);
            }
        }
        let bars = sorted
            .iter()
            .map(|sp| Bar {
                lane: lanes.iter().position(|l| *l == lane_name(sp)).unwrap_or(0),
                depth: depth(sp, &spans),
                phase: sp.name.clone(),
                start_ms: sp.start_ms,
                end_ms: sp.start_ms + sp.ms.max(0.0),
            })
            .collect();
        let missing = spans.is_empty().then(|| {
            format!(
                "Sample {} rep {} has no spans (its record carried phase totals only).",
                s.variant, s.rep
            )
        });
        Timeline {
            title,
            lanes,
            bars,
            missing,
        }
    }
}

fn lane_name(sp: &Span) -> String {
    if sp.thread.is_empty() {
        "(unnamed)".into()
    } else {
        sp.thread.clone()
    }
}

/// Nesting depth from the parent chain (by name; cycles stop at 8).
fn depth(sp: &Span, all: &[&Span]) -> usize {
    let mut d = 0;
    let mut cur = sp.parent.clone();
    while let Some(p) = cur {
        d += 1;
        if d >= 8 {
            break;
        }
        cur = all.iter().find(|s| s.name == p).and_then(|s| s.parent.clone());
    }
    d
}

impl Chart for Timeline {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), HarnessError> {
        let (plot, legend) = render::layout(root, &self.title)?;
        if let Some(m) = &self.missing {
            return render::draw_message(&plot, std::slice::from_ref(m));
        }
        let end = self.bars.iter().map(|b| b.end_ms).fold(0.0, f64::max);
        let start = self.bars.iter().map(|b| b.start_ms).fold(end, f64::min).min(0.0);
        let (div, unit) = render::time_unit(end);
        let span = ((end - start) / div).max(1e-6);
        let n = self.lanes.len();
        let names = self.lanes.clone();
        let fmt = move |y: &f64| label_at(&names, *y);
        let longest = self.lanes.iter().map(|l| l.chars().count()).max().unwrap_or(4) as u32;
        let mut chart = ChartBuilder::on(&plot)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size((longest * 7 + 40).clamp(60, 200))
            .build_cartesian_2d(start / div..start / div + span * 1.02, Categories { n })
            .ce()?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_desc(format!("time since the prover started ({unit})"))
            .y_desc("lane (thread / stream)")
            .y_label_formatter(&fmt)
            .label_style(render::font(12))
            .axis_desc_style(render::font(14))
            .draw()
            .ce()?;
        let (pw, _) = chart.plotting_area().dim_in_pixel();
        let px_per_unit = f64::from(pw) / (span * 1.02);
        let mut bars = self.bars.clone();
        bars.sort_by_key(|b| b.depth);
        for b in &bars {
            let h = 0.38 * 0.65f64.powi(b.depth as i32);
            let y = b.lane as f64;
            let (x0, x1) = (b.start_ms / div, b.end_ms / div);
            let color = phase_color(&b.phase);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, y - h), (x1, y + h)],
                    color.filled(),
                )))
                .ce()?;
            let outline = if b.depth > 0 {
                BLACK.stroke_width(1)
            } else {
                WHITE.stroke_width(1)
            };
            chart
                .draw_series(std::iter::once(Rectangle::new([(x0, y - h), (x1, y + h)], outline)))
                .ce()?;
            let text_px = 7.0 * b.phase.chars().count() as f64 + 6.0;
            if (x1 - x0) * px_per_unit > text_px {
                let ty = if b.depth == 0 { y + h * 0.7 } else { y };
                let style = render::font(11).pos(Pos::new(HPos::Center, VPos::Center));
                chart
                    .draw_series(std::iter::once(Text::new(
                        b.phase.clone(),
                        ((x0 + x1) / 2.0, ty),
                        style,
                    )))
                    .ce()?;
            }
        }
        let mut phases: Vec<(usize, String)> = Vec::new();
        for b in &self.bars {
            if !phases.iter().any(|p| p.1 == b.phase) {
                phases.push((b.depth, b.phase.clone()));
            }
        }
        let entries: Vec<LegendEntry> = phases
            .iter()
            .map(|(d, p)| {
                let label = if *d > 0 { format!("  {p} (nested)") } else { p.clone() };
                LegendEntry::new(label, phase_color(p), Swatch::Box)
            })
            .collect();
        render::draw_legend(&legend, "phase", &entries)
    }
}
