//! The `phaseline` command line (clap) and its dispatch to command modules.

use crate::commands;
use crate::error::{ExitCode, HarnessError};
use clap::{Args, Parser, Subcommand};
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
    Diff(commands::compare::DiffArgs),
    /// Learn per-phase noise thresholds from A/A runs of one variant.
    Calibrate(commands::compare::CalibrateArgs),
    /// Find which flag(s) moved a phase; judge commits for `git bisect run`.
    Bisect(crate::bisect::BisectArgs),
    /// Draw comparison charts (SVG or PNG) of runs.
    Chart(crate::chart::ChartArgs),
    /// Write a self-contained HTML report, a Markdown summary and CSVs of a run.
    Report(crate::report::ReportArgs),
    /// The nightly regression job: run, compare with the stored baseline (saved on the
    /// first night), write the report and nightly.json, print bisect steps on a regression.
    Nightly(Box<commands::nightly::NightlyArgs>),
    /// Cut the cases into work units for a scheduler: a shard manifest (or a GitHub Actions matrix).
    Plan(commands::shard::PlanArgs),
    /// Combine the run directories of every shard of one plan into one run.
    Merge(commands::shard::MergeArgs),
    /// The history of nights: import runs, list, export, find steps and trends, chart.
    History(commands::history::HistoryArgs),
}

/// Variants and how to get their runners.
#[derive(Args, Debug, Clone, Default)]
pub struct VariantArgs {
    /// `NAME=feat,feat` (empty for none), or a name from the config (baseline, all, A1, ...). Repeatable.
    #[arg(long = "variant", value_name = "NAME=FEATURES")]
    pub variants: Vec<String>,
    /// Use this runner binary for every variant instead of building (recorded in the run).
    #[arg(long, value_name = "PATH")]
    pub runner: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub v: VariantArgs,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub v: VariantArgs,
    /// Suite name from the config, or `all`. Repeatable.
    #[arg(long = "suite", value_name = "NAME")]
    pub suites: Vec<String>,
    /// Measured repetitions per variant and case.
    #[arg(long)]
    pub reps: Option<usize>,
    /// Warm-up repetitions (stored, never compared).
    #[arg(long)]
    pub warmup: Option<usize>,
    /// In-process warm-up iterations before each measured repetition (alternate mode).
    #[arg(long, value_name = "N")]
    pub inner_warmup: Option<usize>,
    /// Circuit preset replacing the suites' presets.
    #[arg(long = "circuit", value_name = "PRESET")]
    pub circuit: Option<String>,
    /// Partitions replacing the suites' partitions.
    #[arg(long)]
    pub partitions: Option<usize>,
    /// Timeout per repetition, in seconds.
    #[arg(long, value_name = "S")]
    pub timeout: Option<f64>,
    /// `alternate` (A B A B ...) or `block` (A A A, B B B: one process per variant).
    #[arg(long)]
    pub interleave: Option<String>,
    /// Run directory (default: <runs_dir>/<run id>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace an existing run in --out.
    #[arg(long)]
    pub force: bool,
    /// Compare against this stored baseline right after running.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Allow comparing against a baseline of another testbed (flagged in every output).
    #[arg(long)]
    pub allow_cross_testbed: bool,
    /// Allow comparing against baseline variants built with other cargo features.
    #[arg(long)]
    pub allow_feature_mismatch: bool,
    /// Output format of comparisons: table, json, csv, markdown.
    #[arg(long, default_value = "table")]
    pub format: String,
    /// Harness self-test only: ask the runner to sleep MS inside PHASE, for every
    /// variant (PHASE=MS) or one (VARIANT:PHASE=MS).
    #[arg(long = "inject-delay", value_name = "[VARIANT:]PHASE=MS")]
    pub inject_delay: Vec<String>,
    /// Memory / telemetry sampling period in ms (0 = off).
    #[arg(long, default_value_t = 100)]
    pub sample_ms: u64,
    /// Make the parameters of end-to-end cases anew (new toxic waste) instead
    /// of keeping cached ones that pass their check.
    #[arg(long)]
    pub regenerate_params: bool,
    /// Progress display: auto (bar on a terminal), lines, quiet.
    #[arg(long, default_value = "auto")]
    pub progress: String,
    #[command(flatten)]
    pub shard: commands::shard::ShardSel,
}

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

/// Runs the parsed command line.
pub fn dispatch(cli: Cli) -> Result<ExitCode, HarnessError> {
    if let Some(Command::Bisect(a)) = &cli.cmd {
        return crate::bisect::run_bisect(cli.config.as_deref(), a);
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
        Some(Command::Run(a)) => {
            let is_default = a.v.variants.is_empty() && a.suites.is_empty();
            commands::run::run(&cfg, &a, is_default)
        }
        Some(Command::Build(a)) => commands::run::build(&cfg, &a),
        Some(Command::Baseline(b)) => commands::baseline::run(&cfg, b),
        Some(Command::Compare(a)) => commands::compare::compare(&cfg, &a),
        Some(Command::Diff(a)) => commands::compare::diff(&cfg, &a),
        Some(Command::Calibrate(a)) => commands::compare::calibrate(&cfg, &a),
        Some(Command::Bisect(a)) => crate::bisect::run_bisect(cli.config.as_deref(), &a),
        Some(Command::Chart(a)) => crate::chart::run_chart(&cfg, &a),
        Some(Command::Report(a)) => crate::report::run_report(&cfg, &a),
        Some(Command::Nightly(a)) => commands::nightly::run(&cfg, &a),
        Some(Command::Plan(a)) => commands::shard::plan(&cfg, &a),
        Some(Command::Merge(a)) => commands::shard::merge(&a),
        Some(Command::History(a)) => commands::history::run(&cfg, &a),
    }
}
