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
    /// Each named variant (default: every variant of the run) is A/A data of
    /// its own; a phase's threshold is the largest the variants give.
    #[arg(long)]
    pub per_variant: bool,
    /// Quantile of the split log ratios taken as the noise level.
    #[arg(long, default_value_t = 0.95, value_name = "Q")]
    pub quantile: f64,
    /// Print the thresholds as suite NAME's own table
    /// (`[suites.NAME.thresholds]`) instead of the global `[thresholds]`.
    #[arg(long, value_name = "NAME")]
    pub suite: Option<String>,
    /// With --suite: print the table for the run's GPU model
    /// (`[suites.NAME.gpu_thresholds."MODEL"]`), used on runs measured with
    /// that GPU, instead of the suite's own.
    #[arg(long, requires = "suite")]
    pub gpu: bool,
}

pub fn calibrate(cfg: &Config, a: &CalibrateArgs) -> Result<ExitCode, HarnessError> {
    if let Some(s) = &a.suite {
        if !cfg.suites.contains_key(s) {
            return Err(HarnessError::Invalid(format!(
                "calibrate --suite {s}: no such suite in the config"
            )));
        }
    }
    let run = crate::rundir::load_run(&a.run)?;
    let gpu_model = match (a.gpu, &run.testbed.gpu_model) {
        (false, _) => None,
        (true, Some(m)) => Some(m.clone()),
        (true, None) => {
            return Err(HarnessError::Invalid(format!(
                "calibrate --gpu: run {} was measured on testbed {}, which has no GPU",
                run.id, run.testbed.key
            )))
        }
    };
    let opts = CalibrateOptions {
        variants: a.variants.clone(),
        quantile: a.quantile,
        seed: cfg.bootstrap_seed,
        floor_ms: cfg.thresholds.floor_ms,
        ..CalibrateOptions::default()
    };
    let t = if a.per_variant {
        compare::calibrate_each(&run, &a.variants, &opts)?
    } else {
        compare::calibrate(&run, &opts)?
    };
    println!(
        "# learned from A/A run {} ({} samples, quantile {}); paste into phaseline.toml",
        run.id,
        run.samples.len(),
        a.quantile
    );
    match (&a.suite, &gpu_model) {
        (Some(s), Some(m)) => print!("{}", t.to_suite_gpu_toml(s, m)),
        (Some(s), None) => print!("{}", t.to_suite_toml(s)),
        (None, _) => print!("{}", t.to_toml()),
    }
    Ok(ExitCode::Ok)
}
