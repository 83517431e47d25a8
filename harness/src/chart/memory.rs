//! Memory over the time of one proof: process-tree RSS, system memory in use
//! and GPU memory when the sampler saw a GPU, with the start of each top-level
//! phase of the same sample as a dashed line in the phase's colour.
//!
//! Memory times count from the child's start, phase times from the prover's
//! own clock origin a few milliseconds later; the chart does not shift either.

use super::data;
use super::palette::{marks, phase_color};
use super::render::{self, Chart, LegendEntry, OrChartErr, Swatch};
use crate::model::{Case, Run, Sample};
use crate::HarnessError;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One line of the chart: (time ms, bytes) points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub color: RGBColor,
    pub points: Vec<(f64, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Memory {
    pub title: String,
    pub series: Vec<Series>,
    /// (phase, start ms) of top-level phases.
    pub boundaries: Vec<(String, f64)>,
    pub missing: Option<String>,
}

impl Memory {
    pub fn from_run(run: &Run, variant: &str, case: &Case) -> Self {
        match data::representative(run, variant, case) {
            Some(s) => Self::from_sample(s),
            None => Memory {
                title: format!("Memory during one proof, {variant}, {}", case.label()),
                series: Vec::new(),
                boundaries: Vec::new(),
                missing: Some(format!(
                    "No successful sample of {variant}: {}",
                    data::failure_note(&data::failed(run, variant, case)).unwrap_or_else(|| "no samples".into())
                )),
            },
        }
    }

    pub fn from_sample(s: &Sample) -> Self {
        let pts = |f: &dyn Fn(&crate::model::MemPoint) -> Option<u64>| -> Vec<(f64, f64)> {
            s.memory
                .iter()
                .filter(|m| m.t_ms.is_finite())
                .filter_map(|m| f(m).map(|b| (m.t_ms, b as f64)))
                .collect()
        };
        let mut series = vec![
            Series {
                name: "process-tree RSS".into(),
                color: marks::RSS,
                points: pts(&|m| Some(m.rss_bytes)),
            },
            Series {
                name: "system memory used".into(),
                color: marks::SYSTEM,
                points: pts(&|m| Some(m.sys_used_bytes)),
            },
            Series {
                name: "GPU memory used".into(),
                color: marks::GPU,
                points: pts(&|m| m.gpu_used_bytes),
            },
        ];
        series.retain(|s| !s.points.is_empty());
        let mut boundaries: Vec<(String, f64)> = s
            .spans
            .iter()
            .filter(|sp| sp.parent.is_none() && sp.start_ms.is_finite())
            .map(|sp| (sp.name.clone(), sp.start_ms))
            .collect();
        boundaries.sort_by(|a, b| a.1.total_cmp(&b.1));
        let missing = series.is_empty().then(|| {
            format!(
                "No memory points recorded for {} rep {} (the sampler saw nothing).",
                s.variant, s.rep
            )
        });
        Memory {
            title: format!(
                "Memory during one proof, {} rep {}, {} (sample nearest the median total)",
                s.variant,
                s.rep,
                s.case.label()
            ),
            series,
            boundaries,
            missing,
        }
    }
}

impl Chart for Memory {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), HarnessError> {
        let (plot, legend) = render::layout(root, &self.title)?;
        if let Some(m) = &self.missing {
            return render::draw_message(&plot, std::slice::from_ref(m));
        }
        let all = self.series.iter().flat_map(|s| s.points.iter());
        let (tmax, bmax) = all.fold((0.0f64, 0.0f64), |(t, b), p| (t.max(p.0), b.max(p.1)));
        let tmax = self.boundaries.iter().map(|b| b.1).fold(tmax, f64::max).max(1.0);
        let (tdiv, tunit) = render::time_unit(tmax);
        let (bdiv, bunit) = render::byte_unit(bmax);
        let ytop = (bmax / bdiv * 1.1).max(1e-3);
        let mut chart = ChartBuilder::on(&plot)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..tmax / tdiv * 1.02, 0.0..ytop)
            .ce()?;
        chart
            .configure_mesh()
            .x_desc(format!("time since the child started ({tunit})"))
            .y_desc(format!("memory ({bunit})"))
            .label_style(render::font(12))
            .axis_desc_style(render::font(14))
            .draw()
            .ce()?;
        for (name, t) in &self.boundaries {
            let x = t / tdiv;
            let c = phase_color(name);
            let mut y = 0.0;
            while y < ytop {
                let seg = PathElement::new(vec![(x, y), (x, (y + ytop / 60.0).min(ytop))], c.stroke_width(1));
                chart.draw_series(std::iter::once(seg)).ce()?;
                y += ytop / 30.0;
            }
        }
        for s in &self.series {
            let pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0 / tdiv, p.1 / bdiv)).collect();
            chart.draw_series(LineSeries::new(pts, s.color.stroke_width(2))).ce()?;
        }
        let mut entries: Vec<LegendEntry> = self
            .series
            .iter()
            .map(|s| LegendEntry::new(s.name.clone(), s.color, Swatch::Line))
            .collect();
        let mut seen: Vec<&str> = Vec::new();
        for (name, _) in &self.boundaries {
            if !seen.contains(&name.as_str()) {
                seen.push(name);
                entries.push(LegendEntry::new(
                    format!("{name} starts"),
                    phase_color(name),
                    Swatch::Dashed,
                ));
            }
        }
        render::draw_legend(&legend, "series", &entries)
    }
}
