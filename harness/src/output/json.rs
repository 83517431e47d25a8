//! JSON: the data model as is (pretty-printed, trailing newline).

use super::exporter::Exporter;
use crate::error::HarnessError;
use crate::model::Comparison;
use crate::summary::RunSummary;

pub struct Json;

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, HarnessError> {
    let mut s = serde_json::to_string_pretty(v).map_err(|e| HarnessError::Data(format!("JSON encoding: {e}")))?;
    s.push('\n');
    Ok(s)
}

impl Exporter for Json {
    fn comparison(&self, c: &Comparison) -> Result<String, HarnessError> {
        to_json(c)
    }

    fn run_summary(&self, s: &RunSummary) -> Result<String, HarnessError> {
        to_json(s)
    }
}
