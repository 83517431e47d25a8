//! Rendering shared by every chart: the embedded font, SVG and PNG output,
//! the legend drawn beside (never over) the plot, and the
//! message drawn in place of data that is missing.

use crate::HarnessError;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::sync::OnceLock;

/// DejaVu Sans (licence in `harness/assets/DejaVuSans-LICENSE.txt`), embedded so
/// text renders the same everywhere, with no system font libraries.
static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Font family name charts use; registered from [`FONT`].
pub const FAMILY: &str = "sans-serif";

/// Width of the legend column to the right of each plot, in pixels.
pub const LEGEND_W: u32 = 190;

/// Output format of a chart file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    pub fn ext(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }
}

/// A chart that can draw itself on any plotters backend.
pub trait Chart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), HarnessError>;
}

/// Maps a plotters drawing error to the harness error.
pub trait OrChartErr<T> {
    fn ce(self) -> Result<T, HarnessError>;
}

impl<T, E: std::error::Error + Send + Sync> OrChartErr<T> for Result<T, DrawingAreaErrorKind<E>> {
    fn ce(self) -> Result<T, HarnessError> {
        self.map_err(|e| HarnessError::Invalid(format!("drawing a chart failed: {e}")))
    }
}

fn ensure_font() -> Result<(), HarnessError> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            plotters::style::register_font(FAMILY, style, FONT)
                .map_err(|_| "the embedded chart font could not be parsed".to_string())?;
        }
        Ok(())
    })
    .clone()
    .map_err(HarnessError::Invalid)
}

fn check_size(w: u32, h: u32) -> Result<(), HarnessError> {
    if !(200..=8000).contains(&w) || !(150..=8000).contains(&h) {
        return Err(HarnessError::Invalid(format!(
            "chart size {w}x{h} is out of range (width 200..8000, height 150..8000 pixels)"
        )));
    }
    Ok(())
}

/// Draws `chart` as an SVG document.
pub fn render_svg<C: Chart>(chart: &C, w: u32, h: u32) -> Result<String, HarnessError> {
    ensure_font()?;
    check_size(w, h)?;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
        root.fill(&WHITE).ce()?;
        chart.draw(&root)?;
        root.present().ce()?;
    }
    Ok(out)
}

/// Draws `chart` as a PNG image of exactly `w` x `h` pixels.
pub fn render_png<C: Chart>(chart: &C, w: u32, h: u32) -> Result<Vec<u8>, HarnessError> {
    ensure_font()?;
    check_size(w, h)?;
    let mut buf = vec![0u8; (w as usize) * (h as usize) * 3];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE).ce()?;
        chart.draw(&root)?;
        root.present().ce()?;
    }
    let img = image::RgbImage::from_raw(w, h, buf)
        .ok_or_else(|| HarnessError::Invalid("PNG buffer has the wrong size".into()))?;
    let mut png = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| HarnessError::Invalid(format!("encoding PNG failed: {e}")))?;
    Ok(png)
}

/// Renders `chart` in `format`.
pub fn render<C: Chart>(chart: &C, format: Format, w: u32, h: u32) -> Result<Vec<u8>, HarnessError> {
    match format {
        Format::Svg => render_svg(chart, w, h).map(String::into_bytes),
        Format::Png => render_png(chart, w, h),
    }
}

/// How a legend entry is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Swatch {
    Box,
    Line,
    Dashed,
    Band,
    Marker(usize),
}

/// One row of a legend.
#[derive(Clone, Debug)]
pub struct LegendEntry {
    pub label: String,
    pub color: RGBColor,
    pub swatch: Swatch,
}

impl LegendEntry {
    pub fn new(label: impl Into<String>, color: RGBColor, swatch: Swatch) -> Self {
        LegendEntry {
            label: label.into(),
            color,
            swatch,
        }
    }

    /// An entry for `phase` in its own colour.
    pub fn phase(phase: &str, swatch: Swatch) -> Self {
        Self::new(phase, super::palette::phase_color(phase), swatch)
    }

    /// A dashed entry for a note (why something is missing), cut to `max_chars`
    /// so it fits the legend column.
    pub fn note(text: &str, color: RGBColor, max_chars: usize) -> Self {
        Self::new(text.chars().take(max_chars).collect::<String>(), color, Swatch::Dashed)
    }
}

pub fn font(size: u32) -> TextStyle<'static> {
    (FAMILY, size).into_font().color(&BLACK)
}

