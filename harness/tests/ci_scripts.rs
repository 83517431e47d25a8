//! The nightly GPU workflow's job scripts, run as the workflow runs them, with
//! the mock runner: `scripts/ci/nightly-build.sh` builds the runners (a fake
//! `cargo` installs the mock) and packs the bundle; `scripts/ci/nightly-gpu.sh`
//! runs from the unpacked bundle alone (no cargo is called), keeps the
//! baselines in a state directory as the runner's cache does, writes the job
//! summary, and maps the nightly's exit codes: 0 (first and clean nights),
//! 1 (a slower runner) and 2 (a night that cannot run), each with its message.

mod common;
use common::{git, Ws, MOCK, PHASELINE};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's `scripts/ci`.
fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/ci")
}

/// A mock workspace in git, with the CI scripts and a `cargo` that installs
/// the mock runner and logs each call to `cargo.log`.
fn workspace() -> Ws {
    let ws = Ws::with_config(&common::config("cargo = \"./fake-cargo\"", 20.0));
    let body = format!(
        "#!/bin/sh\nset -e\necho \"$@\" >> {log:?}\n\
         while [ $# -gt 0 ]; do if [ \"$1\" = --target-dir ]; then T=\"$2\"; fi; shift; done\n\
         mkdir -p \"$T/release\"\ncp {MOCK:?} \"$T/release/phaseline-prover\"\n",
        log = ws.path("cargo.log").display().to_string(),
    );
    let cargo = ws.path("fake-cargo");
    std::fs::write(&cargo, body).unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(ws.path("scripts/ci")).unwrap();
    for s in ["nightly-build.sh", "nightly-gpu.sh"] {
        std::fs::copy(scripts_dir().join(s), ws.path(&format!("scripts/ci/{s}"))).unwrap();
    }
    std::fs::write(ws.path(".gitignore"), "target/\ncargo.log\nfake-cargo\n*.json\n").unwrap();
    git(ws.dir.path(), &["init", "-q"]);
    git(ws.dir.path(), &["add", "."]);
    git(ws.dir.path(), &["commit", "-q", "-m", "first"]);
    ws
}

struct Ran {
    code: i32,
    out: String,
}

