//! Host provenance of a run: OS, kernel, memory, git commit and dirty state,
//! the command line and the settings that shaped the numbers.

use crate::model::Provenance;
use std::path::Path;
use std::process::Command;
use std::time::SystemTime;

/// Current time, RFC 3339 UTC with seconds.
pub fn now_utc() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

fn git(root: &Path, args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// Commit of the checkout at `root` and whether tracked files differ from it.
pub fn git_state(root: &Path) -> (String, bool) {
    let commit = git(root, &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = git(root, &["status", "--porcelain", "--untracked-files=no"])
        .map(|s| !s.is_empty())
        .unwrap_or(false);
    (commit, dirty)
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
