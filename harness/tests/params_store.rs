//! A `prove` suite's `params_store` and `mem_budget` reach the runner as its
//! `--params-store` and `--mem-budget` (the mock writes down its command
//! lines), no parameters are made before such a suite, both are recorded in
//! the run's settings, and bad values are refused when the config is read.

mod common;
use common::*;

fn suite(params_store: &str, mem_budget: &str) -> String {
    format!(
        "runner_override = {:?}\n{}\n[suites.big]\nmode = \"prove\"\ncircuits = [\"tiny\"]\npartitions = [2]\nreps = 2\nwarmup = 0\ntimeout_s = 20\nin_all = false\nparams_store = {params_store:?}\nmem_budget = {mem_budget:?}\n",
        MOCK,
        config("", 20.0)
    )
}

fn run_big(ws: &Ws, spec: &str) -> Out {
    let spec = ws.spec("spec.json", spec);
    ws.run(
        &[
            "run",
            "--suite",
            "big",
            "--variant",
            "baseline",
            "--progress",
            "quiet",
            "--out",
            "r",
        ],
        Some(&spec),
    )
}

#[test]
fn the_suite_hands_both_flags_to_the_runner_and_records_them() {
    let ws = Ws::with_config(&suite("memory", "1GiB"));
    let args = ws.path("args.txt");
    let o = run_big(&ws, &format!(r#"{{"noise": 0.01, "args_file": {:?}}}"#, args));
    assert_eq!(o.code, 0, "{}", o.all());
    let run = ws.run_json("r");
    let settings = &run["provenance"]["settings"];
    assert_eq!(settings["suite.big.params_store"], "memory", "{settings}");
    assert_eq!(settings["suite.big.mem_budget"], "1GiB", "{settings}");
    // Every prove process got both flags, and no parameters were made beforehand.
    let args = std::fs::read_to_string(ws.path("args.txt")).expect("the mock's command lines");
    let proves: Vec<&str> = args.lines().filter(|l| l.starts_with("prove ")).collect();
    assert_eq!(proves.len(), 2, "{args}");
    for l in &proves {
        assert!(
            l.contains("--params-store memory") && l.contains("--mem-budget 1GiB"),
            "{l}"
        );
    }
    assert!(!args.lines().any(|l| l.starts_with("setup ")), "{args}");
}

#[test]
fn bad_values_are_refused_by_name_before_anything_runs() {
    for (store, budget, needle) in [
        ("memory", "12XB", "suites.big.mem_budget"),
        ("memory", "0", "suites.big.mem_budget"),
        ("disk", "1GiB", "params_store"),
    ] {
        let ws = Ws::with_config(&suite(store, budget));
        let o = run_big(&ws, r#"{"noise": 0.01}"#);
        assert_eq!(o.code, 2, "{store} {budget}: {}", o.all());
        assert!(o.all().contains(needle), "{store} {budget}: {}", o.all());
        assert!(!ws.path("r").join("run.json").exists());
    }
}
