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
pub mod rows;
pub mod series;
pub mod store;
#[cfg(test)]
mod tests;

pub use changes::{analyze_all, onset, Onset, SeriesChanges, StepReport, TrendReport};
pub use rows::{Point, RunRow};
pub use series::{series, Night, Series, SeriesKey};
pub use store::{History, Imported};
