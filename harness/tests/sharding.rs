//! Sharding end to end with the mock runner: `plan --shards 4`, four units run
//! as separate processes (one unit index from `--shard`, others from a
//! Kubernetes or Slurm variable), `merge`, then `compare` and `report` read
//! the merged run; its verdicts equal those of one unsharded run of the same
//! work. Bad manifests, out-of-range units and merges of other testbeds,
//! other plans, duplicate, overlapping or missing units end with exit 2.

mod common;
use common::{assert_error, config, Out, Ws, MOCK, PHASELINE};
use serde_json::Value;
use std::process::Command;

/// `all` (smallvec + presize) is 50% slower in `msm_l` and `synthesis`; the
/// noise is fixed by the seed, so both measurements see the same witnesses.
const SPEC: &str = r#"{"seed": 5, "noise": 0.01, "effects": {"smallvec": {"msm_l": 1.5, "synthesis": 1.5}}}"#;

/// A mock workspace whose two suites have two presets each: four cases.
fn ws() -> Ws {
    let cfg = config("", 20.0).replace("circuits = [\"tiny\"]", "circuits = [\"tiny\", \"small\"]");
    Ws::with_config(&format!("runner_override = {MOCK:?}\n{cfg}"))
}

const SELECTION: [&str; 10] = [
    "--suite",
    "synth",
    "--suite",
    "e2e",
    "--variant",
    "baseline",
    "--variant",
    "all",
    "--reps",
    "6",
];

fn plan(ws: &Ws, file: &str) -> Out {
    let mut args = vec!["plan", "--shards", "4", "--out", file];
    args.extend(SELECTION);
    ws.run(&args, None)
}

/// Runs unit `k` of `manifest` into `out`; `how` is `flag`, `k8s` or `slurm`.
fn shard_cmd(ws: &Ws, spec: &std::path::Path, manifest: &str, k: usize, how: &str, out: &str) -> Command {
    let mut c = Command::new(PHASELINE);
    c.current_dir(ws.dir.path())
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env("PHASELINE_MOCK_SPEC", spec)
        .args(["run", "--manifest", manifest, "--progress", "quiet", "--out", out]);
    match how {
        "k8s" => c.env("JOB_COMPLETION_INDEX", k.to_string()),
        "slurm" => c.env("SLURM_ARRAY_TASK_ID", k.to_string()),
        _ => c.args(["--shard", &k.to_string()]),
    };
    c
}

/// Plans four units and runs them as four processes at once, into `shards/K`.
fn run_shards(ws: &Ws, spec: &std::path::Path) {
    let o = plan(ws, "plan.json");
    assert_eq!(o.code, 0, "{}", o.all());
    let hows = ["flag", "k8s", "slurm", "flag"];
    let children: Vec<_> = (0..4)
        .map(|k| {
            shard_cmd(ws, spec, "plan.json", k, hows[k], &format!("shards/{k}"))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn a shard")
        })
        .collect();
    for (k, c) in children.into_iter().enumerate() {
        let o = c.wait_with_output().expect("shard ends");
        assert!(o.status.success(), "shard {k}: {}", String::from_utf8_lossy(&o.stderr));
    }
}

