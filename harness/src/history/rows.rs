//! What the history database gives back: stored runs and stored phase times.

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