fn sh(script: &Path, args: &[&Path], env: &[(&str, &str)]) -> Ran {
    let mut c = Command::new("bash");
    c.arg(script)
        .args(args)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().expect("bash runs");
    Ran {
        code: o.status.code().unwrap_or(-1),
        out: format!(
            "{}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    }
}

fn cargo_calls(ws: &Ws) -> usize {
    std::fs::read_to_string(ws.path("cargo.log"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

/// Unpacks `bundle` into a fresh directory, as the GPU job does.
fn unpack(bundle: &Path, into: &Path) {
    std::fs::create_dir_all(into).unwrap();
    let st = Command::new("tar")
        .arg("-xzf")
        .arg(bundle)
        .arg("-C")
        .arg(into)
        .status()
        .unwrap();
    assert!(st.success());
}

/// A mock spec whose runner reports the fingerprint of the checkout at `root`.
fn spec(dir: &Path, name: &str, root: &Path, rest: &str) -> PathBuf {
    let p = dir.join(name);
    let text = format!(
        r#"{{"fingerprint_root": {:?}, "seed": 1, "noise": 0.01{rest}}}"#,
        root.display().to_string()
    );
    std::fs::write(&p, text).unwrap();
    p
}

const CPU_NIGHT: &str = "--suite e2e --variant baseline --variant all --reps 8 --stored-reference";

#[test]
fn build_job_bundle_runs_on_a_host_without_cargo() {
    let ws = workspace();
    let work = tempfile::tempdir().unwrap();
    let w = |p: &str| work.path().join(p);
    let honest = spec(work.path(), "honest.json", ws.dir.path(), "");
    let bundle = w("bundle.tar.gz");
    let b = sh(
        &ws.path("scripts/ci/nightly-build.sh"),
        &[&bundle],
        &[
            ("PHASELINE_BIN", PHASELINE),
            ("NIGHTLY_VARIANTS", "baseline all"),
            ("PHASELINE_RUNNERS_DIR", "target/runners"),
            ("PHASELINE_MOCK_SPEC", honest.to_str().unwrap()),
        ],
    );
    assert_eq!(b.code, 0, "{}", b.out);
    assert_eq!(cargo_calls(&ws), 2, "one build per variant");
    let builds = cargo_calls(&ws);

    // Night 1 (first night: the baseline is saved into the state directory).
    let state = w("state");
    let summary = w("summary.md");
    let night = |n: &str, spec_rest: &str, args: &str| {
        let host = w(&format!("host-{n}"));
        unpack(&bundle, &host);
        assert!(host.join("target/release/phaseline").is_file());
        let s = spec(work.path(), &format!("{n}.json"), &host, spec_rest);
        sh(
            &host.join("scripts/ci/nightly-gpu.sh"),
            &[&w(&format!("out-{n}")), &state],
            &[
                ("NIGHTLY_ARGS", args),
                ("PHASELINE_MOCK_SPEC", s.to_str().unwrap()),
                ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
            ],
        )
    };
    let r = night("1", "", CPU_NIGHT);
    assert_eq!(r.code, 0, "{}", r.out);
    assert!(r.out.contains("no regression"), "{}", r.out);
    assert!(
        state.join("baselines").read_dir().unwrap().next().is_some(),
        "baseline kept in the state"
    );
    // Night 2, a fresh bundle directory and the kept state: same code, exit 0.
    let r = night("2", "", CPU_NIGHT);
    assert_eq!(r.code, 0, "{}", r.out);
    // The bundle has no .git, yet its runs name the build's commit (bisect and history need it).
    let head = git(ws.dir.path(), &["rev-parse", "HEAD"]);
    let nightly = std::fs::read_to_string(w("out-2/nightly.json")).unwrap();
    assert!(nightly.contains(&head), "commit {head} not in nightly.json: {nightly}");
    // Night 3: msm_l 40 -> 48 ms: exit 1, named as a regression.
    let r = night("3", r#", "phases": {"msm_l": 48.0}"#, CPU_NIGHT);
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(r.out.contains("::error title=nightly regression::exit 1"), "{}", r.out);
    // Night 4: a night that cannot run (no cuda suite under --require-gpu): exit 2.
    let r = night("4", "", "--suite e2e --variant baseline --require-gpu");
    assert_eq!(r.code, 2, "{}", r.out);
    assert!(r.out.contains("::error title=nightly error::exit 2"), "{}", r.out);
    assert_eq!(cargo_calls(&ws), builds, "the GPU job must not call cargo");
    let md = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(md.matches("## Nightly (exit").count(), 4, "{md}");
    assert!(md.contains("## Nightly (exit 1)") && md.contains("msm_l"), "{md}");
    assert!(w("out-3/nightly.json").is_file());
}

#[test]
fn build_job_failure_and_bad_bundle_are_errors() {
    let ws = workspace();
    let work = tempfile::tempdir().unwrap();
    let b = sh(
        &ws.path("scripts/ci/nightly-build.sh"),
        &[&work.path().join("b.tar.gz")],
        &[("PHASELINE_BIN", PHASELINE), ("NIGHTLY_VARIANTS", "no-such-variant")],
    );
    assert_eq!(b.code, 2, "{}", b.out);
    assert!(b.out.contains("nightly build"), "{}", b.out);
    assert!(!work.path().join("b.tar.gz").exists());
    // The GPU script outside a bundle (no harness binary): exit 2.
    let r = sh(&ws.path("scripts/ci/nightly-gpu.sh"), &[&work.path().join("o")], &[]);
    assert_eq!(r.code, 2, "{}", r.out);
    assert!(r.out.contains("no harness binary"), "{}", r.out);
}
