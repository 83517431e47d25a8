//! `phaseline bisect`: which optimization flag (or pair of flags) moved a
//! phase (`bisect flags`), and a noise-aware good/bad oracle for
//! `git bisect run` (`bisect oracle`).
//!
//! Every measurement goes through [`Measurer`], so the search logic is tested
//! with a seeded mock and runs unchanged on real builds.

pub mod ddmin;
pub mod factorial;
pub mod flags;
pub mod interim_compare;
pub mod judge;
pub mod mock;
pub mod report;
pub mod rng;
pub mod screen;
pub mod space;
pub mod state;

use crate::model::{Run, Variant};
use crate::{ExitCode, HarnessError};
use clap::{Args, Subcommand};
use std::path::PathBuf;

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
}

#[derive(Debug, Clone, Args)]
pub struct FlagsArgs {
    /// Features of the good (fast) end, comma-separated; "" = no optimization flag.
    #[arg(long, default_value = "")]
    pub good: String,
    /// Features of the bad (slow) end; default: every optimization flag of the config.
    #[arg(long)]
    pub bad: Option<String>,
    /// Suite to measure: synth (synthesis only) or e2e (whole proof).
    #[arg(long, default_value = "e2e")]
    pub suite: String,
    /// Circuit preset.
    #[arg(long, default_value = "small")]
    pub circuit: String,
    /// Phase to judge by (`total` = end-to-end time).
    #[arg(long, default_value = "total")]
    pub metric: String,
    /// Repetitions per variant to start with.
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
    /// Cap on repetitions per variant when a comparison is inconclusive.
    #[arg(long, default_value_t = 20)]
    pub max_reps: usize,
    /// Relative noise threshold: smaller changes do not count (0.03 = 3%).
    #[arg(long, default_value_t = 0.03)]
    pub threshold: f64,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also fit a factorial design (full 2^k for k <= 6, half fraction for k <= 8).
    #[arg(long)]
    pub factorial: bool,
    /// State file (resumable); default reports/bisect/state.json.
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Resume from the state file, reusing every sample it holds.
    #[arg(long)]
    pub resume: bool,
    /// Harness self-test: measure a mock scenario (JSON) instead of building the prover.
    #[arg(long)]
    pub mock: Option<PathBuf>,
}

/// Dispatch of `phaseline bisect ...`.
pub fn run_bisect(args: &BisectArgs) -> Result<ExitCode, HarnessError> {
    match &args.command {
        BisectCommand::Flags(a) => run_flags_cli(a),
    }
}

fn run_flags_cli(a: &FlagsArgs) -> Result<ExitCode, HarnessError> {
    let good = space::parse_features(&a.good)?;
    let bad = match &a.bad {
        Some(b) => space::parse_features(b)?,
        None => return Err(HarnessError::Invalid("--bad FEATURES is required".into())),
    };
    let space = space::Space::new(good, bad)?;
    let mut measurer: Box<dyn Measurer> = match &a.mock {
        Some(p) => Box::new(mock::MockMeasurer::from_file(p)?),
        None => {
            return Err(HarnessError::Invalid(
                "measuring real builds is not wired in this build; use --mock SCENARIO".into(),
            ))
        }
    };
    let path = a
        .state
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports/bisect/state.json"));
    let mut progress = |l: &str| eprintln!("{l}");
    let out = run_flags(&space, a, measurer.as_mut(), &path, &mut progress)?;
    print!("{}", out.text);
    Ok(out.exit)
}

pub struct FlagsRun {
    pub answer: flags::FlagsAnswer,
    pub text: String,
    pub exit: ExitCode,
    pub cost: report::Cost,
}

/// The whole `bisect flags` with a given measurer, state file and progress sink.
pub fn run_flags(
    space: &space::Space,
    a: &FlagsArgs,
    measurer: &mut dyn Measurer,
    state_path: &std::path::Path,
    progress: &mut dyn FnMut(&str),
) -> Result<FlagsRun, HarnessError> {
    if a.reps < 3 || a.max_reps < a.reps {
        return Err(HarnessError::Invalid(format!(
            "need 3 <= --reps <= --max-reps (got --reps {} --max-reps {})",
            a.reps, a.max_reps
        )));
    }
    if !(a.threshold.is_finite() && a.threshold >= 0.0 && a.threshold < 1.0) {
        return Err(HarnessError::Invalid(format!(
            "--threshold {} is not in [0, 1)",
            a.threshold
        )));
    }
    if a.suite != "synth" && a.suite != "e2e" {
        return Err(HarnessError::Invalid(format!(
            "--suite {} is not synth or e2e",
            a.suite
        )));
    }
    let params = state::Params {
        good: space.good.clone(),
        bad: space.bad.clone(),
        suite: a.suite.clone(),
        circuit: a.circuit.clone(),
        metric: a.metric.clone(),
        reps: a.reps,
        max_reps: a.max_reps,
        threshold: a.threshold,
        seed: a.seed,
    };
    let st = if a.resume {
        let st = state::BisectState::load(state_path, &params)?;
        progress(&format!(
            "[resume] {} with {} stored run(s) of {} variant(s)",
            state_path.display(),
            st.runs,
            st.bank.len()
        ));
        st
    } else {
        if state_path.exists() {
            return Err(HarnessError::Invalid(format!(
                "state file {} exists: pass --resume to continue it, or choose another --state",
                state_path.display()
            )));
        }
        state::BisectState::new(params)
    };
    let opts = judge::JudgeOptions {
        metric: a.metric.clone(),
        reps: a.reps,
        max_reps: a.max_reps,
        threshold: a.threshold,
        alpha: 0.05,
        seed: a.seed,
        resamples: 2000,
    };
    let mut judge = judge::Judge::new(measurer, st, Some(state_path.to_path_buf()), opts, progress);
    judge.save()?;
    let answer = flags::bisect_flags(&mut judge, space, a.factorial)?;
    let cost = report::Cost {
        builds: judge.state.built.len(),
        runs: judge.state.runs,
        fresh_runs: judge.fresh_runs,
    };
    let text = report::render(space, &a.metric, &answer, &cost);
    judge.state.answer = Some(text.clone());
    judge.save()?;
    let exit = match &answer.finding {
        flags::Finding::NoChange(_) => ExitCode::Ok,
        flags::Finding::Undecided(_) => ExitCode::Error,
        flags::Finding::Located { target, .. } if *target == crate::model::Verdict::Regressed => ExitCode::Regression,
        flags::Finding::Located { .. } => ExitCode::Ok,
    };
    Ok(FlagsRun {
        answer,
        text,
        exit,
        cost,
    })
}
