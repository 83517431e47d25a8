//! A measurement saved as a run directory: the session journals into the
//! directory while it measures, the finished run is saved there, and after an
//! interrupt or error what was measured is kept as an incomplete run.

use crate::error::HarnessError;
use crate::model::Run;
use crate::runner::{MeasureSpec, Session};
use std::path::{Path, PathBuf};

/// Measures `spec` and saves the run in `dir_of(run id)`; returns it and its directory.
pub fn measure_into(spec: &MeasureSpec, dir_of: &dyn Fn(&str) -> PathBuf) -> Result<(Run, PathBuf), HarnessError> {
    let mut session = Session::start(spec)?;
    let dir = dir_of(&session.run().id);
    session.journal_to(&dir)?;
    let measured = session.measure_all().and_then(|()| session.finish_journal());
    let run = match measured {
        Ok(()) => session.run(),
        Err(e) => return Err(keep_partial(&session, &dir, e)),
    };
    crate::rundir::save_run(&dir, &run).map_err(|e| kept_in_journal(&session, e))?;
    Ok((run, dir))
}

/// Refuses to replace the run in `dir` unless `force`.
pub fn refuse_existing(dir: &Path, force: bool) -> Result<(), HarnessError> {
    if crate::rundir::run_file(dir).is_file() && !force {
        return Err(HarnessError::Exists(format!(
            "{} already holds a run; pass --force to replace it or choose another --out",
            dir.display()
        )));
    }
    Ok(())
}

/// After a measurement error (an interrupt): saves what was measured as an
/// incomplete run, says where, and returns the error.
pub fn keep_partial(session: &Session, dir: &Path, e: HarnessError) -> HarnessError {
    let why = match &e {
        HarnessError::Interrupted(sig) => format!("interrupted by {}", crate::interrupt::name(*sig)),
        other => format!("stopped by an error: {other}"),
    };
    let run = session.incomplete_run(&why);
    match crate::rundir::save_run(dir, &run) {
        Ok(()) => eprintln!(
            "incomplete run ({} samples) saved in {}",
            run.samples.len(),
            dir.display()
        ),
        Err(w) => eprintln!("{}", kept_in_journal(session, w)),
    }
    e
}

/// An output write failed: the error names the file, and where the samples are kept.
pub fn kept_in_journal(session: &Session, e: HarnessError) -> HarnessError {
    match session.journal() {
        Some((path, n)) => HarnessError::Data(format!(
            "{e}; the {n} measured samples are kept in {} (`compare` and `report` read it)",
            path.display()
        )),
        None => e,
    }
}

/// Failed samples of a saved run are an error naming each of them.
pub fn check_samples(run: &Run, dir: &Path) -> Result<(), HarnessError> {
    let failed: Vec<_> = run.samples.iter().filter(|s| !s.ok).collect();
    if !failed.is_empty() {
        for s in &failed {
            eprintln!(
                "failed: {} {} rep {}: {}",
                s.case.label(),
                s.variant,
                s.rep,
                s.error.as_deref().unwrap_or("")
            );
        }
        return Err(HarnessError::Failed(format!(
            "{} of {} samples failed (details above and in {})",
            failed.len(),
            run.samples.len(),
            dir.display()
        )));
    }
    Ok(())
}
