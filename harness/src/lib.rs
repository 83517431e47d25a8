//! phaseline: builds prover variants, benchmarks them, stores baselines,
//! compares phase timings with honest statistics, bisects flags and draws charts.
//!
//! Module map (one concept per file):
//! - `model`: the run-directory data model every other module reads or writes.
//! - `error`: the typed error of the library and its exit-code mapping.
//! - `chart`, `report`: comparison charts and the HTML / Markdown report.

pub mod chart;
pub mod error;
pub mod model;

pub use error::{ExitCode, HarnessError};
