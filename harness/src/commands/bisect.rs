//! `phaseline bisect flags|oracle`: the command line of the flag bisect and
//! of the `git bisect run` oracle; the searches live in `crate::bisect`.

use crate::bisect::oracle::{self, OracleRequest};
use crate::bisect::real::RunnerMeasurer;
use crate::bisect::space::{self, Space};
use crate::bisect::{run_flags, FlagsRequest, Settings, Target};
use crate::compare::CompareOptions;
use crate::config::Config;
use crate::{ExitCode, HarnessError};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct BisectArgs {
    #[command(subcommand)]
    pub command: BisectCommand,
}

#[derive(Debug, Subcommand)]
pub enum BisectCommand {
    /// Find the optimization flag(s) that moved a phase between two feature sets.
    Flags(FlagsArgs),
    /// Judge the checked-out commit for `git bisect run`: exit 0 good, 1 bad, 125 skip, 128 abort.
    Oracle(OracleArgs),
}

#[derive(Debug, Clone, Args)]
pub struct FlagsArgs {
    /// Features of the good (fast) end, comma-separated; "" = no optimization flag.
    #[arg(long, default_value = "")]
    pub good: String,
    /// Features of the bad (slow) end; default: every optimization flag of the config.
    #[arg(long)]
    pub bad: Option<String>,
    /// Suite from the config: synth (synthesis only) or e2e (whole proof).
    #[arg(long, default_value = "e2e")]
    pub suite: String,
    /// Circuit preset (default: the suite's first).
    #[arg(long)]
    pub circuit: Option<String>,
    /// Phase to judge by (`total` = end-to-end time; `auto` = every phase that regressed).
    #[arg(long, default_value = "auto")]
    pub metric: String,
    #[command(flatten)]
    pub reps: Repetitions,
    /// Relative noise threshold: smaller changes do not count (default: the config's for the metric).
    #[arg(long)]
    pub threshold: Option<f64>,
    /// Seed of the bootstrap (default: the config's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Also fit a factorial design (full 2^k for k <= 6, half fraction for k <= 8).
    #[arg(long)]
    pub factorial: bool,
    /// State file (resumable); default <runs_dir>/../bisect/state.json.
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Resume from the state file. Its samples are pooled with new ones only if
    /// the reference end, measured afresh, has not drifted; else they are set aside.
    #[arg(long)]
    pub resume: bool,
    /// With --resume: pool the stored samples without the drift check (the machine is known unchanged).
    #[arg(long, requires = "resume")]
    pub trust_stored: bool,
    /// Harness self-test: use this runner binary for every variant instead of building.
    #[arg(long, value_name = "PATH")]
    pub runner: Option<PathBuf>,
    /// Take each variant's runner from this folder of prebuilt runners (one per feature
    /// set, each checked by `info --json`) instead of building: a host without cargo.
    #[arg(long, value_name = "DIR", conflicts_with = "runner")]
    pub runners: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct OracleArgs {
    /// Reference commit (e.g. the known-good one), built and measured now beside the checkout.
    #[arg(
        long,
        value_name = "REV",
        conflicts_with = "baseline",
        required_unless_present = "baseline"
    )]
    pub reference: Option<String>,
    /// Stored baseline of this testbed to compare against instead of a reference commit.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Variant of the baseline to compare with (default: the one with --features).
    #[arg(long, value_name = "NAME")]
    pub baseline_variant: Option<String>,
    /// Prover features to build both sides with.
    #[arg(long, default_value = "")]
    pub features: String,
    /// Suite from the config.
    #[arg(long, default_value = "e2e")]
    pub suite: String,
    /// Circuit preset (default: the suite's first).
    #[arg(long)]
    pub circuit: Option<String>,
    /// Phase judged (`total` = end-to-end).
    #[arg(long, default_value = "total")]
    pub metric: String,
    #[command(flatten)]
    pub reps: Repetitions,
    /// Relative noise threshold (default: the config's for the metric).
    #[arg(long)]
    pub threshold: Option<f64>,
    /// Shell command run in each checkout before measuring (e.g. a code generator);
    /// if it fails on the checkout the commit is skipped.
    #[arg(long, value_name = "CMD")]
    pub build_cmd: Option<String>,
    /// Harness self-test: use this runner (path inside each checkout) instead of building with cargo.
    #[arg(long, value_name = "PATH")]
    pub runner: Option<PathBuf>,
    /// Repository (default: the current directory's).
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
}

