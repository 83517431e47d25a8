//! The whole `bisect flags`: checks the request, opens or resumes the state
//! file, bisects each metric and renders the answer.

use super::measurer::Measurer;
use super::{drift, flags, judge, report, space, state};
use crate::{ExitCode, HarnessError};
use std::path::Path;

/// What a flag bisect is asked for (beyond the flag space and the statistics).
#[derive(Clone, Debug, PartialEq)]
pub struct FlagsRequest {
    /// Suite from the config the measurer runs.
    pub suite: String,
    /// Phase judged (`total`, or `auto` for every phase that regressed).
    pub metric: String,
    /// Repetitions per variant to start with.
    pub reps: usize,
    /// Cap on repetitions per variant when a comparison is inconclusive.
    pub max_reps: usize,
    /// Also fit a factorial design.
    pub factorial: bool,
    /// Continue the state file instead of starting one.
    pub resume: bool,
    /// With `resume`: pool stored samples without the drift check.
    pub trust_stored: bool,
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
    a: &FlagsRequest,
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
            return Err(HarnessError::Exists(format!(
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