pub fn bold(size: u32) -> TextStyle<'static> {
    (FAMILY, size, FontStyle::Bold).into_font().color(&BLACK)
}

/// A pixel-addressed drawing area.
pub type Area<DB> = DrawingArea<DB, Shift>;

/// Splits `root` into a title strip, the plot area and a legend column.
pub fn layout<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<(Area<DB>, Area<DB>), HarnessError> {
    let (w, _) = root.dim_in_pixel();
    let body = root.titled(title, bold(18)).ce()?;
    let legend_w = LEGEND_W.min(w / 3);
    let (plot, legend) = body.split_horizontally(w.saturating_sub(legend_w));
    Ok((plot, legend))
}

/// Draws a legend, one entry per row, from the top of `area` (a column of its own).
pub fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    heading: &str,
    entries: &[LegendEntry],
) -> Result<(), HarnessError> {
    let (_, h) = area.dim_in_pixel();
    let row = 18i32;
    area.draw(&Text::new(heading.to_string(), (8, 8), bold(13))).ce()?;
    let max_rows = ((h as i32 - 40) / row).max(1) as usize;
    for (i, e) in entries.iter().enumerate() {
        let y = 30 + row * i as i32;
        if i + 1 == max_rows && entries.len() > max_rows {
            let more = format!("... {} more", entries.len() - i);
            area.draw(&Text::new(more, (8, y), font(12))).ce()?;
            break;
        }
        let (x0, x1, yc) = (8, 30, y + 7);
        match e.swatch {
            Swatch::Box => area
                .draw(&Rectangle::new([(x0, y), (x1, y + 13)], e.color.filled()))
                .ce()?,
            Swatch::Band => area
                .draw(&Rectangle::new([(x0, y), (x1, y + 13)], e.color.mix(0.3).filled()))
                .ce()?,
            Swatch::Line => area
                .draw(&PathElement::new(vec![(x0, yc), (x1, yc)], e.color.stroke_width(2)))
                .ce()?,
            Swatch::Dashed => {
                for s in [x0, x0 + 9, x0 + 18] {
                    area.draw(&PathElement::new(vec![(s, yc), (s + 5, yc)], e.color.stroke_width(2)))
                        .ce()?;
                }
            }
            Swatch::Marker(k) => draw_marker(area, (x0 + 11, yc), k, e.color)?,
        }
        area.draw(&Text::new(e.label.clone(), (36, y), font(12))).ce()?;
    }
    Ok(())
}

/// Draws marker shape `k` (circle, triangle, square, cross, repeating) at pixel `c`.
pub fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    c: (i32, i32),
    k: usize,
    color: RGBColor,
) -> Result<(), HarnessError> {
    match k % 4 {
        0 => area.draw(&Circle::new(c, 4, color.filled())).ce(),
        1 => area.draw(&TriangleMarker::new(c, 5, color.filled())).ce(),
        2 => area
            .draw(&Rectangle::new(
                [(c.0 - 4, c.1 - 4), (c.0 + 4, c.1 + 4)],
                color.filled(),
            ))
            .ce(),
        _ => area.draw(&Cross::new(c, 4, color.stroke_width(2))).ce(),
    }
}

/// Fills `area` with centred lines of text: what is missing and why.
pub fn draw_message<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, lines: &[String]) -> Result<(), HarnessError> {
    let (w, h) = area.dim_in_pixel();
    area.draw(&Rectangle::new(
        [(10, 10), (w as i32 - 10, h as i32 - 10)],
        RGBColor(200, 200, 200).stroke_width(1),
    ))
    .ce()?;
    let y0 = h as i32 / 2 - 12 * lines.len() as i32;
    for (i, l) in lines.iter().enumerate() {
        let style = font(15).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Center,
        ));
        area.draw(&Text::new(l.clone(), (w as i32 / 2, y0 + 24 * i as i32), style))
            .ce()?;
    }
    Ok(())
}

/// A time unit picked so axis numbers stay readable: (divisor from ms, label).
pub fn time_unit(max_ms: f64) -> (f64, &'static str) {
    if max_ms >= 5_000.0 {
        (1_000.0, "s")
    } else {
        (1.0, "ms")
    }
}

/// A byte unit picked from the largest value: (divisor, label).
pub fn byte_unit(max_bytes: f64) -> (f64, &'static str) {
    const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
    if max_bytes >= 2.0 * GIB {
        (GIB, "GiB")
    } else {
        (1024.0 * 1024.0, "MiB")
    }
}
