//! SIGINT / SIGTERM: the children (runners, and cargo with its compilers) are
//! ended by their process group, the samples measured so far are kept in a run
//! directory marked incomplete that `report` and `diff` read, no temporary
//! folder is left, and a second signal ends the harness at once.

mod common;
use common::{alive, pids, Ws, MOCK, PHASELINE};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `phaseline ARGS` in the workspace with its own temporary folder.
fn start(ws: &Ws, args: &[&str], spec: Option<&Path>) -> Child {
    let tmp = ws.path("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut c = Command::new(PHASELINE);
    c.args(args)
        .current_dir(ws.dir.path())
        .env_remove("CARGO_TARGET_DIR")
        .env("TMPDIR", &tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(s) = spec {
        c.env("PHASELINE_MOCK_SPEC", s);
    }
    c.spawn().expect("start phaseline")
}

fn wait_for(what: &str, secs: u64, mut ok: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(secs);
    while !ok() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: signals the phaseline process this test started, by pid.
    unsafe { libc::kill(child.id() as i32, sig) };
}

fn finish(child: Child) -> (i32, String) {
    let o = child.wait_with_output().expect("phaseline ends");
    (
        o.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

#[test]
fn sigint_mid_run_keeps_the_samples_and_leaves_nothing_running() {
    let ws = Ws::mock();
    let pid_file = ws.path("runner.pids");
    let spec = ws.spec(
        "slow.json",
        &format!(
            r#"{{"sleep": true, "phases": {{"synthesis": 150}}, "pid_file": {:?}}}"#,
            pid_file.display().to_string()
        ),
    );
    let args = common::run_args("synth", &["baseline="], "40", "r", &["--warmup", "0"]);
    let child = start(&ws, &args, Some(&spec));
    // Let a few samples be measured, then interrupt mid-sample.
    wait_for("three runners", 30, || pids(&pid_file).len() >= 4);
    signal(&child, libc::SIGINT);
    let (code, out) = finish(child);
    assert_eq!(code, 130, "an interrupted run exits 128 + SIGINT:\n{out}");
    assert!(out.contains("interrupted by SIGINT"), "{out}");
    assert!(!out.contains("panicked"), "{out}");
    for pid in pids(&pid_file) {
        assert!(!alive(pid), "runner {pid} outlived the interrupt");
    }
    // run.json is marked incomplete and holds every sample measured.
    let run = ws.run_json("r");
    let why = run["incomplete"].as_str().expect("marked incomplete");
    assert!(why.contains("interrupted by SIGINT"), "{why}");
    let n = run["samples"].as_array().unwrap().len();
    assert!(n >= 3, "only {n} samples kept");
    assert!(run["samples"].as_array().unwrap().iter().all(|s| s["ok"] == true));
    // The journal holds the same samples.
    let journal = std::fs::read_to_string(ws.path("r/journal.jsonl")).unwrap();
    assert_eq!(journal.lines().filter(|l| l.starts_with("{\"sample\"")).count(), n);
    assert!(
        std::fs::read_dir(ws.path("tmp")).unwrap().next().is_none(),
        "a temporary folder was left"
    );
    // `report` and `diff` read it and say it is incomplete.
    let o = ws.run(&["report", "r", "--out", "rep"], None);
    assert_eq!(o.code, 0, "{}", o.all());
    assert!(o.stderr.contains("is incomplete"), "{}", o.stderr);
    let o = ws.run(&["diff", "r", "r"], None);
    assert!(o.stderr.contains("is incomplete"), "{}", o.stderr);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
}

#[test]
fn a_run_killed_outright_is_read_back_from_its_journal() {
    let ws = Ws::mock();
    let pid_file = ws.path("runner.pids");
    let spec = ws.spec(
        "slow.json",
        &format!(
            r#"{{"sleep": true, "phases": {{"synthesis": 150}}, "pid_file": {:?}}}"#,
            pid_file.display().to_string()
        ),
    );
    let args = common::run_args("synth", &["baseline="], "40", "r", &["--warmup", "0"]);
    let child = start(&ws, &args, Some(&spec));
    wait_for("three runners", 30, || pids(&pid_file).len() >= 4);
    signal(&child, libc::SIGKILL);
    let _ = finish(child);
    assert!(!ws.path("r/run.json").exists());
    let o = ws.run(&["report", "r", "--out", "rep"], None);
    assert_eq!(o.code, 0, "{}", o.all());
    assert!(o.stderr.contains("is incomplete"), "{}", o.stderr);
    assert!(o.stderr.contains("no end mark"), "{}", o.stderr);
    // A runner of a killed harness is not ours to end; wait for the last one.
    for pid in pids(&pid_file) {
        wait_for("the last runner", 10, || !alive(pid));
    }
}

/// A workspace whose `cargo` records its pid and its child's, then waits;
/// with `stubborn` it ignores SIGTERM.
fn ws_with_slow_cargo(stubborn: bool) -> Ws {
    let ws = Ws::with_config(&common::config("cargo = \"./slow-cargo\"", 20.0));
    let body = format!(
        "#!/bin/sh\n{}echo $$ >> build.pids\nsleep 300 &\necho $! >> build.pids\nwait\n",
        if stubborn { "trap '' TERM\n" } else { "" }
    );
    let script = ws.path("slow-cargo");
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The workspace's own runner binary, which a variant build must not replace.
    std::fs::create_dir_all(ws.path("target/release")).unwrap();
    std::fs::write(ws.path("target/release/phaseline-prover"), "workspace binary").unwrap();
    ws
}

#[test]
fn sigterm_during_a_build_ends_cargo_and_its_children() {
    let ws = ws_with_slow_cargo(false);
    let child = start(&ws, &["build", "--variant", "A1"], None);
    wait_for("cargo and its child", 30, || pids(&ws.path("build.pids")).len() >= 2);
    signal(&child, libc::SIGTERM);
    let (code, out) = finish(child);
    assert_eq!(code, 143, "{out}");
    for pid in pids(&ws.path("build.pids")) {
        wait_for("the build's processes to end", 5, || !alive(pid));
    }
    let kept = std::fs::read_to_string(ws.path("target/release/phaseline-prover")).unwrap();
    assert_eq!(kept, "workspace binary");
    assert!(std::fs::read_dir(ws.path("tmp")).unwrap().next().is_none());
    let _ = MOCK;
}

#[test]
fn a_second_signal_ends_at_once() {
    let ws = ws_with_slow_cargo(true);
    let child = start(&ws, &["build", "--variant", "A1"], None);
    wait_for("cargo and its child", 30, || pids(&ws.path("build.pids")).len() >= 2);
    signal(&child, libc::SIGTERM);
    // The stubborn cargo ignores the first signal, so the harness waits on it.
    std::thread::sleep(Duration::from_millis(300));
    let pid = child.id() as i32;
    assert!(
        alive(pid),
        "the harness stopped on the first signal although cargo ran on"
    );
    let t = Instant::now();
    signal(&child, libc::SIGTERM);
    let (code, out) = finish(child);
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "the second signal did not end it at once"
    );
    assert_eq!(code, 143, "{out}");
    assert!(out.contains("second signal"), "{out}");
    for pid in pids(&ws.path("build.pids")) {
        wait_for("the build's processes to end", 5, || !alive(pid));
    }
    let kept = std::fs::read_to_string(ws.path("target/release/phaseline-prover")).unwrap();
    assert_eq!(kept, "workspace binary", "the workspace binary was not put back");
}
