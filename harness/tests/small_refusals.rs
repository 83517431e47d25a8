//! Small refusals and output hygiene: absurd counts and durations, misspelt threshold phases,
//! output file modes, ignored output folders, testbed keys under `taskset`, and repetition
//! numbers that read the same in every output.

mod common;
use common::{assert_error, run_args, Ws};

#[test]
fn absurd_repetition_counts_are_refused() {
    let ws = Ws::mock();
    for (reps, flag, v) in [
        ("1", "--warmup", "18446744073709551615"),
        ("100000000", "--warmup", "0"),
        ("1", "--inner-warmup", "18446744073709551615"),
        ("1", "--partitions", "1000"),
    ] {
        let o = ws.run(&run_args("synth", &["baseline="], reps, "r", &[flag, v]), None);
        assert_error(&o, &["is more than", "from the command line or the config"]);
        assert!(!ws.path("r").exists(), "{flag}: nothing measured");
    }
    let ws = Ws::with_config(&common::config("", 5.0).replace("reps = 5\nwarmup = 1", "reps = 5\nwarmup = 1000000"));
    assert_error(
        &ws.run(&["build"], None),
        &["suites.synth.warmup", "1000000 is more than"],
    );
}

#[test]
fn absurd_durations_are_refused_in_records_and_stored_runs() {
    let ws = Ws::mock();
    let spec = ws.spec("huge.json", r#"{"phases": {"synthesis": 1e300}}"#);
    let o = ws.run(
        &run_args("synth", &["baseline="], "1", "r", &["--warmup", "0"]),
        Some(&spec),
    );
    assert_error(
        &o,
        &[
            "phase `synthesis` lasts 1.0",
            "e300 ms, more than a week",
            "absurd duration",
        ],
    );
    let o = ws.run(&run_args("synth", &["baseline="], "3", "ok", &["--warmup", "0"]), None);
    assert_eq!(o.code, 0, "{}", o.all());
    let text = std::fs::read_to_string(ws.path("ok/run.json")).unwrap();
    let mut run: serde_json::Value = serde_json::from_str(&text).unwrap();
    run["samples"][0]["phases"]["synthesis"] = 1e300.into();
    std::fs::create_dir_all(ws.path("forged")).unwrap();
    std::fs::write(ws.path("forged/run.json"), serde_json::to_string(&run).unwrap()).unwrap();
    assert_error(
        &ws.run(&["diff", "ok", "forged"], None),
        &["sample 0 has phase `synthesis`", "absurd duration"],
    );
}

#[test]
fn a_misspelt_threshold_phase_is_refused_naming_the_known_ones() {
    let cfg = common::config("", 5.0).replace(
        "[thresholds]\ndefault = 0.03",
        "[thresholds]\ndefault = 0.03\n\n[thresholds.phases]\nsynthesys = 0.05",
    );
    let ws = Ws::with_config(&cfg);
    assert_error(
        &ws.run(&["build"], None),
        &["thresholds.phases.synthesys", "is not a phase", "synthesis", "msm_b_g2"],
    );
    let ok = common::config("", 5.0).replace(
        "[thresholds]\ndefault = 0.03",
        "[thresholds]\ndefault = 0.03\n\n[thresholds.phases]\nsynthesis = 0.05",
    );
    let ws = Ws::with_config(&format!("runner_override = {:?}\n{ok}", common::MOCK));
    assert_eq!(ws.run(&["build"], None).code, 0);
}

#[cfg(unix)]
#[test]
fn output_files_are_readable_by_others() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Ws::mock();
    assert_eq!(ws.run(&run_args("synth", &["baseline="], "1", "r", &[]), None).code, 0);
    for f in ["r/run.json", "r/samples.csv", "r/summary.csv"] {
        let mode = std::fs::metadata(ws.path(f)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode & 0o044, 0o044 & mode.max(0o044), "{f}: {mode:o}");
        assert_ne!(mode, 0o600, "{f} is owner-only");
    }
}

#[test]
fn stored_outputs_are_ignored_by_git() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for p in ["baselines/t/base.json", "reports/bisect/state.json", "runs/x/run.json"] {
        let o = std::process::Command::new("git")
            .args(["check-ignore", "-q", "--no-index", p])
            .current_dir(&root)
            .status()
            .expect("git runs");
        assert!(o.success(), "{p} is not ignored by .gitignore");
    }
}

#[test]
fn baseline_show_refuses_path_characters_and_suggests_only_its_own_flags() {
    let ws = Ws::mock();
    for bad in ["../etc", "a/b", "x.y", "UPPER"] {
        let o = ws.run(&["baseline", "show", "base", "--testbed", bad], None);
        assert_error(&o, &["is not a testbed key"]);
    }
    assert_eq!(ws.run(&run_args("synth", &["baseline="], "3", "r", &[]), None).code, 0);
    assert_eq!(ws.run(&["baseline", "save", "base", "--from", "r"], None).code, 0);
    let o = ws.run(&["baseline", "show", "base", "--testbed", "other-9c-nogpu"], None);
    assert_error(
        &o,
        &["no baseline `base` for testbed `other-9c-nogpu`", "--testbed KEY"],
    );
    assert!(!o.all().contains("--allow-cross-testbed"), "{}", o.all());
}

#[test]
fn cpu_affinity_does_not_change_the_testbed_key() {
    let ws = Ws::mock();
    assert_eq!(ws.run(&run_args("synth", &["baseline="], "1", "a", &[]), None).code, 0);
    let o = std::process::Command::new("taskset")
        .args(["-c", "0", common::PHASELINE])
        .args(run_args("synth", &["baseline="], "1", "b", &[]))
        .current_dir(ws.dir.path())
        .env_remove("CARGO_TARGET_DIR")
        .output();
    let Ok(o) = o else {
        eprintln!("taskset is not installed; skipped");
        return;
    };
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (a, b) = (ws.run_json("a"), ws.run_json("b"));
    assert_eq!(a["testbed"]["key"], b["testbed"]["key"]);
    let cores = a["testbed"]["cpu_cores"].as_u64().unwrap();
    if cores > 1 {
        assert_eq!(b["testbed"]["cpus_allowed"], 1, "{}", b["testbed"]);
        assert!(a["testbed"].get("cpus_allowed").is_none(), "{}", a["testbed"]);
    }
}

#[test]
fn repetition_numbers_are_zero_based_in_every_output() {
    let ws = Ws::mock();
    let spec = ws.spec("crash.json", r#"{"behaviour": "crash"}"#);
    let o = ws.run(
        &run_args(
            "synth",
            &["baseline="],
            "1",
            "r",
            &["--warmup", "0", "--progress", "lines"],
        ),
        Some(&spec),
    );
    assert_eq!(o.code, 2, "{}", o.all());
    assert_eq!(ws.run_json("r")["samples"][0]["rep"], 0);
    assert!(o.all().contains("baseline rep 0:"), "failure line:\n{}", o.all());
    assert!(o.all().contains("· rep 0"), "progress line:\n{}", o.all());
    assert!(!o.all().contains("rep 1"), "{}", o.all());
    let csv = std::fs::read_to_string(ws.path("r/samples.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "rep").unwrap();
    assert_eq!(csv.lines().nth(1).unwrap().split(',').nth(col), Some("0"));
}
