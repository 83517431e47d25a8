//! `phaseline merge`: combine the run directories of every shard of one plan into one run.

use crate::error::{ExitCode, HarnessError};
use crate::measured::refuse_existing;
use crate::shard::{self, ShardRun};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' run directories (every unit of one plan, once).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Directory of the merged run.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Replace a run already in --out.
    #[arg(long)]
    pub force: bool,
}

/// `phaseline merge DIR... --out DIR`.
pub fn merge(a: &MergeArgs) -> Result<ExitCode, HarnessError> {
    refuse_existing(&a.out, a.force)?;
    let mut shards = Vec::new();
    for d in &a.dirs {
        let run = crate::rundir::load_run(d)?;
        shards.push(ShardRun { dir: d.clone(), run });
    }
    let n = shards.len();
    let run = shard::merge_runs(shards, std::env::args().collect())?;
    crate::rundir::save_run(&a.out, &run)?;
    println!(
        "merged {n} shards ({} cases, {} samples) into {}",
        run.cases.len(),
        run.samples.len(),
        a.out.display()
    );
    Ok(ExitCode::Ok)
}
