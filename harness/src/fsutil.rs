//! Atomic file writes: a temporary file in the same directory, synced, then renamed.
//! Files get mode 0644 (less the umask), as any other tool's output would, not the
//! temporary file's private 0600.

use crate::error::HarnessError;
use std::io::Write;
use std::path::Path;

/// Mode of every output file before the umask: owner writes, everyone reads.
pub const OUTPUT_MODE: u32 = 0o644;

/// Writes `bytes` to `path` so readers see the old file or the whole new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), HarnessError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| HarnessError::io(format!("cannot create {}", dir.display()), e))?;
    let ctx = || format!("cannot write {}", path.display());
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(OUTPUT_MODE));
    }
    let mut tmp = builder
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
        .map_err(|e| HarnessError::Data(format!("cannot serialize {}: {e}", path.display())))?;
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
    HarnessError::Data(format!("{what} {kind} ({e})"))
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    #[test]
    fn written_files_are_readable_by_others() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        super::write_atomic(&p, b"{}").unwrap();
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        // The umask may take bits away from 0644, never leave the file owner-only.
        assert_eq!(mode & 0o600, 0o600, "{mode:o}");
        // SAFETY: umask only reads and sets this process's file-creation mask.
        let umask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        assert_eq!(mode, super::OUTPUT_MODE & !(umask as u32), "{mode:o}");
    }
}
