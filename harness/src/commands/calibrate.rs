//! `phaseline calibrate RUN`: per-phase noise thresholds learned from A/A runs of one variant.

use crate::compare::{self, CalibrateOptions};
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Run directory holding A/A data (one variant, or variants with identical features).
    pub run: PathBuf,
    /// The A/A variants (default: the run's only variant).
    #[arg(long = "variant")]
    pub variants: Vec<String>,
}

pub fn calibrate(cfg: &Config, a: &CalibrateArgs) -> Result<ExitCode, HarnessError> {
    let run = crate::rundir::load_run(&a.run)?;
    let opts = CalibrateOptions {
        variants: a.variants.clone(),
        seed: cfg.bootstrap_seed,
        floor_ms: cfg.thresholds.floor_ms,
        ..CalibrateOptions::default()
    };
    let t = compare::calibrate(&run, &opts)?;
    println!(
        "# learned from A/A run {} ({} samples); paste into phaseline.toml",
        run.id,
        run.samples.len()
    );
    print!("{}", t.to_toml());
    Ok(ExitCode::Ok)
}
