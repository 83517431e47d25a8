//! Shared code of the harness's end-to-end tests: a throw-away workspace with a
//! config, a prover manifest declaring the features, and the mock runner.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub const PHASELINE: &str = env!("CARGO_BIN_EXE_phaseline");
pub const MOCK: &str = env!("CARGO_BIN_EXE_phaseline-mock-prover");

pub struct Ws {
    pub dir: tempfile::TempDir,
}

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    pub fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

pub fn config(extra_build: &str, timeout_s: f64) -> String {
    format!(
        r#"
alpha = 0.05
bootstrap_seed = 7
resamples = 500
baselines_dir = "baselines"
runs_dir = "runs"
params_dir = "params"

[build]
target_dir = "target"
cache_dir = "target/runners"
{extra_build}

[thresholds]
default = 0.03

[[flags]]
id = "A1"
feature = "smallvec"
description = "SmallVec"
phase = "synthesis"

[[flags]]
id = "A2"
feature = "presize"
description = "presize"
phase = "synthesis"

[suites.synth]
mode = "synth"
circuits = ["tiny"]
reps = 5
warmup = 1
timeout_s = {timeout_s}
required_phases = ["synthesis"]

[suites.e2e]
mode = "prove"
circuits = ["tiny"]
reps = 5
warmup = 0
timeout_s = {timeout_s}
required_phases = ["synthesis", "ntt_h", "msm_h", "msm_l", "msm_a", "msm_b_g1", "msm_b_g2", "assemble", "verify"]

[default]
suites = ["synth", "e2e"]
variants = ["baseline", "all"]
compare = ["baseline", "all"]
"#
    )
}

impl Ws {
    /// A workspace whose runner is the mock (`runner_override`).
    pub fn mock() -> Ws {
        Self::with_config(&format!("runner_override = {:?}\n{}", MOCK, config("", 20.0)))
    }

    pub fn with_config(cfg: &str) -> Ws {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("phaseline.toml"), cfg).expect("config");
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[package]\nname = \"phaseline-prover\"\nversion = \"0.1.0\"\n\n[features]\ndefault = []\nsmallvec = []\npresize = []\nselftest-slow = []\n",
        )
        .expect("manifest");
        std::fs::create_dir_all(dir.path().join("prover")).expect("prover dir");
        std::fs::write(dir.path().join("prover/lib.rs"), "pub fn f() {}\n").expect("source");
        Ws { dir }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes a mock spec and returns its path.
    pub fn spec(&self, name: &str, json: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, json).expect("spec");
        p
    }

    /// Runs `phaseline ARGS` in the workspace with the mock spec `spec`.
    pub fn run(&self, args: &[&str], spec: Option<&Path>) -> Out {
        let mut c = Command::new(PHASELINE);
        c.args(args).current_dir(self.dir.path()).env_remove("CARGO_TARGET_DIR");
        match spec {
            Some(s) => c.env("PHASELINE_MOCK_SPEC", s),
            None => c.env_remove("PHASELINE_MOCK_SPEC"),
        };
        let o = c.output().expect("run phaseline");
        Out {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }

    /// The `run.json` of the run directory `dir`, parsed.
    pub fn run_json(&self, dir: &str) -> serde_json::Value {
        let text = std::fs::read_to_string(self.path(dir).join("run.json")).expect("run.json");
        serde_json::from_str(&text).expect("run.json is JSON")
    }

    /// Every file under the workspace whose name marks an unfinished write.
    pub fn temp_leftovers(&self) -> Vec<PathBuf> {
        fn walk(d: &Path, out: &mut Vec<PathBuf>) {
            for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if e.file_name().to_string_lossy().starts_with(".phaseline-") {
                    out.push(p);
                }
            }
        }
        let mut v = Vec::new();
        walk(self.dir.path(), &mut v);
        v
    }
}

/// `run --suite SUITE --variant V... --reps REPS EXTRA... --out OUT`.
pub fn run_args<'a>(
    suite: &'a str,
    variants: &[&'a str],
    reps: &'a str,
    out: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec!["run", "--suite", suite];
    for v in variants {
        args.extend(["--variant", v]);
    }
    args.extend(["--reps", reps]);
    args.extend_from_slice(extra);
    args.extend(["--out", out]);
    args
}

/// Asserts exit 2, a message containing every `needle`, and no panic.
pub fn assert_error(o: &Out, needles: &[&str]) {
    assert_eq!(o.code, 2, "expected exit 2, got {}:\n{}", o.code, o.all());
    assert!(!o.stderr.contains("panicked"), "panic:\n{}", o.stderr);
    for n in needles {
        assert!(o.all().contains(n), "message lacks `{n}`:\n{}", o.all());
    }
}

/// `git -C dir ARGS` with a fixed identity; panics with git's stderr on failure.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-C"])
        .arg(dir)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Whether process `pid` still exists.
pub fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only probes for existence.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// The pids a mock runner appended to `file` (its spec's `pid_file`).
pub fn pids(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// The workspace root (the repository).
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root")
}

/// `phaseline --config <repository>/phaseline.toml ARGS` (the shipped config,
/// real runners built in this workspace): exit code and output.
pub fn run_shipped(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Out {
    let o = Command::new(PHASELINE)
        .arg("--config")
        .arg(repo_root().join("phaseline.toml"))
        .args(args.iter().map(|a| a.as_ref()))
        .env_remove("PHASELINE_MOCK_SPEC")
        .output()
        .expect("run phaseline");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// A copy of the mock at `dst` with the spec it reads beside itself
/// (`NAME.mock-spec.json`): a prebuilt runner of a fake bundle.
pub fn mock_runner_at(dst: &Path, spec: &str) {
    std::fs::copy(MOCK, dst).expect("copy mock");
    let name = dst.file_name().expect("name").to_string_lossy();
    std::fs::write(dst.with_file_name(format!("{name}.mock-spec.json")), spec).expect("spec");
}

/// `bash SCRIPT ARGS` with `env` (no mock spec from the caller's environment): exit code and output.
pub fn bash(script: &Path, args: &[&Path], env: &[(&str, &str)]) -> (i32, String) {
    let mut c = Command::new("bash");
    c.arg(script).args(args).env_remove("PHASELINE_MOCK_SPEC");
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().expect("bash runs");
    let all = format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().unwrap_or(-1), all)
}

/// The run directory `dir`, loaded.
pub fn run_of(dir: &Path) -> phaseline::model::Run {
    phaseline::rundir::load_run(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}
