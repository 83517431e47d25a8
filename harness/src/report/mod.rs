//! `phaseline report RUN [--baseline NAME] --out DIR`: one self-contained HTML
//! page (`report.html`), a Markdown summary (`summary.md`) and the CSVs
//! (`samples.csv`, `summary.csv`, one `comparison-*.csv` per comparison).

pub mod contents;
pub mod html;
pub mod markdown;

pub use contents::{count_verdicts, Report, CHART_H, CHART_W, VERDICTS};

#[cfg(test)]
mod tests;

use crate::baseline::BaselineStore;
use crate::chart::inputs::{comparisons, load_inputs};
use crate::compare::CompareOptions;
use crate::config::Config;
use crate::fsutil::write_atomic;
use crate::HarnessError;
use std::path::PathBuf;

/// Which run a report shows, what it is compared with, and where it goes.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportRequest {
    /// Run directory (or its run.json).
    pub run: PathBuf,
    /// Stored baseline of the run's testbed; without it the run's variants
    /// are compared with the reference variant.
    pub baseline: Option<String>,
    /// Allow a baseline of another testbed (flagged in the report).
    pub allow_cross_testbed: bool,
    /// Variant the others are compared with when there is no baseline.
    pub reference_variant: Option<String>,
    /// Output folder (created if missing).
    pub out: PathBuf,
}

impl Report {
    /// The files of the report: (file name, contents).
    pub fn files(&self) -> Result<Vec<(String, Vec<u8>)>, HarnessError> {
        let mut out = vec![
            ("report.html".to_string(), html::page(self).into_bytes()),
            ("summary.md".to_string(), markdown::summary(self).into_bytes()),
            ("samples.csv".to_string(), crate::rundir::samples_csv(&self.run)?),
            ("summary.csv".to_string(), crate::rundir::summary_csv(&self.run)?),
        ];
        for c in &self.comparisons {
            let name = format!(
                "comparison-{}-vs-{}.csv",
                crate::chart::data::slug(&c.candidate),
                crate::chart::data::slug(&c.reference)
            );
            out.push((
                name,
                crate::output::Exporter::comparison(&crate::output::Csv, c)?.into_bytes(),
            ));
        }
        Ok(out)
    }
}

/// Writes the report `req` asks for; returns the files written.
pub fn write_report(cfg: &Config, req: &ReportRequest) -> Result<Vec<PathBuf>, HarnessError> {
    let inputs = load_inputs(
        std::slice::from_ref(&req.run),
        req.baseline.as_deref(),
        &BaselineStore::of(cfg),
        req.allow_cross_testbed,
    )?;
    let opts = CompareOptions::from_config(cfg, req.allow_cross_testbed);
    let cmps = comparisons(&inputs, req.reference_variant.as_deref(), &opts)?;
    let report = Report::build(inputs.run, inputs.baseline, cmps)?;
    let mut written = Vec::new();
    for (name, bytes) in report.files()? {
        let path = req.out.join(name);
        write_atomic(&path, &bytes)?;
        written.push(path);
    }
    Ok(written)
}
