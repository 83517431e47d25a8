//! Host provenance of a run: OS, kernel, memory, git commit and dirty state,
//! the command line and the settings that shaped the numbers.

use crate::git::Git;
use crate::model::Provenance;
use std::path::Path;
use std::time::SystemTime;

/// Current time, RFC 3339 UTC with seconds.
pub fn now_utc() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// Written by the build job into a bundle of tracked files (no `.git`), for a GPU host without
/// cargo: the commit, then `dirty` when the build's checkout had changes.
pub const COMMIT_FILE: &str = ".phaseline-commit";

/// Commit of the checkout at `root` and whether tracked files differ from it; in an unpacked
/// bundle, what its [`COMMIT_FILE`] says; else `unknown`.
pub fn git_state(root: &Path) -> (String, bool) {
    let git = Git::at(root);
    if let Ok(commit) = git.run(&["rev-parse", "HEAD"]) {
        let dirty = git
            .run(&["status", "--porcelain", "--untracked-files=no"])
            .map(|s| !s.is_empty())
            .unwrap_or(false);
        return (commit, dirty);
    }
    let text = std::fs::read_to_string(root.join(COMMIT_FILE)).unwrap_or_default();
    let mut words = text.split_whitespace();
    match words.next() {
        Some(c) if c.len() >= 7 && c.chars().all(|x| x.is_ascii_hexdigit()) => {
            (c.to_string(), words.next() == Some("dirty"))
        }
        _ => ("unknown".into(), false),
    }
}

/// Provenance of a run starting now in the checkout at `root`.
pub fn collect(root: &Path) -> Provenance {
    let (git_commit, git_dirty) = git_state(root);
    let mut sys = sysinfo::System::new();
    sys.refresh_memory();
    Provenance {
        os: sysinfo::System::long_os_version().unwrap_or_else(|| std::env::consts::OS.into()),
        kernel: sysinfo::System::kernel_version().unwrap_or_else(|| "unknown".into()),
        total_memory_bytes: sys.total_memory(),
        git_commit,
        git_dirty,
        harness_version: env!("CARGO_PKG_VERSION").into(),
        command: std::env::args().collect(),
        started_utc: now_utc(),
        finished_utc: String::new(),
        settings: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_without_git_reads_its_commit_file() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(git_state(d.path()), ("unknown".into(), false));
        std::fs::write(d.path().join(COMMIT_FILE), "0123abcd4567 dirty\n").unwrap();
        assert_eq!(git_state(d.path()), ("0123abcd4567".into(), true));
        std::fs::write(d.path().join(COMMIT_FILE), "not a commit\n").unwrap();
        assert_eq!(git_state(d.path()), ("unknown".into(), false));
    }
}
