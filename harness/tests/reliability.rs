//! The reliability table: bad inputs and faults, each run through `phaseline` as a user would,
//! with the exit code and message it gave. Every row must exit as expected, without a panic, a
//! temporary file or a runner left behind, and without losing a measured sample.
//!
//! `docs/reliability.md` is this table as last produced: set `PHASELINE_RELIABILITY_DOC` to a
//! path to write it there (`scripts/reliability-table.sh` does). The test checks that the doc
//! lists exactly the rows below, with the exit codes they give.

mod common;
use common::{Ws, MOCK, PHASELINE};
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a row prepares before its command runs.
#[derive(Clone, Copy)]
enum Prep {
    /// Nothing.
    None,
    /// A synth run `r` (3 reps).
    Run,
    /// A synth run `r` saved as baseline `base`.
    Baseline,
}

/// How a row's fault is delivered.
#[derive(Clone, Copy)]
enum Fault {
    /// The command alone.
    Plain,
    /// The signal, once the runner has started three times.
    Signal(i32),
}

struct Row {
    id: &'static str,
    what: &'static str,
    args: &'static [&'static str],
    /// Config edit: (text to find, replacement); `("", X)` prepends X.
    config: Option<(&'static str, &'static str)>,
    /// Mock runner behaviour (JSON object fields).
    spec: Option<&'static str>,
    prep: Prep,
    /// Edit of the workspace after `prep` (a damaged file, a foreign run).
    damage: Option<fn(&Ws)>,
    fault: Fault,
    expect: i32,
}

const fn row(id: &'static str, what: &'static str, args: &'static [&'static str], expect: i32) -> Row {
    Row {
        id,
        what,
        args,
        config: None,
        spec: None,
        prep: Prep::None,
        damage: None,
        fault: Fault::Plain,
        expect,
    }
}

const RUN: &[&str] = &[
    "run",
    "--suite",
    "synth",
    "--variant",
    "baseline=",
    "--reps",
    "2",
    "--out",
    "n",
];
const E2E: &[&str] = &[
    "run",
    "--suite",
    "e2e",
    "--variant",
    "baseline=",
    "--reps",
    "1",
    "--out",
    "n",
];
const LONG: &[&str] = &[
    "run",
    "--suite",
    "synth",
    "--variant",
    "baseline=",
    "--reps",
    "40",
    "--warmup",
    "0",
    "--out",
    "n",
];

fn edit_run(ws: &Ws, to: &str, f: impl FnOnce(&mut serde_json::Value)) {
    let mut run = ws.run_json("r");
    f(&mut run);
    std::fs::create_dir_all(ws.path(to)).unwrap();
    std::fs::write(ws.path(to).join("run.json"), serde_json::to_string(&run).unwrap()).unwrap();
}

fn other_variant(ws: &Ws) {
    edit_run(ws, "o", |r| {
        r["variants"][0]["variant"]["name"] = "other".into();
        for s in r["samples"].as_array_mut().unwrap() {
            s["variant"] = "other".into();
        }
    });
}

fn other_features(ws: &Ws) {
    edit_run(ws, "o", |r| {
        r["variants"][0]["variant"]["features"] = serde_json::json!(["presize"])
    });
}

fn other_testbed(ws: &Ws) {
    edit_run(ws, "o", |r| {
        r["testbed"]["cpu_model"] = "Other CPU 9000".into();
        r["testbed"]["cpu_cores"] = 64.into();
        r["testbed"]["gpu_model"] = serde_json::Value::Null;
        r["testbed"]["key"] = "other-cpu-9000-64c-nogpu".into();
    });
}

fn forged_key(ws: &Ws) {
    edit_run(ws, "o", |r| r["testbed"]["key"] = "made-up".into());
}

fn not_mock(ws: &Ws) {
    edit_run(ws, "o", |r| {
        for s in r["samples"].as_array_mut().unwrap() {
            s.as_object_mut().unwrap().remove("mock");
        }
    });
}

fn absurd_phase(ws: &Ws) {
    edit_run(ws, "o", |r| r["samples"][0]["phases"]["synthesis"] = 1e300.into());
}

