//! The trait every export format implements.

use crate::error::HarnessError;
use crate::model::Comparison;
use crate::summary::RunSummary;

/// Renders comparisons and run summaries in one format.
pub trait Exporter {
    fn comparison(&self, c: &Comparison) -> Result<String, HarnessError>;
    fn run_summary(&self, s: &RunSummary) -> Result<String, HarnessError>;
}
