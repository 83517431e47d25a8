//! Reading runs and baselines for charts and reports, with clear errors.

use crate::model::{Baseline, Run, RUN_SCHEMA_VERSION};
use crate::HarnessError;
use std::path::{Path, PathBuf};

/// Reads `DIR/run.json` (or the file itself when `path` is a file).
pub fn load_run(path: &Path) -> Result<Run, HarnessError> {
    let file = if path.is_dir() {
        path.join("run.json")
    } else {
        path.to_path_buf()
    };
    let text =
        std::fs::read_to_string(&file).map_err(|e| HarnessError::io(format!("reading run {}", file.display()), e))?;
    let run: Run = serde_json::from_str(&text)
        .map_err(|e| HarnessError::Invalid(format!("{} is not a valid run.json: {e}", file.display())))?;
    if run.schema_version != RUN_SCHEMA_VERSION {
        return Err(HarnessError::Invalid(format!(
            "{} has run schema version {}, this phaseline reads version {RUN_SCHEMA_VERSION}",
            file.display(),
            run.schema_version
        )));
    }
    Ok(run)
}

/// Where baseline `name` of `testbed` lives under `dir`, or `name` itself when it is a file.
pub fn baseline_path(dir: &Path, testbed: &str, name: &str) -> PathBuf {
    let p = Path::new(name);
    if p.is_file() {
        return p.to_path_buf();
    }
    dir.join(testbed).join(format!("{name}.json"))
}

/// Reads a stored baseline.
pub fn load_baseline(path: &Path) -> Result<Baseline, HarnessError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| HarnessError::io(format!("reading baseline {}", path.display()), e))?;
    let b: Baseline = serde_json::from_str(&text)
        .map_err(|e| HarnessError::Invalid(format!("{} is not a valid baseline: {e}", path.display())))?;
    if b.schema_version != RUN_SCHEMA_VERSION {
        return Err(HarnessError::Invalid(format!(
            "baseline {} has schema version {}, this phaseline reads version {RUN_SCHEMA_VERSION}",
            path.display(),
            b.schema_version
        )));
    }
    Ok(b)
}

/// Refuses a run that has nothing to chart, naming it.
pub fn check_not_empty(run: &Run, what: &str) -> Result<(), HarnessError> {
    if run.samples.is_empty() {
        return Err(HarnessError::Invalid(format!(
            "{what} {} has no samples: nothing to chart (did the run finish?)",
            run.id
        )));
    }
    Ok(())
}
