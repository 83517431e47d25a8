//! phaseline: builds prover variants, benchmarks them, stores baselines,
//! compares phase timings with honest statistics, bisects flags and draws charts.
//!
//! Module map (one concept per file):
//! - `model`: the run-directory data model every other module reads or writes.
//! - `error`: the typed error of the library and its exit-code mapping.

pub mod compare;
pub mod error;
pub mod model;
pub mod output;
pub mod run_summary;
pub mod stats;
pub mod synthetic;

pub use error::{ExitCode, HarnessError};
