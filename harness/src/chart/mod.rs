//! `phaseline chart`: comparison charts drawn with plotters, SVG or PNG, text
//! rendered from an embedded font so no system font is needed.
//!
//! One file per chart kind; `palette` gives every phase one colour everywhere;
//! `set` decides which charts a run gets; `cmd` is the command.

pub mod axis;
pub mod cmd;
pub mod data;
pub mod distribution;
pub mod memory;
pub mod palette;
pub mod ratio;
pub mod render;
pub mod set;
pub mod stacked;
pub mod timeline;
pub mod trend;

pub use cmd::{run_chart, ChartArgs};

#[cfg(test)]
pub(crate) mod fixture;
#[cfg(test)]
mod tests;
