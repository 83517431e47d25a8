//! Atomic file writes: a temporary file in the same directory, synced, then renamed.

use crate::error::HarnessError;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` so readers see the old file or the whole new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), HarnessError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| HarnessError::io(format!("cannot create {}", dir.display()), e))?;
    let ctx = || format!("cannot write {}", path.display());
    let mut tmp = tempfile::Builder::new()
        .prefix(".phaseline-")
        .tempfile_in(dir)
        .map_err(|e| HarnessError::io(ctx(), e))?;
    tmp.write_all(bytes).map_err(|e| HarnessError::io(ctx(), e))?;
    tmp.as_file().sync_all().map_err(|e| HarnessError::io(ctx(), e))?;
    tmp.persist(path).map_err(|e| HarnessError::io(ctx(), e.error))?;
    Ok(())
}

/// Serializes `v` as pretty JSON and writes it atomically.
pub fn write_json<T: serde::Serialize>(path: &Path, v: &T) -> Result<(), HarnessError> {
    let mut text = serde_json::to_vec_pretty(v)
        .map_err(|e| HarnessError::Invalid(format!("cannot serialize {}: {e}", path.display())))?;
    text.push(b'\n');
    write_atomic(path, &text)
}

/// Describes a JSON parse failure: truncated, not JSON, or the wrong schema.
pub fn json_problem(what: &str, e: &serde_json::Error) -> HarnessError {
    let kind = if e.is_eof() {
        "is truncated"
    } else if e.is_syntax() {
        "is not valid JSON"
    } else {
        "does not have the expected schema"
    };
    HarnessError::Invalid(format!("{what} {kind} ({e})"))
}
