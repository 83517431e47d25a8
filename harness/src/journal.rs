//! The sample journal of a run directory, `journal.jsonl`: one JSON line with
//! the run's header (no samples), then one line per sample as soon as it is
//! measured (appended and flushed), then an end mark. An interrupted or killed
//! run, or one whose `run.json` could not be written (a full disk), keeps every
//! sample measured; [`load`] rebuilds the run from it, marked incomplete when
//! the end mark is missing.

use crate::error::HarnessError;
use crate::model::{Run, Sample};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

pub const JOURNAL_FILE: &str = "journal.jsonl";

/// One line of the journal.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Header(Box<Run>),
    Sample(Box<Sample>),
    End { samples: usize },
}

/// An open journal, appended to as samples are measured.
pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
    samples: usize,
}

impl Journal {
    /// Starts `dir/journal.jsonl` (replacing an older one) with `header`'s run, samples left out.
    pub fn create(dir: &Path, header: &Run) -> Result<Journal, HarnessError> {
        std::fs::create_dir_all(dir).map_err(|e| HarnessError::io(format!("cannot create {}", dir.display()), e))?;
        let path = dir.join(JOURNAL_FILE);
        let file = std::fs::File::create(&path)
            .map_err(|e| HarnessError::io(format!("cannot write {}", path.display()), e))?;
        let mut j = Journal { path, file, samples: 0 };
        let mut h = header.clone();
        h.samples.clear();
        j.line(&Line::Header(Box::new(h)))?;
        Ok(j)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Samples appended so far.
    pub fn samples(&self) -> usize {
        self.samples
    }

    fn line(&mut self, l: &Line) -> Result<(), HarnessError> {
        let mut text =
            serde_json::to_vec(l).map_err(|e| HarnessError::Data(format!("cannot serialize a journal line: {e}")))?;
        text.push(b'\n');
        let ctx = || format!("cannot append to the journal {}", self.path.display());
        self.file.write_all(&text).map_err(|e| HarnessError::io(ctx(), e))?;
        self.file.flush().map_err(|e| HarnessError::io(ctx(), e))
    }

    /// Appends one measured sample.
    pub fn append(&mut self, s: &Sample) -> Result<(), HarnessError> {
        self.line(&Line::Sample(Box::new(s.clone())))?;
        self.samples += 1;
        Ok(())
    }

    /// Marks the measurement complete.
    pub fn finish(&mut self) -> Result<(), HarnessError> {
        self.line(&Line::End { samples: self.samples })?;
        self.file
            .sync_all()
            .map_err(|e| HarnessError::io(format!("cannot write {}", self.path.display()), e))
    }
}

/// Rebuilds the run in `dir`'s journal. A last line cut short by a kill is
/// ignored; without the end mark the run is marked incomplete.
pub fn load(dir: &Path) -> Result<Run, HarnessError> {
    let path = dir.join(JOURNAL_FILE);
    let text =
        std::fs::read_to_string(&path).map_err(|e| HarnessError::io(format!("cannot read {}", path.display()), e))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut run: Option<Run> = None;
    let mut ended = false;
    for (i, l) in lines.iter().enumerate() {
        let parsed: Line = match serde_json::from_str(l) {
            Ok(x) => x,
            // Only the last line may be cut short (the process was killed mid-write).
            Err(e) if e.is_eof() && i + 1 == lines.len() && !text.ends_with('\n') => break,
            Err(e) => {
                return Err(HarnessError::Data(format!(
                    "journal {} line {}: {e}",
                    path.display(),
                    i + 1
                )))
            }
        };
        match (parsed, run.as_mut()) {
            (Line::Header(h), None) if i == 0 => run = Some(*h),
            (Line::Sample(s), Some(r)) => r.samples.push(*s),
            (Line::End { .. }, Some(_)) => ended = true,
            _ => {
                return Err(HarnessError::Data(format!(
                    "journal {} line {} is out of order (a header first, then samples, then the end mark)",
                    path.display(),
                    i + 1
                )))
            }
        }
    }
    let mut run = run.ok_or_else(|| HarnessError::Data(format!("journal {} has no header", path.display())))?;
    if !ended && run.incomplete.is_none() {
        run.incomplete = Some(format!(
            "the measurement stopped before its end (the journal holds {} samples and no end mark)",
            run.samples.len()
        ));
    }
    Ok(run)
}
