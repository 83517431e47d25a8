//! The nightly's use of the history: append tonight's run, and on a regression
//! ask the history when each regressed phase got slower (its last upward step).

use crate::config::Config;
use crate::error::HarnessError;
use crate::history::{self, History, Imported, Onset, SeriesKey};
use crate::model::{Comparison, Run, Verdict};
use crate::stats::shifts::ShiftParams;
use std::path::{Path, PathBuf};

/// The next-steps line when the history dates none of tonight's regressions.
pub const NO_ONSET: &str = "history: no step found yet for the regressed phases (a step is dated once the history holds 3 nights on each side of it)";

/// Appends `run` to the history at `db`; a line saying what happened.
pub fn append(db: &Path, run: &Run, run_dir: &Path) -> Result<String, HarnessError> {
    let mut h = History::open(db)?;
    Ok(match h.import(run, run_dir)? {
        Imported::Added { rows } => format!(
            "history: run {} appended to {} ({rows} phase times)",
            run.id,
            db.display()
        ),
        Imported::AlreadyPresent => format!("history: run {} was already in {}", run.id, db.display()),
    })
}

/// Where the night's history is: `--history`, else `[history] path`.
pub fn path(cfg: &Config, given: Option<&Path>) -> Option<PathBuf> {
    super::history::db_path(cfg, given)
}

/// The onsets the history shows for the regressed rows of `cmp` (run on testbed `testbed`).
pub fn onsets(db: &Path, testbed: &str, cmp: &Comparison, seed: u64) -> Result<Vec<Onset>, HarnessError> {
    let h = History::open(db)?;
    let all = history::series(&h.points()?);
    let params = ShiftParams::default();
    Ok(cmp
        .rows
        .iter()
        .filter(|r| r.verdict == Verdict::Regressed)
        .filter_map(|r| {
            let key = SeriesKey {
                testbed: testbed.to_string(),
                variant: r.variant.clone(),
                case: r.case.clone(),
                phase: r.phase.clone(),
            };
            history::onset(&all, &key, &params, seed)
        })
        .collect())
}
