//! Per-phase change against the reference: one bar per phase from 1.0 to the
//! median ratio, the bootstrap 95% interval as a whisker, the noise threshold
//! as a grey band, and each verdict written above its bar (regressions in red).

use super::axis::{category_chart, AxisText};
use super::palette::{marks, phase_color};
use super::render::{self, Chart, LegendEntry, OrChartErr, Swatch};
use crate::model::{Case, Comparison, PhaseComparison, Verdict};
use crate::HarnessError;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One phase's bar; `ratio` is `None` when it cannot be drawn (and `note` says why).
#[derive(Clone, Debug, PartialEq)]
pub struct RatioBar {
    pub phase: String,
    pub ratio: Option<f64>,
    pub ci: Option<(f64, f64)>,
    pub threshold: f64,
    pub verdict: Verdict,
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RatioChart {
    pub title: String,
    pub variant: String,
    pub bars: Vec<RatioBar>,
}

fn finite(x: f64) -> Option<f64> {
    (x.is_finite() && x > 0.0).then_some(x)
}

impl RatioChart {
    /// The rows of `cmp` for (variant, case), in the comparison's order.
    pub fn from_comparison(cmp: &Comparison, variant: &str, case: &Case) -> Self {
        let bars = cmp
            .rows
            .iter()
            .filter(|r| r.variant == variant && &r.case == case)
            .map(bar)
            .collect();
        RatioChart {
            title: format!(
                "{variant} vs {}: median ratio per phase, {}",
                cmp.reference,
                case.label()
            ),
            variant: variant.into(),
            bars,
        }
    }

    fn y_range(&self) -> (f64, f64) {
        let mut lo: f64 = 0.9;
        let mut hi: f64 = 1.1;
        for b in &self.bars {
            for v in b.ratio.iter().chain(b.ci.iter().flat_map(|c| [&c.0, &c.1])) {
                lo = lo.min(*v);
                hi = hi.max(*v);
            }
            // a tiny phase's threshold can be huge (the ms floor); it must not squash the bars
            lo = lo.min(1.0 - b.threshold.min(0.2));
            hi = hi.max(1.0 + b.threshold.min(0.2));
        }
        let pad = (hi - lo) * 0.15;
        ((lo - pad).max(0.0), hi + pad)
    }
}

fn bar(r: &PhaseComparison) -> RatioBar {
    let ratio = finite(r.ratio);
    let ci = match (finite(r.ci_low), finite(r.ci_high)) {
        (Some(a), Some(b)) if ratio.is_some() => Some((a.min(b), a.max(b))),
        _ => None,
    };
    let mut note = r.note.clone();
    if ratio.is_none() && note.is_none() {
        note = Some(format!("no ratio (ref n={}, cand n={})", r.ref_n, r.cand_n));
    }
    RatioBar {
        phase: r.phase.clone(),
        ratio,
        ci,
        threshold: if r.threshold.is_finite() {
            r.threshold.abs()
        } else {
            0.0
        },
        verdict: r.verdict,
        note,
    }
}

/// Text and colour of a verdict mark.
pub fn verdict_mark(v: Verdict, ratio: Option<f64>) -> (String, RGBColor) {
    let pct = ratio.map(|r| format!("{:+.1}%", (r - 1.0) * 100.0)).unwrap_or_default();
    match v {
        Verdict::Regressed => (format!("\u{25b2}{pct}"), marks::REGRESSED),
        Verdict::Improved => (format!("\u{25bc}{pct}"), marks::IMPROVED),
        Verdict::Unchanged => (format!("={pct}"), marks::NEUTRAL),
        Verdict::Inconclusive => (format!("?{pct}"), marks::NEUTRAL),
        Verdict::Overlapped => (format!("\u{2225}{pct}"), marks::NEUTRAL),
    }
}

impl Chart for RatioChart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), HarnessError> {
        let (plot, legend) = render::layout(root, &self.title)?;
        if self.bars.is_empty() {
            return render::draw_message(&plot, &[format!("No comparison rows for variant {}.", self.variant)]);
        }
        let n = self.bars.len();
        let (lo, hi) = self.y_range();
        let mut chart = category_chart(
            &plot,
            self.bars.iter().map(|b| b.phase.clone()).collect(),
            lo..hi,
            AxisText {
                x_desc: "phase",
                y_desc: "median ratio (candidate / reference)",
                label_size: 12,
            },
        )?;
        for (i, b) in self.bars.iter().enumerate() {
            let x = i as f64;
            let band = [
                (x - 0.45, (1.0 - b.threshold).max(lo)),
                (x + 0.45, (1.0 + b.threshold).min(hi)),
            ];
            chart
                .draw_series(std::iter::once(Rectangle::new(band, marks::BAND.mix(0.25).filled())))
                .ce()?;
            let top = match b.ratio {
                Some(r) => {
                    let style = phase_color(&b.phase).filled();
                    chart
                        .draw_series(std::iter::once(Rectangle::new([(x - 0.3, 1.0), (x + 0.3, r)], style)))
                        .ce()?;
                    if b.verdict == Verdict::Regressed {
                        let outline = marks::REGRESSED.stroke_width(3);
                        chart
                            .draw_series(std::iter::once(Rectangle::new([(x - 0.3, 1.0), (x + 0.3, r)], outline)))
                            .ce()?;
                    }
                    if let Some((l, h)) = b.ci {
                        let st = BLACK.stroke_width(2);
                        chart
                            .draw_series(std::iter::once(PathElement::new(vec![(x, l), (x, h)], st)))
                            .ce()?;
                        for y in [l, h] {
                            let cap = PathElement::new(vec![(x - 0.1, y), (x + 0.1, y)], st);
                            chart.draw_series(std::iter::once(cap)).ce()?;
                        }
                    }
                    r.max(b.ci.map(|c| c.1).unwrap_or(r)).max(1.0)
                }
                None => 1.0,
            };
            let (text, color) = match (&b.ratio, &b.note) {
                (None, Some(_)) => ("n/a".to_string(), marks::NEUTRAL),
                _ => verdict_mark(b.verdict, b.ratio),
            };
            let base = if b.verdict == Verdict::Regressed {
                render::bold(13)
            } else {
                render::font(11)
            };
            let style = base.color(&color).pos(Pos::new(HPos::Center, VPos::Bottom));
            chart
                .draw_series(std::iter::once(Text::new(text, (x, top + (hi - lo) * 0.02), style)))
                .ce()?;
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, 1.0), (n as f64 - 0.5, 1.0)],
                BLACK,
            )))
            .ce()?;
        let mut entries = vec![
            LegendEntry::new("median ratio (phase colour)", marks::NEUTRAL, Swatch::Box),
            LegendEntry::new("95% bootstrap interval", BLACK, Swatch::Line),
            LegendEntry::new("noise threshold band", marks::BAND, Swatch::Band),
            LegendEntry::new("\u{25b2} regressed (outlined)", marks::REGRESSED, Swatch::Line),
            LegendEntry::new("\u{25bc} improved", marks::IMPROVED, Swatch::Line),
            LegendEntry::new("= unchanged, ? inconclusive", marks::NEUTRAL, Swatch::Line),
            LegendEntry::new("n/a: phase missing on a side", marks::NEUTRAL, Swatch::Line),
        ];
        for b in self.bars.iter().filter(|b| b.ratio.is_none()) {
            let why = b.note.as_deref().unwrap_or("no ratio");
            entries.push(LegendEntry::note(&format!("{}: {why}", b.phase), marks::NEUTRAL, 30));
        }
        render::draw_legend(&legend, "marks", &entries)
    }
}
