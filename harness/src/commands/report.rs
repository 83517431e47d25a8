//! `phaseline report RUN [--baseline NAME] --out DIR`: the HTML report, the
//! Markdown summary and the CSVs of a run.

use crate::config::Config;
use crate::report::ReportRequest;
use crate::{ExitCode, HarnessError};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Clone, Debug)]
pub struct ReportArgs {
    /// Run directory (or its run.json).
    pub run: PathBuf,
    /// Stored baseline of the run's testbed to compare against; without it the
    /// run's variants are compared with the reference variant.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Allow a baseline of another testbed (flagged in the report).
    #[arg(long)]
    pub allow_cross_testbed: bool,
    /// Variant the others are compared with when there is no baseline
    /// (default: `baseline` if the run has it, else its first variant).
    #[arg(long)]
    pub reference_variant: Option<String>,
    /// Output folder (created if missing).
    #[arg(long)]
    pub out: PathBuf,
}

impl ReportArgs {
    /// The report these arguments ask for.
    pub fn request(&self) -> ReportRequest {
        ReportRequest {
            run: self.run.clone(),
            baseline: self.baseline.clone(),
            allow_cross_testbed: self.allow_cross_testbed,
            reference_variant: self.reference_variant.clone(),
            out: self.out.clone(),
        }
    }
}

pub fn run(cfg: &Config, a: &ReportArgs) -> Result<ExitCode, HarnessError> {
    for p in crate::report::write_report(cfg, &a.request())? {
        println!("{}", p.display());
    }
    Ok(ExitCode::Ok)
}
