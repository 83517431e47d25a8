//! `run`, `baseline save`, `compare`, `diff`, `calibrate` and the default run,
//! end to end with the mock runner.

mod common;
use common::{assert_error, run_args, Ws};
use serde_json::Value;

fn run(ws: &Ws, out: &str, seed: u64, extra: &[&str]) -> common::Out {
    let spec = ws.spec(
        &format!("spec-{seed}.json"),
        &format!(r#"{{"seed": {seed}, "noise": 0.01, "effects": {{"smallvec": {{"synthesis": 0.8}}}}}}"#),
    );
    ws.run(&run_args("e2e", &["baseline=", "A1"], "8", out, extra), Some(&spec))
}

fn regressed(json: &str) -> Vec<String> {
    let c: Value = serde_json::from_str(json).expect("json comparison");
    c["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["verdict"] == "regressed")
        .map(|r| format!("{}/{}", r["variant"].as_str().unwrap(), r["phase"].as_str().unwrap()))
        .collect()
}

#[test]
fn baseline_compare_exit_codes() {
    let ws = Ws::mock();
    assert_eq!(run(&ws, "r1", 1, &[]).code, 0);
    let o = ws.run(&["baseline", "save", "base", "--from", "r1"], None);
    assert_eq!(o.code, 0, "{}", o.all());

    // Same distribution, other seed: no regression, exit 0.
    assert_eq!(run(&ws, "r2", 2, &[]).code, 0);
    let o = ws.run(&["compare", "r2", "--baseline", "base", "--format", "json"], None);
    assert_eq!(o.code, 0, "{}", o.all());
    assert!(regressed(&o.stdout).is_empty());

    // A 10 ms delay in synthesis (20% of it): that phase regresses for both variants.
    assert_eq!(run(&ws, "r3", 3, &["--inject-delay", "synthesis=10"]).code, 0);
    let o = ws.run(&["compare", "r3", "--baseline", "base", "--format", "json"], None);
    assert_eq!(o.code, 1, "{}", o.all());
    let r = regressed(&o.stdout);
    assert!(
        r.contains(&"baseline/synthesis".to_string()) && r.contains(&"A1/synthesis".to_string()),
        "{r:?}"
    );
    assert!(
        r.iter().all(|x| x.ends_with("/synthesis") || x.ends_with("/total")),
        "{r:?}"
    );
    let o = ws.run(&["compare", "r3", "--against", "r2"], None);
    assert_eq!(o.code, 1);
    assert!(o.stdout.contains("regressed"), "{}", o.stdout);
    let o = ws.run(&["diff", "r2", "r3", "--format", "markdown"], None);
    assert_eq!(o.code, 1);
    assert!(o.stdout.contains("| variant | case | phase |"), "{}", o.stdout);
    let o = ws.run(&["diff", "r1", "r2", "--format", "csv"], None);
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.starts_with("reference,candidate,cross_testbed,variant,"),
        "{}",
        o.stdout
    );

    // `run --baseline` compares right after running.
    let o = run(&ws, "r4", 4, &["--baseline", "base", "--inject-delay", "synthesis=10"]);
    assert_eq!(o.code, 1, "{}", o.all());
    assert!(ws.path("r4/compare-baseline-base.json").is_file());

    assert_error(
        &ws.run(&["compare", "r2", "--baseline", "nope"], None),
        &["no baseline `nope`"],
    );
    assert_error(
        &ws.run(&["compare", "r2", "--format", "yaml", "--against", "r1"], None),
        &["unknown output format 'yaml'"],
    );
    assert_error(
        &ws.run(&["compare", "missing-dir", "--against", "r1"], None),
        &["cannot read run"],
    );
    // A baseline that is named but missing stops `run` before measuring.
    assert_error(&run(&ws, "r5", 5, &["--baseline", "nope"]), &["no baseline `nope`"]);
    assert!(!ws.path("r5").exists());
}

#[test]
fn default_run_compares_all_with_baseline_and_the_stored_default() {
    let ws = Ws::mock();
    let spec = ws.spec("s.json", r#"{"seed": 9, "effects": {"smallvec": {"synthesis": 0.5}}}"#);
    let o = ws.run(&[], Some(&spec));
    assert_eq!(o.code, 0, "{}", o.all());
    assert!(o.stdout.contains("`all` against `baseline`"), "{}", o.stdout);
    assert!(o.stdout.contains("improved"), "{}", o.stdout);
    assert!(o.stdout.contains("synth/tiny x1 cpu"));
    assert!(o.stdout.contains("e2e/tiny x1 cpu"));
    // Once this testbed has a `default` baseline, the default run compares against it.
    let o = ws.run(&["baseline", "save", "default"], None);
    assert_eq!(o.code, 0, "{}", o.all());
    let o = ws.run(&["run"], Some(&spec));
    assert_eq!(o.code, 0, "{}", o.all());
    assert!(o.stdout.contains("against baseline `default`"), "{}", o.stdout);
    let o = ws.run(&["baseline", "list"], None);
    assert!(o.stdout.contains("default"), "{}", o.stdout);
}

#[test]
fn calibrate_learns_thresholds_from_aa_data() {
    let ws = Ws::mock();
    let spec = ws.spec("aa.json", r#"{"seed": 5, "noise": 0.02}"#);
    let o = ws.run(&run_args("synth", &["a=", "b="], "10", "aa", &[]), Some(&spec));
    assert_eq!(o.code, 0, "{}", o.all());
    let o = ws.run(&["calibrate", "aa", "--variant", "a", "--variant", "b"], None);
    assert_eq!(o.code, 0, "{}", o.all());
    assert!(
        o.stdout.contains("[thresholds]") && o.stdout.contains("synthesis"),
        "{}",
        o.stdout
    );
}

#[test]
fn delay_injected_into_one_variant_is_caught_within_the_run() {
    let ws = Ws::mock();
    let spec = ws.spec("d.json", r#"{"seed": 11, "noise": 0.01}"#);
    let args = |out: &'static str, delay: &'static str| {
        let extra: &[&str] = if delay.is_empty() {
            &[]
        } else {
            &["--inject-delay", delay]
        };
        run_args("e2e", &["ref=", "slow="], "10", out, extra)
    };
    assert_eq!(ws.run(&args("d", "slow:msm_l=4"), Some(&spec)).code, 0);
    let o = ws.run(&["compare", "d", "--variants", "ref,slow", "--format", "json"], None);
    assert_eq!(o.code, 1, "{}", o.all());
    assert_eq!(regressed(&o.stdout), vec!["slow/msm_l".to_string()]);
    assert_eq!(ws.run(&args("n", ""), Some(&spec)).code, 0);
    let o = ws.run(&["compare", "n", "--variants", "ref,slow", "--format", "json"], None);
    assert_eq!(o.code, 0, "{}", o.all());
    assert_error(&ws.run(&["compare", "n", "--variants", "ref"], None), &["REF,CAND"]);
}

#[test]
fn inner_warmup_measures_a_warm_iteration_in_each_process() {
    let ws = Ws::mock();
    // The first iteration in every mock process is 3x slower (a cold start).
    let spec = ws.spec("cold.json", r#"{"seed": 3, "noise": 0.01, "cold_factor": 3.0}"#);
    let synthesis = |dir: &str| -> Vec<f64> {
        let run = ws.run_json(dir);
        assert_eq!(
            run["provenance"]["settings"]["suite.synth.inner_warmup"],
            if dir == "warm" { "1" } else { "0" }
        );
        run["samples"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["warmup"] == false)
            .map(|s| s["phases"]["synthesis"].as_f64().unwrap())
            .collect()
    };
    for (dir, inner) in [("cold", "0"), ("warm", "1")] {
        let extra = ["--inner-warmup", inner];
        let o = ws.run(&run_args("synth", &["baseline="], "4", dir, &extra), Some(&spec));
        assert_eq!(o.code, 0, "{}", o.all());
    }
    let (cold, warm) = (synthesis("cold"), synthesis("warm"));
    assert_eq!((cold.len(), warm.len()), (4, 4), "one measured sample per repetition");
    let (cmin, wmax) = (
        cold.iter().copied().fold(f64::MAX, f64::min),
        warm.iter().copied().fold(0.0, f64::max),
    );
    assert!(cmin > 2.5 * wmax, "cold {cold:?} vs warm {warm:?}");
}

#[test]
fn inner_reps_make_one_sample_of_each_phases_median_over_a_process_proofs() {
    let ws = Ws::mock();
    // Every mock process's first proof is 3x slower: with three measured proofs
    // per process the median is a warm one; with one, every sample is cold.
    let spec = ws.spec("cold.json", r#"{"seed": 5, "noise": 0.01, "cold_factor": 3.0}"#);
    let samples = |dir: &str| -> Vec<serde_json::Value> {
        let run = ws.run_json(dir);
        run["samples"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["warmup"] == false)
            .cloned()
            .collect()
    };
    for (dir, n) in [("one", "1"), ("three", "3")] {
        let o = ws.run(
            &run_args("synth", &["baseline="], "4", dir, &["--inner-reps", n]),
            Some(&spec),
        );
        assert_eq!(o.code, 0, "{}", o.all());
    }
    let (one, three) = (samples("one"), samples("three"));
    assert_eq!((one.len(), three.len()), (4, 4), "one sample per process");
    let synthesis = |s: &[serde_json::Value]| {
        s.iter()
            .map(|x| x["phases"]["synthesis"].as_f64().unwrap())
            .collect::<Vec<_>>()
    };
    let (cold, med) = (synthesis(&one), synthesis(&three));
    let cmin = cold.iter().copied().fold(f64::MAX, f64::min);
    let mmax = med.iter().copied().fold(0.0, f64::max);
    assert!(cmin > 2.5 * mmax, "one proof {cold:?} vs median of three {med:?}");
    for s in &three {
        assert_eq!(s["counters"]["inner_reps"], 3.0, "{s}");
        assert_eq!(s["ok"], true);
    }
    assert!(one.iter().all(|s| s["counters"].get("inner_reps").is_none()));
    assert_eq!(
        ws.run_json("three")["provenance"]["settings"]["suite.synth.inner_reps"],
        "3"
    );
    // Samples made differently are not compared: a cold single proof is no
    // reference for a warm median of three.
    let o = ws.run(&["compare", "one", "--against", "three"], None);
    assert_ne!(o.code, 0, "{}", o.all());
    assert!(
        o.all()
            .contains("samples made differently: suite `synth` inner_reps is"),
        "{}",
        o.all()
    );
    // Zero proofs a process is refused, naming the option.
    let o = ws.run(
        &run_args("synth", &["baseline="], "4", "zero", &["--inner-reps", "0"]),
        Some(&spec),
    );
    assert_ne!(o.code, 0);
    assert!(o.all().contains("inner_reps"), "{}", o.all());
}

#[test]
fn calibrate_per_variant_writes_a_suites_own_table_of_the_widest_thresholds() {
    let ws = Ws::mock();
    let spec = ws.spec("aa2.json", r#"{"seed": 9, "noise": 0.03}"#);
    let o = ws.run(&run_args("synth", &["a=", "b=smallvec"], "10", "aa2", &[]), Some(&spec));
    assert_eq!(o.code, 0, "{}", o.all());
    // Two feature sets are not one A/A group ...
    let o = ws.run(&["calibrate", "aa2", "--variant", "a", "--variant", "b"], None);
    assert_ne!(o.code, 0, "{}", o.all());
    // ... but each is one of its own.
    let value = |out: &str, key: &str| -> f64 {
        out.lines()
            .find_map(|l| l.strip_prefix(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no {key} in {out}"))
            .parse()
            .unwrap()
    };
    let one = |v: &str| {
        let o = ws.run(&["calibrate", "aa2", "--variant", v, "--quantile", "0.99"], None);
        assert_eq!(o.code, 0, "{}", o.all());
        value(&o.stdout, "synthesis")
    };
    let (a, b) = (one("a"), one("b"));
    let o = ws.run(
        &[
            "calibrate",
            "aa2",
            "--per-variant",
            "--quantile",
            "0.99",
            "--suite",
            "synth",
        ],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.all());
    assert!(
        o.stdout.contains("[suites.synth.thresholds]\ndefault = "),
        "{}",
        o.stdout
    );
    assert!(!o.stdout.contains("floor_ms"), "{}", o.stdout);
    assert_eq!(value(&o.stdout, "synthesis"), a.max(b));
    // The table is a valid part of the config.
    let cfg = std::fs::read_to_string(ws.path("phaseline.toml")).unwrap();
    std::fs::write(ws.path("phaseline.toml"), format!("{cfg}\n{}", o.stdout)).unwrap();
    let o = ws.run(&["compare", "aa2", "--variants", "a,b"], None);
    assert!(
        o.code == 0 || o.code == 1,
        "the config with the table loads and judges: {}",
        o.all()
    );
    let o = ws.run(&["calibrate", "aa2", "--per-variant", "--suite", "nope"], None);
    assert_ne!(o.code, 0);
    assert!(o.all().contains("nope"), "{}", o.all());
}
