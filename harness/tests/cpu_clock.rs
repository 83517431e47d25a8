//! `clock = "cpu"`: a suite judged on the CPU time the runner's process used
//! in each phase. With the mock on a "busy machine" (wall times stretched by
//! up to tens of percent, CPU times not), a 5% slowdown of `synthesis` is
//! caught on the CPU clock and is not a verdict on the wall clock; the clock
//! is part of the case, a CPU-clock suite on a GPU backend is refused.

mod common;
use common::{assert_error, config, Ws, MOCK};
use serde_json::Value;

fn cfg() -> String {
    format!(
        "runner_override = {MOCK:?}\n{}\n[suites.synth-cpu]\nmode = \"synth\"\ncircuits = [\"tiny\"]\nreps = 12\nwarmup = 0\ntimeout_s = 20\nin_all = false\nclock = \"cpu\"\n",
        config("", 20.0)
    )
}

fn rows(json: &str) -> Vec<Value> {
    let c: Value = serde_json::from_str(json).expect("json comparison");
    c["rows"].as_array().expect("rows").clone()
}

fn row<'a>(rows: &'a [Value], suite: &str, phase: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["phase"] == phase && r["case"]["suite"] == suite)
        .unwrap_or_else(|| panic!("no row {suite} {phase} in {rows:?}"))
}

#[test]
fn a_busy_machine_hides_five_percent_on_the_wall_clock_not_on_the_cpu_clock() {
    let ws = Ws::with_config(&cfg());
    let spec = ws.spec(
        "busy.json",
        r#"{"seed": 5, "noise": 0.005, "wall_noise": 0.3, "effects": {"smallvec": {"synthesis": 1.05}}}"#,
    );
    let o = ws.run(
        &[
            "run",
            "--suite",
            "synth",
            "--suite",
            "synth-cpu",
            "--variant",
            "ref=",
            "--variant",
            "slow=smallvec",
            "--reps",
            "12",
            "--progress",
            "quiet",
            "--out",
            "r",
        ],
        Some(&spec),
    );
    assert_eq!(o.code, 0, "{}", o.all());
    let run = ws.run_json("r");
    let cases: Vec<String> = run["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["case"]["clock"].as_str().unwrap_or("wall").to_string())
        .collect();
    assert!(cases.iter().any(|c| c == "cpu") && cases.iter().any(|c| c == "wall"));
    let o = ws.run(&["compare", "r", "--variants", "ref,slow", "--format", "json"], None);
    assert_eq!(o.code, 1, "{}", o.all());
    let rows = rows(&o.stdout);
    let cpu = row(&rows, "synth-cpu", "synthesis");
    assert_eq!(cpu["case"]["clock"], "cpu");
    assert_eq!(cpu["verdict"], "regressed", "{cpu}");
    let wall = row(&rows, "synth", "synthesis");
    assert!(wall["case"].get("clock").is_none(), "{wall}");
    assert_ne!(wall["verdict"], "regressed", "{wall}");
    // The CPU-clock row's ratio is the planted 5%.
    let ratio = cpu["ratio"].as_f64().unwrap();
    assert!((1.03..1.07).contains(&ratio), "{cpu}");
}

#[test]
fn the_cpu_clock_is_refused_where_spans_carry_no_cpu_time() {
    let text = format!(
        "{}\n[suites.gpu-cpu]\nmode = \"prove\"\nbackend = \"cuda\"\ncircuits = [\"tiny\"]\nreps = 2\ntimeout_s = 20\nin_all = false\nclock = \"cpu\"\n",
        config("", 20.0)
    );
    let ws = Ws::with_config(&text);
    assert_error(
        &ws.run(&["run", "--suite", "gpu-cpu", "--out", "r"], None),
        &["suites.gpu-cpu.clock", "CPU-backend"],
    );
    let text = cfg().replace("clock = \"cpu\"", "clock = \"sundial\"");
    let ws = Ws::with_config(&text);
    assert_error(
        &ws.run(&["run", "--suite", "synth-cpu", "--out", "r"], None),
        &["clock"],
    );
}
