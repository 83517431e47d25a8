//! `phaseline compare`, `diff`, `calibrate` and the comparison after `run`
//! (placeholder until the statistics land).

use crate::cli::RunArgs;
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use crate::model::Run;
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct CompareArgs {
    pub run: PathBuf,
    #[arg(long)]
    pub baseline: Option<String>,
    #[arg(long)]
    pub against: Option<PathBuf>,
    #[arg(long, default_value = "table")]
    pub format: String,
    #[arg(long)]
    pub allow_cross_testbed: bool,
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    pub run_a: PathBuf,
    pub run_b: PathBuf,
    #[arg(long, default_value = "table")]
    pub format: String,
    #[arg(long)]
    pub allow_cross_testbed: bool,
}

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    pub run: PathBuf,
}

pub fn check_format(f: &str) -> Result<(), HarnessError> {
    match f {
        "table" | "json" | "csv" | "markdown" => Ok(()),
        _ => Err(HarnessError::Invalid(format!(
            "--format `{f}` is not one of: table, json, csv, markdown"
        ))),
    }
}

fn pending() -> HarnessError {
    HarnessError::Invalid("comparisons are not available in this build".into())
}

pub fn compare(_cfg: &Config, _a: &CompareArgs) -> Result<ExitCode, HarnessError> {
    Err(pending())
}

pub fn diff(_cfg: &Config, _a: &DiffArgs) -> Result<ExitCode, HarnessError> {
    Err(pending())
}

pub fn calibrate(_cfg: &Config, _a: &CalibrateArgs) -> Result<ExitCode, HarnessError> {
    Err(pending())
}

pub fn after_run(
    _cfg: &Config,
    _a: &RunArgs,
    _run: &Run,
    _dir: &Path,
    _default: bool,
) -> Result<ExitCode, HarnessError> {
    Ok(ExitCode::Ok)
}
