//! The `phaseline` command line: the top-level parser and its dispatch to
//! the command modules (`crate::commands`), which own every other clap type.

use crate::commands::{self, baseline::BaselineCmd, build::BuildArgs, run::RunArgs};
use crate::error::{ExitCode, HarnessError};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "phaseline",
    version,
    about = "Build prover variants, benchmark their phases, store baselines and find regressions",
    after_help = "Exit codes: 0 no regression, 1 regression, 2 error (bad input, failed build, failed runs)."
)]
pub struct Cli {
    /// Configuration file (default: phaseline.toml in the current directory or above).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub cmd: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Build (or reuse from the cache) the runner of each variant.
    Build(BuildArgs),
    /// Benchmark variants; with no arguments, the config's default suite.
    Run(Box<RunArgs>),
    /// Save, list and show stored baselines.
    #[command(subcommand)]
    Baseline(BaselineCmd),
    /// Compare a run against a stored baseline or another run.
    Compare(commands::compare::CompareArgs),
    /// Compare two stored runs (RUN_B against RUN_A).
    Diff(commands::diff::DiffArgs),
    /// Learn per-phase noise thresholds from A/A runs of one variant.
    Calibrate(commands::calibrate::CalibrateArgs),
    /// Find which flag(s) moved a phase; judge commits for `git bisect run`.
    Bisect(commands::bisect::BisectArgs),
    /// Draw comparison charts (SVG or PNG) of runs.
    Chart(commands::chart::ChartArgs),
    /// Write a self-contained HTML report, a Markdown summary and CSVs of a run.
    Report(commands::report::ReportArgs),
    /// The nightly regression job: run, compare with the stored baseline (saved on the
    /// first night), write the report and nightly.json, print bisect steps on a regression.
    Nightly(Box<commands::nightly::NightlyArgs>),
    /// Cut the cases into work units for a scheduler: a shard manifest (or a GitHub Actions matrix).
    Plan(commands::plan::PlanArgs),
    /// Combine the run directories of every shard of one plan into one run.
    Merge(commands::merge::MergeArgs),
    /// The history of nights: import runs, list, export, find steps and trends, chart.
    History(commands::history::HistoryArgs),
}

/// Runs the parsed command line.
pub fn dispatch(cli: Cli) -> Result<ExitCode, HarnessError> {
    if let Some(Command::Bisect(a)) = &cli.cmd {
        return commands::bisect::run(cli.config.as_deref(), a);
    }
    let cfg = crate::config::Config::load(cli.config.as_deref())?;
    match cli.cmd {
        None => {
            // `phaseline` alone is `phaseline run` with every default.
            let a = match Cli::try_parse_from(["phaseline", "run"]).map(|c| c.cmd) {
                Ok(Some(Command::Run(a))) => a,
                _ => return Err(HarnessError::Invalid("cannot build the default run".into())),
            };
            commands::run::run(&cfg, &a, true)
        }
        Some(Command::Run(a)) if a.shard.manifest.is_some() => commands::run_shard::run_shard(&cfg, &a),
        Some(Command::Run(a)) => {
            let is_default = a.v.variants.is_empty() && a.suites.is_empty();
            commands::run::run(&cfg, &a, is_default)
        }
        Some(Command::Build(a)) => commands::build::build(&cfg, &a),
        Some(Command::Baseline(b)) => commands::baseline::run(&cfg, b),
        Some(Command::Compare(a)) => commands::compare::compare(&cfg, &a),
        Some(Command::Diff(a)) => commands::diff::diff(&cfg, &a),
        Some(Command::Calibrate(a)) => commands::calibrate::calibrate(&cfg, &a),
        Some(Command::Bisect(a)) => commands::bisect::run(cli.config.as_deref(), &a),
        Some(Command::Chart(a)) => commands::chart::run(&cfg, &a),
        Some(Command::Report(a)) => commands::report::run(&cfg, &a),
        Some(Command::Nightly(a)) => commands::nightly::run(&cfg, &a),
        Some(Command::Plan(a)) => commands::plan::plan(&cfg, &a),
        Some(Command::Merge(a)) => commands::merge::merge(&a),
        Some(Command::History(a)) => commands::history::run(&cfg, &a),
    }
}
