//! `phaseline bisect`: which optimization flag (or pair of flags) moved a
//! phase (`bisect flags`), and a noise-aware good/bad oracle for
//! `git bisect run` (`bisect oracle`).
//!
//! Every measurement goes through [`Measurer`], so the search logic is tested
//! with a seeded mock and runs unchanged on real builds.

pub mod ddmin;
pub mod drift;
pub mod factorial;
pub mod flags;
pub mod judge;
pub mod mock;
pub mod oracle;
pub mod real;
pub mod report;
pub mod screen;
pub mod space;
pub mod state;

use crate::model::{Run, Variant};
use crate::{ExitCode, HarnessError};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

/// Builds (cached by feature set) and measures variants.
pub trait Measurer {
    /// Runs `reps` measured repetitions of each variant (interleaved) on the
    /// measurer's benchmark case and returns them as a run. Variant names are
    /// the caller's; a variant whose feature set was built before is not rebuilt.
    fn measure(&mut self, variants: &[Variant], reps: usize) -> Result<Run, HarnessError>;
}

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
    Oracle(oracle::OracleArgs),
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
    /// Repetitions per variant to start with.
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
    /// Cap on repetitions per variant when a comparison is inconclusive.
    #[arg(long, default_value_t = 20)]
    pub max_reps: usize,
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

/// Dispatch of `phaseline bisect ...` (loads the config itself, so that the
/// oracle can turn a broken config into its own exit codes).
pub fn run_bisect(config: Option<&Path>, args: &BisectArgs) -> Result<ExitCode, HarnessError> {
    match &args.command {
        BisectCommand::Flags(a) => {
            let cfg = crate::config::Config::load(config)?;
            run_flags_cli(&cfg, a)
        }
        BisectCommand::Oracle(a) => Ok(oracle::run_oracle(config, a)),
    }
}

fn run_flags_cli(cfg: &crate::config::Config, a: &FlagsArgs) -> Result<ExitCode, HarnessError> {
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
    let mut space = space::Space::new(good, bad)?;
    if let Some(dir) = &a.runners {
        space = space.with_runners(crate::prebuilt::RunnerFolder::scan(dir)?)?;
    }
    space.labels = cfg.flags.iter().map(|f| (f.feature.clone(), f.id.clone())).collect();
    let suite = cfg
        .suites
        .get(&a.suite)
        .ok_or_else(|| HarnessError::Invalid(format!("unknown suite `{}`", a.suite)))?;
    let circuit = match &a.circuit {
        Some(c) => c.clone(),
        None => suite
            .circuits
            .first()
            .cloned()
            .ok_or_else(|| HarnessError::Invalid(format!("suite `{}` names no circuit", a.suite)))?,
    };
    let mut measurer = real::RunnerMeasurer::from_config(cfg, &a.suite, &circuit, a.runner.clone())?;
    let path = match &a.state {
        Some(p) => p.clone(),
        None => cfg.resolve(&cfg.runs_dir).join("..").join("bisect").join("state.json"),
    };
    let mut compare = crate::commands::compare::options(cfg, false);
    if let Some(t) = a.threshold {
        compare.thresholds.default = t;
        compare.thresholds.phases.insert(a.metric.clone(), t);
    }
    if let Some(s) = a.seed {
        compare.bootstrap_seed = s;
    }
    let settings = Settings { circuit, compare };
    let mut progress = |l: &str| eprintln!("{l}");
    let out = run_flags(&space, a, &settings, &mut measurer, &path, &mut progress)?;
    print!("{}", out.text);
    Ok(out.exit)
}

/// Resolved settings of a flag bisect (command line over config).
#[derive(Clone, Debug)]
pub struct Settings {
    pub circuit: String,
    /// Statistics of every comparison (alpha, per-phase thresholds, bootstrap seed).
    pub compare: crate::compare::CompareOptions,
}

pub struct FlagsRun {
    /// One answer per bisected metric (several with `--metric auto`).
    pub answers: Vec<(String, flags::FlagsAnswer)>,
    pub text: String,
    pub exit: ExitCode,
    pub cost: report::Cost,
    /// What a resume did with the samples of earlier sittings (None when not resumed).
    pub resumed: Option<drift::Resumed>,
}

/// The whole `bisect flags` with a given measurer, state file and progress sink.
pub fn run_flags(
    space: &space::Space,
    a: &FlagsArgs,
    set: &Settings,
    measurer: &mut dyn Measurer,
    state_path: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<FlagsRun, HarnessError> {
    if a.reps < 3 || a.max_reps < a.reps {
        return Err(HarnessError::Invalid(format!(
            "need 3 <= --reps <= --max-reps (got --reps {} --max-reps {})",
            a.reps, a.max_reps
        )));
    }
    if a.trust_stored && !a.resume {
        return Err(HarnessError::Invalid(
            "--trust-stored only applies with --resume".into(),
        ));
    }
    set.compare.validate()?;
    let threshold = set.compare.thresholds.relative(&a.metric);
    let params = state::Params {
        good: space.good.clone(),
        bad: space.bad.clone(),
        suite: a.suite.clone(),
        circuit: set.circuit.clone(),
        metric: a.metric.clone(),
        reps: a.reps,
        max_reps: a.max_reps,
        threshold,
        seed: set.compare.bootstrap_seed,
    };
    let st = if a.resume {
        let mut st = state::BisectState::load(state_path, &params)?;
        st.sitting += 1;
        progress(&format!(
            "[resume] {} with {} stored run(s) of {} variant(s); this is sitting {}",
            state_path.display(),
            st.runs,
            st.bank.len(),
            st.sitting
        ));
        st
    } else {
        if state_path.exists() {
            return Err(HarnessError::Invalid(format!(
                "state file {} exists (an earlier bisect): pass --resume to continue it, or remove it, or choose another --state",
                state_path.display()
            )));
        }
        state::BisectState::new(params)
    };
    let opts = judge::JudgeOptions {
        metric: a.metric.clone(),
        reps: a.reps,
        max_reps: a.max_reps,
        threshold,
        compare: set.compare.clone(),
    };
    let mut judge = judge::Judge::new(measurer, st, Some(state_path.to_path_buf()), opts, progress);
    judge.save()?;
    let resumed = if a.resume {
        Some(drift::on_resume(&mut judge, space, a.trust_stored)?)
    } else {
        None
    };
    let answers = if a.metric == flags::AUTO {
        flags::bisect_auto(&mut judge, space, a.factorial)?
    } else {
        vec![(a.metric.clone(), flags::bisect_flags(&mut judge, space, a.factorial)?)]
    };
    let cost = report::Cost {
        builds: judge.state.built.len(),
        runs: judge.state.runs,
        fresh_runs: judge.fresh_runs,
        repeat_runs: judge.state.repeat_runs,
    };
    let samples_line = resumed.as_ref().map(|r| {
        let (earlier, now) = judge.state.ok_by_sitting();
        drift::answer_line(r, earlier, earlier + now)
    });
    let text = report::render(space, &answers, &cost, samples_line.as_deref());
    judge.state.answer = Some(text.clone());
    judge.save()?;
    let regressed = answers.iter().any(|(_, x)| {
        matches!(&x.finding, flags::Finding::Located { target, .. } if *target == crate::model::Verdict::Regressed)
    });
    let undecided = answers
        .iter()
        .all(|(_, x)| matches!(x.finding, flags::Finding::Undecided(_)));
    let exit = if regressed {
        ExitCode::Regression
    } else if undecided {
        ExitCode::Error
    } else {
        ExitCode::Ok
    };
    Ok(FlagsRun {
        answers,
        text,
        exit,
        cost,
        resumed,
    })
}
