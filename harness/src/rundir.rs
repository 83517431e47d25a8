//! A run directory: `run.json` (every raw sample), `samples.csv` and
//! `summary.csv`, each written atomically; loading validates with clear errors.

use crate::error::HarnessError;
use crate::fsutil::{json_problem, write_atomic, write_json};
use crate::model::{Run, RUN_SCHEMA_VERSION};
use std::path::{Path, PathBuf};

pub const RUN_FILE: &str = "run.json";

/// `dir/run.json`, or `dir` itself when it names a file.
pub fn run_file(dir: &Path) -> PathBuf {
    if dir.is_file() {
        dir.to_path_buf()
    } else {
        dir.join(RUN_FILE)
    }
}

/// Loads and validates a run directory: its `run.json`, else (an interrupted
/// run, or one whose `run.json` could not be written) its sample journal. An
/// incomplete run is loaded with a warning on stderr.
pub fn load_run(dir: &Path) -> Result<Run, HarnessError> {
    let run = load_complete_or_journal(dir)?;
    if let Some(why) = &run.incomplete {
        eprintln!(
            "warning: run {} is incomplete ({why}); it holds {} samples",
            dir.display(),
            run.samples.len()
        );
    }
    Ok(run)
}

fn load_complete_or_journal(dir: &Path) -> Result<Run, HarnessError> {
    let path = run_file(dir);
    if !path.is_file() && dir.join(crate::journal::JOURNAL_FILE).is_file() {
        let run = crate::journal::load(dir)?;
        validate(&run).map_err(|m| HarnessError::Data(format!("journal of run {}: {m}", dir.display())))?;
        return Ok(run);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| {
        HarnessError::io(
            format!("cannot read run {} (is it a run directory?)", path.display()),
            e,
        )
    })?;
    let run: Run = serde_json::from_str(&text).map_err(|e| json_problem(&format!("run {}", path.display()), &e))?;
    validate(&run).map_err(|m| HarnessError::Data(format!("run {}: {m}", path.display())))?;
    Ok(run)
}

/// Checks a run's internal consistency (also used for baselines).
pub fn validate(run: &Run) -> Result<(), String> {
    if run.schema_version != RUN_SCHEMA_VERSION {
        return Err(format!(
            "schema_version {} (this harness reads {RUN_SCHEMA_VERSION})",
            run.schema_version
        ));
    }
    let derived = crate::testbed::derived_key(&run.testbed);
    if run.testbed.key != derived {
        return Err(format!(
            "testbed key `{}` does not match its own fields (expected `{derived}`)",
            run.testbed.key
        ));
    }
    let names = run.variant_names();
    for (i, s) in run.samples.iter().enumerate() {
        if !names.contains(&s.variant) {
            return Err(format!("sample {i} names unknown variant `{}`", s.variant));
        }
        if !run.cases.contains(&s.case) {
            return Err(format!("sample {i} names unknown case `{}`", s.case.label()));
        }
        if s.phases.values().any(|v| !v.is_finite()) {
            return Err(format!("sample {i} has a non-finite phase time"));
        }
        if let Some((name, ms)) = s.phases.iter().find(|(_, v)| **v > crate::record::MAX_PLAUSIBLE_MS) {
            return Err(format!(
                "sample {i} has phase `{name}` of {ms:e} ms, more than a week: an absurd duration, refused"
            ));
        }
    }
    Ok(())
}

fn csv_bytes(f: impl FnOnce(&mut csv::Writer<Vec<u8>>) -> Result<(), csv::Error>) -> Result<Vec<u8>, HarnessError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    f(&mut w).map_err(|e| HarnessError::Data(format!("csv: {e}")))?;
    w.into_inner().map_err(|e| HarnessError::Data(format!("csv: {e}")))
}

/// Long format: one row per sample and phase (failed samples: one row with the error).
pub fn samples_csv(run: &Run) -> Result<Vec<u8>, HarnessError> {
    csv_bytes(|w| {
        w.write_record([
            "variant",
            "suite",
            "circuit",
            "partitions",
            "backend",
            "rep",
            "order",
            "warmup",
            "ok",
            "wall_ms",
            "phase",
            "ms",
            "error",
        ])?;
        for s in &run.samples {
            let head = [
                s.variant.clone(),
                s.case.suite.clone(),
                s.case.circuit.clone(),
                s.case.partitions.to_string(),
                s.case.backend.to_string(),
                s.rep.to_string(),
                s.order.to_string(),
                s.warmup.to_string(),
                s.ok.to_string(),
                format!("{:.3}", s.wall_ms),
            ];
            if s.phases.is_empty() {
                let mut r = head.to_vec();
                r.extend([String::new(), String::new(), s.error.clone().unwrap_or_default()]);
                w.write_record(&r)?;
            }
            for (p, ms) in &s.phases {
                let mut r = head.to_vec();
                r.extend([p.clone(), format!("{ms:.4}"), String::new()]);
                w.write_record(&r)?;
            }
        }
        Ok(())
    })
}

/// Per-phase medians per variant and case (the CSV run-summary export).
pub fn summary_csv(run: &Run) -> Result<Vec<u8>, HarnessError> {
    use crate::output::Exporter;
    Ok(crate::output::Csv
        .run_summary(&crate::summary::summarize(run))?
        .into_bytes())
}

/// Writes `run.json`, `samples.csv` and `summary.csv` into `dir`, each atomically.
pub fn save_run(dir: &Path, run: &Run) -> Result<(), HarnessError> {
    let samples = samples_csv(run)?;
    let summary = summary_csv(run)?;
    write_atomic(&dir.join("samples.csv"), &samples)?;
    write_atomic(&dir.join("summary.csv"), &summary)?;
    // run.json last: its presence marks a complete run directory.
    write_json(&dir.join(RUN_FILE), run)
}

/// The most recent run directory under `runs_dir` (by the time run.json was written).
pub fn latest(runs_dir: &Path) -> Result<PathBuf, HarnessError> {
    let rd = std::fs::read_dir(runs_dir)
        .map_err(|e| HarnessError::io(format!("no runs in {} (pass --from RUN)", runs_dir.display()), e))?;
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for e in rd.flatten() {
        let f = e.path().join(RUN_FILE);
        if let Ok(t) = f.metadata().and_then(|m| m.modified()) {
            if best.as_ref().is_none_or(|(bt, _)| t > *bt) {
                best = Some((t, e.path()));
            }
        }
    }
    best.map(|b| b.1)
        .ok_or_else(|| HarnessError::Data(format!("no runs in {} (pass --from RUN)", runs_dir.display())))
}
