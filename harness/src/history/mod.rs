//! The history of nights: every nightly (and any run on request) appended to one
//! SQLite database with its commit, time, testbed, variants, cases, phases and
//! samples ([`store`]); per (testbed, variant, case, phase) the series of nightly
//! medians ([`series`]) and its steps and drifts ([`changes`]); exports
//! ([`export`]) and a chart of a series with its steps marked ([`chart`]).
//!
//! The domain only: the command line lives in `commands::history`.

pub mod changes;
pub mod chart;
pub mod export;
pub mod series;
pub mod store;
#[cfg(test)]
mod tests;

pub use changes::{analyze_all, onset, Onset, SeriesChanges, StepReport, TrendReport};
pub use series::{series, Night, Series, SeriesKey};
pub use store::{History, Imported};

use crate::model::Case;
use serde::Serialize;

/// One stored run, as `history list` shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRow {
    pub run_id: String,
    pub testbed: String,
    pub commit: String,
    pub dirty: bool,
    pub started_utc: String,
    /// The run directory it was imported from.
    pub source: String,
    /// Phase times stored.
    pub rows: usize,
}

/// One stored phase time of one sample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    pub run_id: String,
    pub testbed: String,
    pub commit: String,
    pub started_utc: String,
    pub variant: String,
    /// Comma-joined cargo features of the variant.
    pub features: String,
    pub case: Case,
    pub rep: usize,
    pub warmup: bool,
    pub phase: String,
    pub ms: f64,
}