/// (variant, case, phase, verdict) of every row of `compare RUN --variants baseline,all`.
fn verdicts(ws: &Ws, run: &str) -> Vec<(String, String, String, String)> {
    let o = ws.run(
        &["compare", run, "--variants", "baseline,all", "--format", "json"],
        None,
    );
    assert_eq!(o.code, 1, "the planted slowdown is a regression:\n{}", o.all());
    let v: Value = serde_json::from_str(&o.stdout).expect("compare JSON");
    let mut rows: Vec<_> = v["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let s = |x: &Value| x.as_str().unwrap_or_default().to_string();
            let c = &r["case"];
            let case = format!("{}/{} x{}", s(&c["suite"]), s(&c["circuit"]), c["partitions"]);
            (s(&r["variant"]), case, s(&r["phase"]), s(&r["verdict"]))
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn four_shards_merged_judge_as_one_run() {
    let ws = ws();
    let spec = ws.spec("spec.json", SPEC);
    let mut whole = vec!["run", "--progress", "quiet", "--out", "whole"];
    whole.extend(SELECTION);
    let o = ws.run(&whole, Some(&spec));
    assert_eq!(o.code, 0, "{}", o.all());
    run_shards(&ws, &spec);
    let m: Value = serde_json::from_str(&std::fs::read_to_string(ws.path("plan.json")).unwrap()).unwrap();
    assert_eq!(m["schema_version"], 1);
    assert_eq!(m["units"].as_array().unwrap().len(), 4);
    let o = ws.run(
        &[
            "merge", "shards/0", "shards/1", "shards/2", "shards/3", "--out", "merged",
        ],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.all());
    let merged = ws.run_json("merged");
    assert_eq!(merged["cases"].as_array().unwrap().len(), 4);
    assert_eq!(
        merged["samples"].as_array().unwrap().len(),
        ws.run_json("whole")["samples"].as_array().unwrap().len()
    );
    let (a, b) = (verdicts(&ws, "whole"), verdicts(&ws, "merged"));
    assert_eq!(a, b, "sharded and unsharded verdicts differ");
    assert!(a.iter().any(|r| r.3 == "regressed" && r.2 == "msm_l"), "{a:?}");
    assert!(a.iter().any(|r| r.3 == "unchanged"), "{a:?}");
    let o = ws.run(&["report", "merged", "--out", "merged-report"], None);
    assert!(o.code == 0 || o.code == 1, "{}", o.all());
    assert!(ws.path("merged-report/report.html").is_file());
    // The GitHub Actions matrix of the plan: one entry per unit.
    let o = ws.run(
        &["plan", "--shards", "4", "--format", "gha-matrix", "--out", "p.json"],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.all());
    let x: Value = serde_json::from_str(o.stdout.trim()).expect("matrix JSON");
    assert_eq!(x["include"][3]["shard"], 3);
    assert!(ws.temp_leftovers().is_empty());
}

/// Rewrites `DIR/run.json` through `f`.
fn edit_run(ws: &Ws, dir: &str, f: impl FnOnce(&mut Value)) {
    let mut v = ws.run_json(dir);
    f(&mut v);
    std::fs::write(ws.path(dir).join("run.json"), v.to_string()).unwrap();
}

fn copy_run(ws: &Ws, from: &str, to: &str) {
    std::fs::create_dir_all(ws.path(to)).unwrap();
    std::fs::copy(ws.path(from).join("run.json"), ws.path(to).join("run.json")).unwrap();
}

#[test]
fn bad_plans_units_and_merges_are_refused() {
    let ws = ws();
    let spec = ws.spec("spec.json", SPEC);
    assert_error(&ws.run(&["plan", "--shards", "0"], None), &["--shards"]);
    assert_error(
        &ws.run(&["plan", "--shards", "2", "--format", "gha-matrix"], None),
        &["needs --out"],
    );
    std::fs::write(ws.path("garbage.json"), "{not json").unwrap();
    let o = shard_cmd(&ws, &spec, "garbage.json", 0, "flag", "x").output().unwrap();
    let out = |o: std::process::Output| Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert_error(&out(o), &["manifest", "not valid JSON"]);
    run_shards(&ws, &spec);
    let o = shard_cmd(&ws, &spec, "plan.json", 4, "flag", "x").output().unwrap();
    assert_error(&out(o), &["shard 4 is out of range", "4 units"]);
    let o = shard_cmd(&ws, &spec, "plan.json", 9, "slurm", "x").output().unwrap();
    assert_error(&out(o), &["out of range"]);
    let o = ws.run(&["run", "--manifest", "plan.json", "--out", "x"], Some(&spec));
    assert_error(&o, &["no shard index", "JOB_COMPLETION_INDEX"]);
    let o = ws.run(
        &["run", "--manifest", "plan.json", "--shard", "0", "--suite", "e2e"],
        Some(&spec),
    );
    assert_error(&o, &["phaseline plan"]);
    // A manifest changed after planning.
    let text = std::fs::read_to_string(ws.path("plan.json")).unwrap();
    std::fs::write(ws.path("edited.json"), text.replacen("\"small\"", "\"tiny\"", 1)).unwrap();
    let o = shard_cmd(&ws, &spec, "edited.json", 0, "flag", "x").output().unwrap();
    assert_error(&out(o), &["edited.json"]);

    let all = ["shards/0", "shards/1", "shards/2", "shards/3"];
    let merge = |dirs: &[&str]| {
        let mut a = vec!["merge"];
        a.extend_from_slice(dirs);
        a.extend(["--out", "m"]);
        ws.run(&a, None)
    };
    assert_error(&merge(&all[..3]), &["missing units 3"]);
    assert_error(
        &merge(&["shards/0", "shards/1", "shards/2", "shards/3", "shards/2"]),
        &["unit 2 is given twice"],
    );
    // Unit 1 replaced by a copy of unit 0 that claims to be unit 1: overlapping shards.
    copy_run(&ws, "shards/0", "overlap");
    edit_run(&ws, "overlap", |v| {
        v["provenance"]["settings"]["shard.index"] = "1".into()
    });
    assert_error(
        &merge(&["shards/0", "overlap", "shards/2", "shards/3"]),
        &["in two shards"],
    );
    // Another testbed (its key derived from its fields, as a real one's is).
    copy_run(&ws, "shards/3", "elsewhere");
    edit_run(&ws, "elsewhere", |v| {
        v["testbed"]["cpu_model"] = "Other CPU".into();
        let t: phaseline::model::Testbed = serde_json::from_value(v["testbed"].clone()).unwrap();
        v["testbed"]["key"] = phaseline::testbed::derived_key(&t).into();
    });
    assert_error(
        &merge(&["shards/0", "shards/1", "shards/2", "elsewhere"]),
        &["testbed differs"],
    );
    // A unit of another plan, and a run that is no shard.
    let o = ws.run(
        &[
            "plan",
            "--shards",
            "4",
            "--out",
            "plan2.json",
            "--suite",
            "synth",
            "--suite",
            "e2e",
        ],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.all());
    let o = shard_cmd(&ws, &spec, "plan2.json", 3, "flag", "other")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_error(&merge(&["shards/0", "shards/1", "shards/2", "other"]), &["plan"]);
    assert_error(&merge(&["plan.json"]), &["run"]);
    assert!(!ws.path("m/run.json").exists());
}
