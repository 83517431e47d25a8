//! A category axis: positions `0..n` (as `f64`, so marks can sit between
//! categories), one tick at each category, labelled by name.

use super::render::{self, Area, OrChartErr};
use crate::HarnessError;
use plotters::coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, Ranged, ValueFormatter};
use plotters::prelude::*;
use std::ops::Range;

/// Categories `0..n` spread over `-0.5..n-0.5`.
#[derive(Clone, Debug)]
pub struct Categories {
    pub n: usize,
}

impl Ranged for Categories {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.n.max(1) as f64;
        let frac = (value + 0.5) / span;
        limit.0 + (frac * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            return Vec::new();
        }
        (0..self.n).map(|i| i as f64).collect()
    }

    fn range(&self) -> Range<f64> {
        -0.5..self.n.max(1) as f64 - 0.5
    }
}

/// The name at an integer position of a category axis, else "".
pub fn label_at(names: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
        names[i as usize].clone()
    } else {
        String::new()
    }
}

/// Style and axis-area height for category labels: horizontal when they fit
/// side by side in `plot_w` pixels, else turned a quarter so none overlap.
/// Turned labels get a leading gap so the tick mark does not touch them.
pub fn category_labels(names: &mut [String], plot_w: u32) -> (plotters::style::TextStyle<'static>, u32) {
    use plotters::style::FontTransform;
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(1) as f64;
    let per = f64::from(plot_w.saturating_sub(80)) / names.len().max(1) as f64;
    let style = super::render::font(12);
    if longest * 7.0 + 8.0 <= per {
        (style, 40)
    } else {
        for n in names.iter_mut() {
            n.insert_str(0, "  ");
        }
        (style.transform(FontTransform::Rotate90), (longest * 6.0) as u32 + 14)
    }
}

/// Axis titles and tick-label size of a category chart.
pub struct AxisText<'s> {
    pub x_desc: &'s str,
    pub y_desc: &'s str,
    /// Font size of the tick labels on both axes.
    pub label_size: u32,
}

/// Builds a chart on `plot` with one category per name along x and `y` up the
/// side, and draws its mesh: no vertical grid lines, category labels laid out
/// by [`category_labels`], axis titles from `text`.
pub fn category_chart<'a, DB, Y>(
    plot: &'a Area<DB>,
    mut names: Vec<String>,
    y: Y,
    text: AxisText<'_>,
) -> Result<ChartContext<'a, DB, Cartesian2d<Categories, Y::CoordDescType>>, HarnessError>
where
    DB: DrawingBackend,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let n = names.len();
    let (xstyle, xarea) = category_labels(&mut names, plot.dim_in_pixel().0);
    let fmt = move |x: &f64| label_at(&names, *x);
    let mut chart = ChartBuilder::on(plot)
        .margin(10)
        .x_label_area_size(xarea + 20)
        .y_label_area_size(70)
        .build_cartesian_2d(Categories { n }, y)
        .ce()?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(text.x_desc)
        .y_desc(text.y_desc)
        .x_label_formatter(&fmt)
        .label_style(render::font(text.label_size))
        .x_label_style(xstyle)
        .axis_desc_style(render::font(14))
        .draw()
        .ce()?;
    Ok(chart)
}