fn future_schema(ws: &Ws) {
    edit_run(ws, "o", |r| r["schema_version"] = 99.into());
}

fn truncated_run(ws: &Ws) {
    let text = std::fs::read(ws.path("r/run.json")).unwrap();
    std::fs::create_dir_all(ws.path("o")).unwrap();
    std::fs::write(ws.path("o/run.json"), &text[..text.len() / 2]).unwrap();
}

fn baseline_file(ws: &Ws) -> std::path::PathBuf {
    let dir = std::fs::read_dir(ws.path("baselines"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    dir.join("base.json")
}

fn truncated_baseline(ws: &Ws) {
    let f = baseline_file(ws);
    let text = std::fs::read(&f).unwrap();
    std::fs::write(&f, &text[..text.len() / 3]).unwrap();
}

fn baseline_of_future_schema(ws: &Ws) {
    let f = baseline_file(ws);
    let mut b: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    b["schema_version"] = 99.into();
    std::fs::write(&f, serde_json::to_string(&b).unwrap()).unwrap();
}

fn run_json_blocked(ws: &Ws) {
    std::fs::create_dir_all(ws.path("n/run.json/blocker")).unwrap();
}

fn no_config(ws: &Ws) {
    std::fs::remove_file(ws.path("phaseline.toml")).unwrap();
}

fn rows() -> Vec<Row> {
    let cfg = |id, what, find, put| Row {
        config: Some((find, put)),
        ..row(id, what, &["build"], 2)
    };
    let spec = |id, what, spec, args, expect| Row {
        spec: Some(spec),
        ..row(id, what, args, expect)
    };
    let stored = |id, what, args, prep, damage: Option<fn(&Ws)>| Row {
        prep,
        damage,
        ..row(id, what, args, 2)
    };
    vec![
        // The config.
        cfg("config-unknown-key", "unknown top-level key", "", "colour = \"blue\"\n"),
        cfg(
            "config-unknown-suite-key",
            "misspelt suite key",
            "warmup = 1\n",
            "warmup = 1\nrepz = 3\n",
        ),
        cfg(
            "config-alpha-range",
            "alpha outside (0, 1)",
            "alpha = 0.05",
            "alpha = 1.5",
        ),
        cfg(
            "config-reps-zero",
            "suite with 0 reps",
            "reps = 5\nwarmup = 1",
            "reps = 0\nwarmup = 1",
        ),
        cfg(
            "config-warmup-huge",
            "suite warm-up of a million",
            "warmup = 1\n",
            "warmup = 1000000\n",
        ),
        cfg(
            "config-threshold-phase",
            "threshold for a misspelt phase",
            "[thresholds]\ndefault = 0.03",
            "[thresholds]\ndefault = 0.03\n\n[thresholds.phases]\nsynthesys = 0.05",
        ),
        cfg(
            "config-threshold-range",
            "threshold of 300%",
            "default = 0.03",
            "default = 3.0",
        ),
        cfg("config-not-toml", "config that is not TOML", "", "this is [not toml\n"),
        cfg(
            "config-alpha-type",
            "alpha as a string",
            "alpha = 0.05",
            "alpha = \"high\"",
        ),
        Row {
            damage: Some(no_config),
            ..row("config-missing", "no phaseline.toml", &["run"], 2)
        },
        // The command line.
        row("cli-unknown-command", "unknown subcommand", &["frobnicate"], 2),
        row("cli-unknown-flag", "unknown flag", &["run", "--colour"], 2),
        row(
            "cli-reps-zero",
            "--reps 0",
            &["run", "--suite", "synth", "--reps", "0"],
            2,
        ),
        row("cli-reps-word", "--reps many", &["run", "--reps", "many"], 2),
        row(
            "cli-reps-huge",
            "--reps 100000000",
            &["run", "--suite", "synth", "--reps", "100000000"],
            2,
        ),
        row(
            "cli-warmup-overflow",
            "--warmup 2^64-1",
            &["run", "--suite", "synth", "--warmup", "18446744073709551615"],
            2,
        ),
        row(
            "cli-timeout-negative",
            "--timeout -1",
            &["run", "--suite", "synth", "--timeout=-1"],
            2,
        ),
        row(
            "cli-timeout-nan",
            "--timeout NaN",
            &["run", "--suite", "synth", "--timeout", "NaN"],
            2,
        ),
        row("cli-unknown-suite", "unknown suite", &["run", "--suite", "nosuch"], 2),
        row(
            "cli-unknown-variant",
            "unknown variant name",
            &["build", "--variant", "nosuchname"],
            2,
        ),
        row(
            "cli-unknown-feature",
            "variant with an unknown feature",
            &["run", "--variant", "X=smallvec,turbo"],
            2,
        ),
        row(
            "cli-variant-no-name",
            "variant without a name",
            &["build", "--variant", "=smallvec"],
            2,
        ),
        row(
            "cli-variant-twice",
            "one variant name twice",
            &["build", "--variant", "a=", "--variant", "a=presize"],
            2,
        ),
        row(
            "cli-interleave",
            "unknown interleave mode",
            &["run", "--suite", "synth", "--interleave", "sideways"],
            2,
        ),
        row(
            "cli-format",
            "unknown output format",
            &["run", "--suite", "synth", "--format", "yaml"],
            2,
        ),
        row(
            "cli-progress",
            "unknown progress mode",
            &["run", "--suite", "synth", "--progress", "loud"],
            2,
        ),
        row(
            "cli-inject-delay",
            "--inject-delay without ms",
            &["run", "--suite", "synth", "--inject-delay", "synthesis"],
            2,
        ),
        row(
            "cli-inject-delay-variant",
            "--inject-delay for an absent variant",
            &[
                "run",
                "--suite",
                "synth",
                "--variant",
                "baseline=",
                "--inject-delay",
                "nosuch:synthesis=5",
            ],
            2,
        ),
        row(
            "cli-unknown-circuit",
            "unknown circuit preset",
            &["run", "--suite", "synth", "--circuit", "enormous"],
            2,
        ),
        row(
            "cli-partitions-zero",
            "--partitions 0",
            &["run", "--suite", "synth", "--partitions", "0"],
            2,
        ),
        row(
            "cli-runner-missing",
            "--runner that does not exist",
            &["run", "--suite", "synth", "--runner", "/nonexistent/runner"],
            2,
        ),
        row(
            "cli-budget",
            "nightly --budget in words",
            &["nightly", "--budget", "soon"],
            2,
        ),
        Row {
            prep: Prep::Run,
            ..row(
                "cli-out-exists",
                "--out of an existing run",
                &["run", "--suite", "synth", "--variant", "baseline=", "--out", "r"],
                2,
            )
        },
        // The runner misbehaves.
        spec("runner-crash", "runner exits 3", r#""behaviour": "crash""#, RUN, 2),
        spec(
            "runner-missing-phase",
            "record without a required phase",
            r#""behaviour": "missing_phase", "missing_phase": "msm_h""#,
            E2E,
            2,
        ),
        spec(
            "runner-garbage",
            "record of the wrong shape",
            r#""behaviour": "garbage""#,
            RUN,
            2,
        ),
        spec(
            "runner-setsid",
            "runner leaves a child in its own session",
            r#""behaviour": "setsid""#,
            RUN,
            2,
        ),
        Row {
            config: Some(("timeout_s = 20", "timeout_s = 1")),
            ..spec(
                "runner-hang",
                "runner hangs (with a child) past the timeout",
                r#""behaviour": "hang""#,
                RUN,
                2,
            )
        },
        // Stored runs.
        stored(
            "runs-nothing-in-common",
            "diff of runs with no variant in common",
            &["diff", "r", "o"],
            Prep::Run,
            Some(other_variant),
        ),
        stored(
            "runs-feature-mismatch",
            "one variant name, other features",
            &["diff", "r", "o"],
            Prep::Run,
            Some(other_features),
        ),
        stored(
            "runs-cross-testbed",
            "runs from another testbed",
            &["diff", "r", "o"],
            Prep::Run,
            Some(other_testbed),
        ),
        stored(
            "runs-forged-key",
            "testbed key not matching its fields",
            &["diff", "r", "o"],
            Prep::Run,
            Some(forged_key),
        ),
        stored(
            "runs-mock-vs-real",
            "mock records against real ones",
            &["diff", "o", "r"],
            Prep::Run,
            Some(not_mock),
        ),
        stored(
            "runs-absurd-phase",
            "a 1e300 ms phase",
            &["diff", "r", "o"],
            Prep::Run,
            Some(absurd_phase),
        ),
        stored(
            "runs-future-schema",
            "run.json schema 99",
            &["diff", "r", "o"],
            Prep::Run,
            Some(future_schema),
        ),
        stored(
            "runs-truncated",
            "run.json cut in half",
            &["diff", "r", "o"],
            Prep::Run,
            Some(truncated_run),
        ),
        stored(
            "runs-missing",
            "run directory that does not exist",
            &["diff", "r", "nosuch"],
            Prep::Run,
            None,
        ),
        stored(
            "runs-variants-unknown",
            "compare --variants with an absent one",
            &["compare", "r", "--variants", "baseline,nosuch"],
            Prep::Run,
            None,
        ),
        stored(
            "report-missing",
            "report of a missing run",
            &["report", "nosuch", "--out", "rep"],
            Prep::None,
            None,
        ),
        stored(
            "chart-format",
            "chart in an unknown format",
            &["chart", "r", "--format", "gif", "--out", "c"],
            Prep::Run,
            None,
        ),
        stored(
            "calibrate-two-variants",
            "calibrate without A/A data",
            &["calibrate", "o", "--variant", "baseline", "--variant", "nosuch"],
            Prep::Run,
            Some(other_variant),
        ),
        // Stored baselines.
        stored(
            "baseline-missing",
            "show of a missing baseline",
            &["baseline", "show", "nope"],
            Prep::Run,
            None,
        ),
        stored(
            "baseline-compare-missing",
            "compare with a missing baseline",
            &["compare", "r", "--baseline", "nope"],
            Prep::Run,
            None,
        ),
        stored(
            "baseline-exists",
            "save over a stored baseline",
            &["baseline", "save", "base", "--from", "r"],
            Prep::Baseline,
            None,
        ),
        stored(
            "baseline-truncated",
            "baseline file cut short",
            &["baseline", "show", "base"],
            Prep::Baseline,
            Some(truncated_baseline),
        ),
        stored(
            "baseline-future-schema",
            "baseline schema 99",
            &["baseline", "show", "base"],
            Prep::Baseline,
            Some(baseline_of_future_schema),
        ),
        stored(
            "baseline-name-path",
            "baseline name with a path",
            &["baseline", "save", "../evil", "--from", "r"],
            Prep::Run,
            None,
        ),
        stored(
            "baseline-testbed-path",
            "--testbed with path characters",
            &["baseline", "show", "base", "--testbed", "../x"],
            Prep::Baseline,
            None,
        ),
        stored(
            "baseline-nothing-in-common",
            "compare with a baseline of other variants",
            &["compare", "o", "--baseline", "base"],
            Prep::Baseline,
            Some(other_variant),
        ),
        // Faults while measuring.
        Row {
            damage: Some(run_json_blocked),
            ..row("fault-run-json-write", "run.json cannot be written", RUN, 2)
        },
        Row {
            fault: Fault::Signal(libc::SIGINT),
            ..spec(
                "fault-sigint",
                "Ctrl-C mid-run",
                r#""sleep": true, "phases": {"synthesis": 150}"#,
                LONG,
                130,
            )
        },
        Row {
            fault: Fault::Signal(libc::SIGTERM),
            ..spec(
                "fault-sigterm",
                "SIGTERM mid-run",
                r#""sleep": true, "phases": {"synthesis": 150}"#,
                LONG,
                143,
            )
        },
    ]
}

fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only probes for existence.
    unsafe { libc::kill(pid, 0) == 0 }
}

fn pids(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

struct Outcome {
    code: i32,
    message: String,
    problems: Vec<String>,
}

fn message(stderr: &str, ws: &Ws) -> String {
    let root = ws.dir.path().display().to_string();
    let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let at = lines
        .iter()
        .position(|l| l.to_lowercase().starts_with("error"))
        .or(lines.iter().position(|l| l.contains("interrupted")))
        .or(lines.len().checked_sub(1));
    let pick = match at {
        // An error that lists its reasons on the lines after it: the first reason.
        Some(i) if lines[i].ends_with(':') && i + 1 < lines.len() => format!("{} {}", lines[i], lines[i + 1]),
        Some(i) => lines[i].to_string(),
        None => String::new(),
    };
    // A failed sample's reason is on its own line before the summary error.
    let pick = match lines.iter().find(|l| l.starts_with("failed:")) {
        Some(why) if pick.contains("samples failed") => format!("{why}; {pick}"),
        _ => pick,
    };
    let mut m = pick.replace(&root, "WS").replace('|', "/");
    if m.chars().count() > 300 {
        m = m.chars().take(297).collect::<String>() + "...";
    }
    m
}

fn execute(r: &Row) -> Outcome {
    let mut cfg = format!("runner_override = {:?}\n{}", MOCK, common::config("", 20.0));
    if let Some((find, put)) = r.config {
        cfg = if find.is_empty() {
            format!("{put}{cfg}")
        } else {
            cfg.replacen(find, put, 1)
        };
    }
    let ws = Ws::with_config(&cfg);
    let pid_file = ws.path("runner.pids");
    let spec = ws.spec(
        "spec.json",
        &format!(
            "{{{}\"pid_file\": {:?}}}",
            r.spec.map(|s| format!("{s}, ")).unwrap_or_default(),
            pid_file.display().to_string()
        ),
    );
    let quiet = |args: &[&str]| {
        let o = ws.run(args, Some(&spec));
        assert_eq!(o.code, 0, "{}: preparing: {}", r.id, o.all());
    };
    if matches!(r.prep, Prep::Run | Prep::Baseline) {
        quiet(&[
            "run",
            "--suite",
            "synth",
            "--variant",
            "baseline=",
            "--reps",
            "3",
            "--warmup",
            "0",
            "--out",
            "r",
        ]);
        std::fs::remove_file(&pid_file).unwrap();
    }
    if matches!(r.prep, Prep::Baseline) {
        quiet(&["baseline", "save", "base", "--from", "r"]);
    }
    if let Some(d) = r.damage {
        d(&ws);
    }
    let tmp = ws.path("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut child = Command::new(PHASELINE)
        .args(r.args)
        .current_dir(ws.dir.path())
        .env_remove("CARGO_TARGET_DIR")
        .env("PHASELINE_MOCK_SPEC", &spec)
        .env("TMPDIR", &tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start phaseline");
    let mut problems = Vec::new();
    if let Fault::Signal(sig) = r.fault {
        let until = Instant::now() + Duration::from_secs(30);
        while pids(&pid_file).len() < 3 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: signals the phaseline process this test started, by pid.
        unsafe { libc::kill(child.id() as i32, sig) };
    }
    let until = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            problems.push("did not end within 60 s".into());
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let code = o.status.code().unwrap_or(-1);
    if stderr.contains("panicked") {
        problems.push(format!("panic: {stderr}"));
    }
    if code != 0 && message(&stderr, &ws).is_empty() {
        problems.push("no message".into());
    }
    // Runners are ended before the harness exits (the hanging one's child with its group).
    std::thread::sleep(Duration::from_millis(50));
    for pid in pids(&pid_file) {
        if alive(pid) {
            problems.push(format!("runner {pid} outlived the harness"));
        }
    }
    if let Some(sid) = stderr.split("pid ").nth(1).and_then(|s| s.split_whitespace().next()) {
        if let Ok(pid) = sid.parse::<i32>() {
            if alive(pid) {
                problems.push(format!("process {pid} named in the error is still running"));
            }
        }
    }
    if !ws.temp_leftovers().is_empty() || std::fs::read_dir(&tmp).unwrap().next().is_some() {
        problems.push("temporary files left".into());
    }
    // Every sample measured is kept: the journal's samples are all in run.json, or readable.
    let journal = ws.path("n/journal.jsonl");
    if journal.is_file() {
        let journaled = std::fs::read_to_string(&journal)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("{\"sample\""))
            .count();
        let rep = ws.run(&["report", "n", "--out", "rep"], None);
        if rep.code != 0 {
            problems.push(format!(
                "{journaled} journaled samples, but report fails: {}",
                rep.all()
            ));
        }
    }
    Outcome {
        code,
        message: message(&stderr, &ws),
        problems,
    }
}

fn table(rows: &[Row], outcomes: &[Outcome]) -> String {
    let mut s = String::from(
        "# Reliability: bad inputs and faults\n\n\
         Every row is a `phaseline` command run by `harness/tests/reliability.rs` on a fresh\n\
         workspace with the mock runner (the test fails if any row exits otherwise, panics,\n\
         leaves a runner or a temporary file behind, or loses a journaled sample). `WS` is the\n\
         workspace folder. Regenerate with `scripts/reliability-table.sh`.\n\n",
    );
    let panics = outcomes
        .iter()
        .filter(|o| o.problems.iter().any(|p| p.starts_with("panic")))
        .count();
    let exit0 = outcomes.iter().filter(|o| o.code == 0).count();
    let _ = writeln!(
        s,
        "{} rows: {} exit 2, {} interrupted (128 + signal), {exit0} exit 0, {panics} panics, {} rows with a problem.\n",
        rows.len(),
        outcomes.iter().filter(|o| o.code == 2).count(),
        outcomes.iter().filter(|o| o.code > 128).count(),
        outcomes.iter().filter(|o| !o.problems.is_empty()).count(),
    );
    s.push_str("| id | fault | command | exit | message |\n|---|---|---|---:|---|\n");
    for (r, o) in rows.iter().zip(outcomes) {
        let mut cmd = format!("phaseline {}", r.args.join(" "));
        if let Some((find, put)) = r.config {
            let edit = if find.is_empty() {
                format!("+ `{put}`")
            } else {
                format!("`{find}` -> `{put}`")
            };
            cmd = format!("{cmd} (config: {})", edit.replace('\n', "\\n"));
        }
        if let Some(sp) = r.spec {
            cmd = format!("{cmd} (runner: `{{{sp}}}`)");
        }
        if let Fault::Signal(sig) = r.fault {
            cmd = format!("{cmd}, then signal {sig}");
        }
        let _ = writeln!(
            s,
            "| `{}` | {} | `{}` | {} | {} |",
            r.id,
            r.what,
            cmd.replace('|', "/").replace('`', "'"),
            o.code,
            o.message.replace('`', "'")
        );
    }
    s
}

#[test]
fn every_bad_input_and_fault_ends_cleanly() {
    let rows = rows();
    assert!(rows.len() >= 50, "the table has {} rows", rows.len());
    let outcomes: Vec<Outcome> = rows.iter().map(execute).collect();
    let text = table(&rows, &outcomes);
    if let Some(p) = std::env::var_os("PHASELINE_RELIABILITY_DOC") {
        std::fs::write(&p, &text).expect("write the doc");
    }
    let mut failures = Vec::new();
    for (r, o) in rows.iter().zip(&outcomes) {
        if o.code != r.expect {
            failures.push(format!(
                "{}: exit {} (expected {}): {}",
                r.id, o.code, r.expect, o.message
            ));
        }
        for p in &o.problems {
            failures.push(format!("{}: {p}", r.id));
        }
    }
    assert!(failures.is_empty(), "{}\n\n{text}", failures.join("\n"));
    // The doc lists exactly these rows with these exit codes.
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reliability.md");
    let doc = std::fs::read_to_string(&doc).unwrap_or_default();
    let listed: Vec<(String, String)> = doc
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].trim_matches('`').to_string(), cells[4].to_string())
        })
        .collect();
    let want: Vec<(String, String)> = rows
        .iter()
        .zip(&outcomes)
        .map(|(r, o)| (r.id.to_string(), o.code.to_string()))
        .collect();
    assert_eq!(
        listed, want,
        "docs/reliability.md is stale: run scripts/reliability-table.sh"
    );
}
