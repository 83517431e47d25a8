//! `phaseline baseline save|list|show`.

use super::output::summary_table;
use crate::baseline::BaselineStore;
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum BaselineCmd {
    /// Store a run as baseline NAME of its testbed.
    Save {
        name: String,
        /// Run directory (default: the latest run).
        #[arg(long, value_name = "RUN")]
        from: Option<PathBuf>,
        /// Replace an existing baseline of that name.
        #[arg(long)]
        force: bool,
    },
    /// List stored baselines per testbed.
    List,
    /// Show a baseline's provenance and per-phase medians.
    Show {
        name: String,
        /// Testbed key (default: this machine's).
        #[arg(long)]
        testbed: Option<String>,
    },
}

pub fn run(cfg: &Config, cmd: BaselineCmd) -> Result<ExitCode, HarnessError> {
    let store = BaselineStore::of(cfg);
    match cmd {
        BaselineCmd::Save { name, from, force } => {
            let src = match from {
                Some(p) => p,
                None => crate::rundir::latest(&cfg.resolve(&cfg.runs_dir))?,
            };
            let run = crate::rundir::load_run(&src)?;
            let here = crate::testbed::detect();
            if run.testbed.key != here.key {
                eprintln!(
                    "note: run {} comes from testbed `{}` (this machine is `{}`); it is stored under its own testbed",
                    src.display(),
                    run.testbed.key,
                    here.key
                );
            }
            let file = store.save(&name, &run, &src, force)?;
            println!("baseline `{name}` saved: {}", file.display());
            Ok(ExitCode::Ok)
        }
        BaselineCmd::List => {
            let here = crate::testbed::detect().key;
            let entries = store.list();
            if entries.is_empty() {
                println!("no baselines in {}", store.dir().display());
            }
            for e in entries {
                let mark = if e.testbed == here { "*" } else { " " };
                match e.detail {
                    Ok((saved, n, variants)) => println!(
                        "{mark} {:<40} {:<16} {saved}  {n} samples  variants: {}",
                        e.testbed,
                        e.name,
                        variants.join(", ")
                    ),
                    Err(why) => println!("{mark} {:<40} {:<16} UNUSABLE: {why}", e.testbed, e.name),
                }
            }
            println!("(* = this machine's testbed `{here}`)");
            Ok(ExitCode::Ok)
        }
        BaselineCmd::Show { name, testbed } => {
            let tb = testbed.unwrap_or_else(|| crate::testbed::detect().key);
            if !crate::testbed::is_key(&tb) {
                return Err(HarnessError::Invalid(format!(
                    "--testbed `{tb}` is not a testbed key (lower-case letters, digits and `-`, as \
                     `phaseline baseline list` prints them)"
                )));
            }
            let others = store.testbeds_with(&name);
            if !store.has(&tb, &name) && !others.is_empty() {
                return Err(HarnessError::Invalid(format!(
                    "no baseline `{name}` for testbed `{tb}`; it exists for: {} (show one with --testbed KEY)",
                    others.join(", ")
                )));
            }
            let b = store.load(&name, &tb, false)?;
            let p = &b.run.provenance;
            println!("baseline `{}` (testbed {})", b.name, b.run.testbed.key);
            println!("saved {} from {}", b.saved_utc, b.source);
            println!(
                "run {}: commit {}{}, {} .. {}",
                b.run.id,
                p.git_commit,
                if p.git_dirty { " (dirty)" } else { "" },
                p.started_utc,
                p.finished_utc
            );
            for v in &b.run.variants {
                println!(
                    "  {:<12} [{}] {}",
                    v.variant.name,
                    v.variant.feature_list(),
                    v.fingerprint
                );
            }
            print!("{}", summary_table(&b.run)?);
            Ok(ExitCode::Ok)
        }
    }
}
