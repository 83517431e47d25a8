//! Exports of the history: every stored phase time, as CSV (one row each) or JSON.

use super::Point;
use crate::error::HarnessError;
use std::str::FromStr;

/// Export format of `history export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Csv,
    Json,
}

impl FromStr for ExportFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "csv" => Ok(ExportFormat::Csv),
            "json" => Ok(ExportFormat::Json),
            _ => Err(format!("`{s}` is not an export format (csv, json)")),
        }
    }
}

const COLUMNS: [&str; 14] = [
    "run_id",
    "testbed",
    "commit",
    "started_utc",
    "variant",
    "features",
    "suite",
    "circuit",
    "partitions",
    "backend",
    "rep",
    "warmup",
    "phase",
    "ms",
];

/// `points` in `format`.
pub fn export(points: &[Point], format: ExportFormat) -> Result<Vec<u8>, HarnessError> {
    match format {
        ExportFormat::Json => {
            let mut v = serde_json::to_vec_pretty(points)
                .map_err(|e| HarnessError::Data(format!("cannot serialize the history: {e}")))?;
            v.push(b'\n');
            Ok(v)
        }
        ExportFormat::Csv => {
            let bad = |e: csv::Error| HarnessError::Data(format!("csv: {e}"));
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(COLUMNS).map_err(bad)?;
            for p in points {
                w.write_record([
                    p.run_id.as_str(),
                    &p.testbed,
                    &p.commit,
                    &p.started_utc,
                    &p.variant,
                    &p.features,
                    &p.case.suite,
                    &p.case.circuit,
                    &p.case.partitions.to_string(),
                    p.case.backend.as_str(),
                    &p.rep.to_string(),
                    &p.warmup.to_string(),
                    &p.phase,
                    &format!("{}", p.ms),
                ])
                .map_err(bad)?;
            }
            w.into_inner().map_err(|e| HarnessError::Data(format!("csv: {e}")))
        }
    }
}
