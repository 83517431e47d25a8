//! The one way the harness runs git: a repository at a path, asked one command at a time.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A git repository (or any directory inside one).
#[derive(Clone, Debug)]
pub struct Git {
    root: PathBuf,
}

impl Git {
    pub fn at(root: impl Into<PathBuf>) -> Self {
        Git { root: root.into() }
    }

    /// Runs `git -C <root> ARGS` and returns its trimmed stdout, or why it failed.
    pub fn run(&self, args: &[&str]) -> Result<String, String> {
        let o = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run git: {e}"))?;
        if !o.status.success() {
            return Err(format!(
                "git {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&o.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&o.stdout).trim().to_string())
    }

    /// Extracts commit `hash` into `dir` (`git archive | tar -x`), without
    /// touching the work tree or the index.
    pub fn extract(&self, hash: &str, dir: &Path) -> Result<(), String> {
        let mut archive = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args(["archive", "--format=tar", hash])
            .stdout(Stdio::piped())
            .stdin(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run git archive: {e}"))?;
        let out = archive.stdout.take().ok_or("git archive gave no output")?;
        let tar = Command::new("tar")
            .arg("-x")
            .arg("-C")
            .arg(dir)
            .stdin(Stdio::from(out))
            .status()
            .map_err(|e| format!("cannot run tar: {e}"))?;
        let st = archive.wait().map_err(|e| format!("git archive: {e}"))?;
        if !(st.success() && tar.success()) {
            return Err(format!("extracting {hash} failed (git archive {st}, tar {tar})"));
        }
        Ok(())
    }
}