/// How many repetitions a bisect's comparisons start with and may grow to.
#[derive(Debug, Clone, Args)]
pub struct Repetitions {
    /// Repetitions per variant to start with.
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
    /// Cap on repetitions per variant when a comparison is inconclusive.
    #[arg(long, default_value_t = 20)]
    pub max_reps: usize,
}

/// Dispatch of `phaseline bisect ...` (loads the config itself, so that the
/// oracle can turn a broken config into its own exit codes).
pub fn run(config: Option<&Path>, args: &BisectArgs) -> Result<ExitCode, HarnessError> {
    match &args.command {
        BisectCommand::Flags(a) => {
            let cfg = Config::load(config)?;
            flags(&cfg, a)
        }
        BisectCommand::Oracle(a) => Ok(oracle::run_oracle(config, &a.request())),
    }
}

impl FlagsArgs {
    /// The bisect these arguments ask for.
    pub fn request(&self) -> FlagsRequest {
        FlagsRequest {
            suite: self.suite.clone(),
            metric: self.metric.clone(),
            reps: self.reps.reps,
            max_reps: self.reps.max_reps,
            factorial: self.factorial,
            resume: self.resume,
            trust_stored: self.trust_stored,
        }
    }
}

impl OracleArgs {
    /// The judgement these arguments ask for.
    pub fn request(&self) -> OracleRequest {
        OracleRequest {
            reference: self.reference.clone(),
            baseline: self.baseline.clone(),
            baseline_variant: self.baseline_variant.clone(),
            features: self.features.clone(),
            suite: self.suite.clone(),
            circuit: self.circuit.clone(),
            metric: self.metric.clone(),
            reps: self.reps.reps,
            max_reps: self.reps.max_reps,
            threshold: self.threshold,
            build_cmd: self.build_cmd.clone(),
            runner: self.runner.clone(),
            repo: self.repo.clone(),
        }
    }
}

/// The flag space between `--good` and `--bad` (default: every flag of the
/// config), each feature checked against the prover's unless a runner is given.
fn flag_space(cfg: &Config, a: &FlagsArgs) -> Result<Space, HarnessError> {
    let good = space::parse_features(&a.good)?;
    let bad = match &a.bad {
        Some(b) => space::parse_features(b)?,
        None => {
            let mut all: Vec<String> = cfg.flags.iter().map(|f| f.feature.clone()).collect();
            all.sort();
            all
        }
    };
    if a.runner.is_none() {
        let declared = crate::variant::declared_features(&cfg.root)?;
        for f in good.iter().chain(&bad) {
            if !declared.contains(f) {
                return Err(HarnessError::Invalid(format!(
                    "feature `{f}` is not declared by the prover (declared: {})",
                    declared.iter().cloned().collect::<Vec<_>>().join(", ")
                )));
            }
        }
    }
    let mut space = Space::new(good, bad)?;
    if let Some(dir) = &a.runners {
        space = space.with_runners(crate::prebuilt::RunnerFolder::scan(dir)?)?;
    }
    space.labels = cfg.flags.iter().map(|f| (f.feature.clone(), f.id.clone())).collect();
    Ok(space)
}

fn flags(cfg: &Config, a: &FlagsArgs) -> Result<ExitCode, HarnessError> {
    let space = flag_space(cfg, a)?;
    let target = Target::resolve(cfg, &a.suite, a.circuit.as_deref())?;
    let mut measurer = RunnerMeasurer::from_config(cfg, &target, a.runner.clone());
    let path = match &a.state {
        Some(p) => p.clone(),
        None => cfg.resolve(&cfg.runs_dir).join("..").join("bisect").join("state.json"),
    };
    let mut compare = CompareOptions::from_config(cfg, false)
        .for_suite(&a.suite)
        .with_threshold(&a.metric, a.threshold);
    if let Some(s) = a.seed {
        compare.bootstrap_seed = s;
    }
    let settings = Settings {
        circuit: target.circuit,
        compare,
    };
    let mut progress = |l: &str| eprintln!("{l}");
    let out = run_flags(&space, &a.request(), &settings, &mut measurer, &path, &mut progress)?;
    print!("{}", out.text);
    Ok(out.exit)
}
