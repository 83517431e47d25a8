//! `phaseline compare`: a run against a stored baseline, another run, or two
//! of its own variants.

use super::output::{check_format, finish, print_comparison, ComparisonFlags};
use crate::baseline::BaselineStore;
use crate::compare;
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Run directory of the candidate.
    pub run: PathBuf,
    /// Stored baseline of the run's testbed to compare against.
    #[arg(long, value_name = "NAME", conflicts_with = "against")]
    pub baseline: Option<String>,
    /// Another run directory to compare against.
    #[arg(long, value_name = "RUN", conflicts_with = "variants")]
    pub against: Option<PathBuf>,
    /// Two variants of the one run: `REF,CAND` (interleaved, so drift hits both alike).
    #[arg(long, value_name = "REF,CAND", conflicts_with = "baseline")]
    pub variants: Option<String>,
    #[command(flatten)]
    pub flags: ComparisonFlags,
}

pub fn compare(cfg: &Config, a: &CompareArgs) -> Result<ExitCode, HarnessError> {
    check_format(&a.flags.format)?;
    let run = crate::rundir::load_run(&a.run)?;
    let opts = a.flags.options(cfg);
    if let Some(pair) = &a.variants {
        let Some((r, c)) = pair.split_once(',') else {
            return Err(HarnessError::Invalid(format!(
                "--variants wants REF,CAND, got `{pair}`"
            )));
        };
        let cmp = compare::compare_variants(&run, r.trim(), c.trim(), &opts)?;
        print_comparison(&cmp, &a.flags.format)?;
        return finish(&cmp, &run, &run);
    }
    let (reference, c) = match (&a.baseline, &a.against) {
        (Some(name), None) => {
            let b = BaselineStore::of(cfg).load(name, &run.testbed.key, a.flags.allow_cross_testbed)?;
            let c = crate::baseline::compare_with(&b, &run, &opts)?;
            (b.run, c)
        }
        (None, Some(dir)) => {
            let reference = crate::rundir::load_run(dir)?;
            let c = compare::compare_runs(&reference, &run, &opts)?;
            (reference, c)
        }
        _ => {
            return Err(HarnessError::Invalid(
                "compare needs --baseline NAME or --against RUN".into(),
            ))
        }
    };
    print_comparison(&c, &a.flags.format)?;
    finish(&c, &reference, &run)
}
