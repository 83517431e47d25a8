//! Bad inputs exit 2 with a clear message and leave no half-written file.

mod common;
use common::{assert_error, run_args, Ws};

#[test]
fn config_with_unknown_key_is_refused() {
    let ws = Ws::with_config(&format!("colour = \"blue\"\n{}", common::config("", 5.0)));
    let o = ws.run(&["run"], None);
    assert_error(&o, &["colour", "phaseline.toml"]);
    let ws =
        Ws::with_config(&common::config("", 5.0).replace("reps = 5\nwarmup = 1", "reps = 5\nwarmup = 1\nrepz = 3"));
    assert_error(&ws.run(&["build"], None), &["repz"]);
}

#[test]
fn config_with_invalid_value_names_the_key() {
    let ws = Ws::with_config(&common::config("", 5.0).replace("alpha = 0.05", "alpha = 1.5"));
    assert_error(&ws.run(&["build"], None), &["`alpha`"]);
    let ws = Ws::with_config(&common::config("", 5.0).replace("reps = 5\nwarmup = 1", "reps = 0\nwarmup = 1"));
    assert_error(&ws.run(&["build"], None), &["suites.synth.reps"]);
}

#[test]
fn unknown_feature_in_a_variant_is_refused() {
    let ws = Ws::mock();
    let o = ws.run(&["run", "--variant", "X=smallvec,turbo", "--reps", "1"], None);
    assert_error(&o, &["unknown feature `turbo`", "variant `X`"]);
    assert!(!ws.path("runs").exists(), "nothing may be written");
    let o = ws.run(&["build", "--variant", "nosuchname"], None);
    assert_error(&o, &["unknown variant `nosuchname`"]);
}

