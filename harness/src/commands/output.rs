//! What commands print: per-phase medians and comparisons in the chosen
//! format, and the exit code of a printed comparison.

use crate::compare::{self, CompareOptions};
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use crate::model::{Comparison, Run};
use crate::output::{Exporter, Format};
use clap::Args;

/// How a comparison command prints, and what it compares anyway.
#[derive(Args, Debug)]
pub struct ComparisonFlags {
    /// table, json, csv or markdown.
    #[arg(long, default_value = "table")]
    pub format: String,
    /// Compare across testbeds anyway (flagged in every output).
    #[arg(long)]
    pub allow_cross_testbed: bool,
    /// Compare variants of one name built with different cargo features anyway.
    #[arg(long)]
    pub allow_feature_mismatch: bool,
}

impl ComparisonFlags {
    /// The config's comparison settings with these allowances.
    pub fn options(&self, cfg: &Config) -> CompareOptions {
        let mut opts = CompareOptions::from_config(cfg, self.allow_cross_testbed);
        opts.allow_feature_mismatch = self.allow_feature_mismatch;
        opts
    }
}

/// Refuses an unknown `--format` before anything is measured or read.
pub fn check_format(f: &str) -> Result<(), HarnessError> {
    f.parse::<Format>().map(|_| ())
}

/// The per-phase medians of a run as a terminal table.
pub fn summary_table(run: &Run) -> Result<String, HarnessError> {
    crate::output::Table.run_summary(&crate::summary::summarize(run))
}

/// Prints `c` on stdout in `format`.
pub fn print_comparison(c: &Comparison, format: &str) -> Result<(), HarnessError> {
    print!("{}", format.parse::<Format>()?.exporter().comparison(c)?);
    Ok(())
}

fn failed_samples(run: &Run) -> usize {
    run.samples.iter().filter(|s| !s.ok).count()
}

/// Exit code of a printed comparison; failed samples on either side make it an error.
pub fn finish(c: &Comparison, reference: &Run, candidate: &Run) -> Result<ExitCode, HarnessError> {
    let failed = failed_samples(reference) + failed_samples(candidate);
    if failed > 0 {
        return Err(HarnessError::Failed(format!(
            "{failed} failed samples in the compared runs; the comparison above used the successful ones only"
        )));
    }
    Ok(compare::exit_code(c))
}
