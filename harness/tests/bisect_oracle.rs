//! `phaseline bisect oracle` under `git bisect run`: a scratch repository whose
//! commits carry a tiny runner (the mock prover with a per-commit timing spec);
//! one commit plants a slower `msm_l`, one does not build.

mod common;
use common::git;
use std::path::{Path, PathBuf};
use std::process::Command;

const CONFIG: &str = r#"
alpha = 0.05
bootstrap_seed = 7
baselines_dir = "baselines"
runs_dir = "runs"

[thresholds]
default = 0.03

[[flags]]
id = "A1"
feature = "smallvec"
description = "x"
phase = "synthesis"

[suites.e2e]
mode = "prove"
backend = "cpu"
circuits = ["tiny"]
partitions = [1]
reps = 5
warmup = 0
timeout_s = 30
interleave = "alternate"
required_phases = ["synthesis", "msm_l"]

[default]
suites = ["e2e"]
variants = ["baseline"]
compare = ["baseline", "baseline"]
"#;

/// Writes the commit's files and commits them; returns its hash.
fn commit(dir: &Path, msl_ms: f64, builds: bool, msg: &str) -> String {
    std::fs::write(
        dir.join("spec.json"),
        format!(r#"{{"phases": {{"msm_l": {msl_ms}}}, "noise": 0.01, "seed": 3}}"#),
    )
    .unwrap();
    std::fs::write(
        dir.join("build.sh"),
        if builds {
            "exit 0\n"
        } else {
            "echo broken >&2; exit 1\n"
        },
    )
    .unwrap();
    std::fs::write(dir.join("log.txt"), msg).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", msg]);
    git(dir, &["rev-parse", "HEAD"])
}

fn scratch() -> (tempfile::TempDir, Vec<String>) {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    git(d, &["init", "-q"]);
    git(d, &["config", "user.email", "test@example.com"]);
    git(d, &["config", "user.name", "test"]);
    git(d, &["config", "commit.gpgsign", "false"]);
    std::fs::write(d.join("phaseline.toml"), CONFIG).unwrap();
    std::fs::write(
        d.join("Cargo.toml"),
        "[package]\nname = \"scratch\"\nversion = \"0.1.0\"\n\n[features]\nsmallvec = []\n",
    )
    .unwrap();
    let mock = env!("CARGO_BIN_EXE_phaseline-mock-prover");
    std::fs::write(
        d.join("runner.sh"),
        format!("#!/bin/sh\nPHASELINE_MOCK_SPEC=\"$(dirname \"$0\")/spec.json\"\nexport PHASELINE_MOCK_SPEC\nexec '{mock}' \"$@\"\n"),
    )
    .unwrap();
    let mut perm = std::fs::metadata(d.join("runner.sh")).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(d.join("runner.sh"), perm).unwrap();
    std::fs::write(d.join(".gitignore"), "runs/\nbaselines/\nparams/\ntarget/\n").unwrap();
    let c = vec![
        commit(d, 40.0, true, "c0 good"),
        commit(d, 40.0, true, "c1 docs"),
        commit(d, 40.0, true, "c2 refactor"),
        commit(d, 52.0, true, "c3 plants a slower msm_l"),
        commit(d, 52.0, true, "c4 docs"),
        commit(d, 52.0, false, "c5 breaks the build"),
        commit(d, 52.0, true, "c6 fixes the build"),
    ];
    (t, c)
}

fn oracle_args(reference: &str) -> Vec<String> {
    [
        "bisect",
        "oracle",
        "--reference",
        reference,
        "--runner",
        "runner.sh",
        "--build-cmd",
        "sh build.sh",
        "--metric",
        "msm_l",
        "--reps",
        "5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn phaseline() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_phaseline"))
}

fn oracle_at(dir: &Path, rev: &str, reference: &str) -> (i32, String) {
    git(dir, &["checkout", "-q", rev]);
    let o = Command::new(phaseline())
        .args(oracle_args(reference))
        .current_dir(dir)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().unwrap_or(-1), text)
}

#[test]
fn oracle_exit_codes_good_bad_skip_abort() {
    let (t, c) = scratch();
    let d = t.path();
    let (code, out) = oracle_at(d, &c[2], &c[0]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = oracle_at(d, &c[3], &c[0]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("`msm_l` +30"), "{out}");
    let (code, out) = oracle_at(d, &c[5], &c[0]);
    assert_eq!(code, 125, "{out}");
    assert!(out.contains("broken"), "{out}");
    let (code, out) = oracle_at(d, &c[6], "no-such-rev");
    assert_eq!(code, 128, "{out}");
    // A reference that does not build aborts (every verdict would be meaningless).
    let (code, out) = oracle_at(d, &c[6], &c[5]);
    assert_eq!(code, 128, "{out}");
}

#[test]
fn git_bisect_run_finds_the_planted_slow_commit() {
    let (t, c) = scratch();
    let d = t.path();
    git(d, &["bisect", "start", &c[6], &c[0]]);
    let mut cmd = vec![
        "bisect".to_string(),
        "run".to_string(),
        phaseline().display().to_string(),
    ];
    cmd.extend(oracle_args(&c[0]));
    let o = Command::new("git").arg("-C").arg(d).args(&cmd).output().unwrap();
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{out}");
    assert!(out.contains(&format!("{} is the first bad commit", c[3])), "{out}");
    git(d, &["bisect", "reset"]);
}

#[test]
fn oracle_against_a_stored_baseline() {
    let (t, c) = scratch();
    let d = t.path();
    git(d, &["checkout", "-q", &c[0]]);
    let run = |args: &[&str]| {
        let o = Command::new(phaseline()).args(args).current_dir(d).output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        (o.status.code().unwrap_or(-1), text)
    };
    let (code, out) = run(&[
        "run",
        "--suite",
        "e2e",
        "--variant",
        "base=",
        "--reps",
        "6",
        "--runner",
        "./runner.sh",
        "--out",
        "runs/good",
        "--progress",
        "quiet",
    ]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = run(&["baseline", "save", "good", "--from", "runs/good"]);
    assert_eq!(code, 0, "{out}");
    let oracle = |rev: &str, name: &str| {
        git(d, &["checkout", "-q", rev]);
        run(&[
            "bisect",
            "oracle",
            "--baseline",
            name,
            "--runner",
            "runner.sh",
            "--metric",
            "msm_l",
            "--reps",
            "5",
        ])
    };
    let (code, out) = oracle(&c[1], "good");
    assert_eq!(code, 0, "{out}");
    let (code, out) = oracle(&c[4], "good");
    assert_eq!(code, 1, "{out}");
    let (code, out) = oracle(&c[4], "no-such-baseline");
    assert_eq!(code, 128, "{out}");
}
