//! `phaseline diff RUN_A RUN_B`: two stored runs, RUN_B against RUN_A.

use super::output::{check_format, finish, print_comparison, ComparisonFlags};
use crate::compare;
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// Reference run directory.
    pub run_a: PathBuf,
    /// Candidate run directory.
    pub run_b: PathBuf,
    #[command(flatten)]
    pub flags: ComparisonFlags,
}

pub fn diff(cfg: &Config, a: &DiffArgs) -> Result<ExitCode, HarnessError> {
    check_format(&a.flags.format)?;
    let ra = crate::rundir::load_run(&a.run_a)?;
    let rb = crate::rundir::load_run(&a.run_b)?;
    let opts = a.flags.options(cfg);
    let c = compare::compare_runs(&ra, &rb, &opts)?;
    print_comparison(&c, &a.flags.format)?;
    finish(&c, &ra, &rb)
}
