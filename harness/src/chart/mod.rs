//! `phaseline chart`: comparison charts drawn with plotters, SVG or PNG, text
//! rendered from an embedded font so no system font is needed.
//!
//! One file per chart kind; `palette` gives every phase one colour everywhere;
//! `set` decides which charts a run gets; `inputs` loads what is charted and writes the files.

pub mod axis;
pub mod data;
pub mod distribution;
pub mod inputs;
pub mod memory;
pub mod palette;
pub mod ratio;
pub mod render;
pub mod set;
pub mod stacked;
pub mod timeline;
pub mod trend;

pub use inputs::{comparisons, draw, load_inputs, write_charts, ChartRequest, Inputs};

#[cfg(test)]
mod tests;
