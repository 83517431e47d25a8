//! The rows of the reliability table (`reliability.rs`): each bad input or fault, how it is
//! prepared and delivered, and the exit it must give.

use super::common::Ws;

/// What a row prepares before its command runs.
#[derive(Clone, Copy)]
pub enum Prep {
    /// Nothing.
    None,
    /// A synth run `r` (3 reps).
    Run,
    /// A synth run `r` saved as baseline `base`.
    Baseline,
}

/// How a row's fault is delivered.
#[derive(Clone, Copy)]
pub enum Fault {
    /// The command alone.
    Plain,
    /// The signal, once the runner has started three times.
    Signal(i32),
}

pub struct Row {
    pub id: &'static str,
    pub what: &'static str,
    pub args: &'static [&'static str],
    /// Config edit: (text to find, replacement); `("", X)` prepends X.
    pub config: Option<(&'static str, &'static str)>,
    /// Mock runner behaviour (JSON object fields).
    pub spec: Option<&'static str>,
    pub prep: Prep,
    /// Edit of the workspace after `prep` (a damaged file, a foreign run).
    pub damage: Option<fn(&Ws)>,
    pub fault: Fault,
    pub expect: i32,
}

pub const fn row(id: &'static str, what: &'static str, args: &'static [&'static str], expect: i32) -> Row {
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

pub fn rows() -> Vec<Row> {
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