#[test]
fn crashing_runner_is_a_failed_sample() {
    let ws = Ws::mock();
    let spec = ws.spec("crash.json", r#"{"behaviour": "crash"}"#);
    let o = ws.run(
        &run_args("synth", &["baseline="], "1", "r", &["--warmup", "0"]),
        Some(&spec),
    );
    assert_error(
        &o,
        &["exited with status 3", "simulated crash", "1 of 1 samples failed"],
    );
    // The run directory is complete and loadable, with the failure recorded.
    let run = ws.run_json("r");
    assert_eq!(run["samples"][0]["ok"], false);
    assert!(run["samples"][0]["error"].as_str().unwrap().contains("simulated crash"));
    assert!(ws.temp_leftovers().is_empty());
}

#[test]
fn record_missing_a_phase_is_refused_naming_it() {
    let ws = Ws::mock();
    let spec = ws.spec(
        "miss.json",
        r#"{"behaviour": "missing_phase", "missing_phase": "msm_h"}"#,
    );
    let o = ws.run(&run_args("e2e", &["baseline="], "1", "r", &[]), Some(&spec));
    assert_error(&o, &["missing phase `msm_h`"]);
    let spec = ws.spec("garbage.json", r#"{"behaviour": "garbage"}"#);
    let o = ws.run(&run_args("e2e", &["baseline="], "1", "r2", &[]), Some(&spec));
    assert_error(&o, &["does not have the expected schema"]);
}

#[test]
fn existing_run_directory_is_not_overwritten() {
    let ws = Ws::mock();
    let args = run_args("synth", &["baseline="], "1", "r", &[]);
    assert_eq!(ws.run(&args, None).code, 0);
    let before = std::fs::read(ws.path("r/run.json")).unwrap();
    assert_error(&ws.run(&args, None), &["already holds a run"]);
    assert_eq!(before, std::fs::read(ws.path("r/run.json")).unwrap());
}

fn saved_baseline(ws: &Ws) -> std::path::PathBuf {
    let o = ws.run(&run_args("synth", &["baseline="], "3", "r", &[]), None);
    assert_eq!(o.code, 0, "{}", o.all());
    let o = ws.run(&["baseline", "save", "base", "--from", "r"], None);
    assert_eq!(o.code, 0, "{}", o.all());
    let line = o.stdout.lines().find(|l| l.contains("saved")).unwrap().to_string();
    std::path::PathBuf::from(line.rsplit(": ").next().unwrap().trim())
}

#[test]
fn missing_truncated_and_wrong_schema_baselines_are_refused() {
    let ws = Ws::mock();
    assert_error(&ws.run(&["baseline", "show", "nope"], None), &["no baseline `nope`"]);
    let file = saved_baseline(&ws);
    assert_eq!(ws.run(&["baseline", "show", "base"], None).code, 0);
    // Saving again without --force keeps the stored file.
    let stored = std::fs::read(&file).unwrap();
    assert_error(&ws.run(&["baseline", "save", "base", "--from", "r"], None), &["exists"]);
    assert_eq!(stored, std::fs::read(&file).unwrap());
    std::fs::write(&file, &stored[..stored.len() / 2]).unwrap();
    assert_error(&ws.run(&["baseline", "show", "base"], None), &["is truncated"]);
    std::fs::write(&file, br#"{"schema_version": 1, "name": "base"}"#).unwrap();
    assert_error(
        &ws.run(&["baseline", "show", "base"], None),
        &["does not have the expected schema"],
    );
    let text = String::from_utf8(stored)
        .unwrap()
        .replacen("\"schema_version\": 1", "\"schema_version\": 99", 1);
    std::fs::write(&file, text).unwrap();
    assert_error(&ws.run(&["baseline", "show", "base"], None), &["schema_version 99"]);
    assert_error(
        &ws.run(&["baseline", "save", "../evil", "--from", "r"], None),
        &["baseline name"],
    );
    assert!(ws.temp_leftovers().is_empty());
}

#[test]
fn run_directory_of_another_testbed_is_refused() {
    let ws = Ws::mock();
    saved_baseline(&ws);
    // The same run as if measured elsewhere (consistent key and fields).
    let mut run = ws.run_json("r");
    run["testbed"]["cpu_model"] = "Other CPU 9000".into();
    run["testbed"]["cpu_cores"] = 64.into();
    run["testbed"]["gpu_model"] = serde_json::Value::Null;
    run["testbed"]["key"] = "other-cpu-9000-64c-nogpu".into();
    std::fs::create_dir_all(ws.path("elsewhere")).unwrap();
    std::fs::write(ws.path("elsewhere/run.json"), serde_json::to_string(&run).unwrap()).unwrap();
    let o = ws.run(&["compare", "elsewhere", "--baseline", "base"], None);
    assert_error(&o, &["other-cpu-9000-64c-nogpu", "--allow-cross-testbed"]);
    let o = ws.run(&["diff", "r", "elsewhere"], None);
    assert_error(&o, &["other-cpu-9000-64c-nogpu", "--allow-cross-testbed"]);
    // A key that does not match its own fields is a forged or damaged run.
    run["testbed"]["key"] = "made-up".into();
    std::fs::write(ws.path("elsewhere/run.json"), serde_json::to_string(&run).unwrap()).unwrap();
    assert_error(
        &ws.run(&["diff", "r", "elsewhere"], None),
        &["does not match its own fields"],
    );
}

#[test]
fn a_baseline_being_written_is_not_written_twice() {
    let ws = Ws::mock();
    let file = saved_baseline(&ws);
    let stored = std::fs::read(&file).unwrap();
    // Another writer holds the lock (this test process, as a second phaseline would).
    let mut lp = file.clone().into_os_string();
    lp.push(".lock");
    let holder = std::fs::OpenOptions::new().read(true).write(true).open(&lp).unwrap();
    holder.try_lock().unwrap();
    std::fs::write(&lp, b"4242").unwrap();
    let o = ws.run(&["baseline", "save", "base", "--from", "r", "--force"], None);
    assert_error(&o, &["is being written by process 4242", ".json.lock"]);
    assert_eq!(
        stored,
        std::fs::read(&file).unwrap(),
        "the stored baseline is untouched"
    );
    holder.unlock().unwrap();
    let o = ws.run(&["baseline", "save", "base", "--from", "r", "--force"], None);
    assert_eq!(o.code, 0, "{}", o.all());
    assert!(
        !ws.run(&["baseline", "list"], None).stdout.contains("lock"),
        "the lock file is no baseline"
    );
}
