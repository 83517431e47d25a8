//! `phaseline nightly` end to end with the mock runner: the first night saves
//! the baseline, a clean night exits 0, a slowed night exits 1 with bisect
//! steps naming the baseline's commit, `--promote` replaces the baseline and
//! keeps the previous one, `--require-gpu` refuses a machine without a GPU.

mod common;
use common::{assert_error, git, Out, Ws};
use serde_json::Value;

/// A mock workspace in a git repository with one commit; returns it and the commit.
fn repo() -> (Ws, String) {
    let ws = Ws::mock();
    git(ws.dir.path(), &["init", "-q"]);
    git(ws.dir.path(), &["add", "."]);
    git(ws.dir.path(), &["commit", "-q", "-m", "first"]);
    let head = git(ws.dir.path(), &["rev-parse", "HEAD"]);
    (ws, head)
}

/// One night into `out` with the mock following `spec` (JSON). The mock
/// override is one runner for every night, and a change of its spec stands
/// for a change of the code, so these nights judge against the baseline's
/// stored samples (`--stored-reference`); `nightly_reference.rs` tests the
/// same-sitting reference with runners in the cache.
fn night(ws: &Ws, out: &str, spec: &str, extra: &[&str]) -> Out {
    let spec = ws.spec(&format!("{out}.spec.json"), spec);
    let mut args = vec![
        "nightly",
        "--reps",
        "8",
        "--progress",
        "lines",
        "--stored-reference",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    ws.run(&args, Some(&spec))
}

fn json(ws: &Ws, rel: &str) -> Value {
    let text = std::fs::read_to_string(ws.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_json::from_str(&text).expect("JSON")
}

const CALM: &str = r#"{"seed": 1, "noise": 0.01}"#;
const CALM2: &str = r#"{"seed": 2, "noise": 0.01}"#;
/// msm_l 40 -> 48 ms (+20%) in every variant.
const SLOW: &str = r#"{"seed": 3, "noise": 0.01, "phases": {"msm_l": 48.0}}"#;

fn baseline_file(ws: &Ws, n: &Value, name: &str) -> std::path::PathBuf {
    ws.path(&format!("baselines/{}/{name}.json", n["testbed"].as_str().unwrap()))
}

#[test]
fn first_night_clean_night_and_regression() {
    let (ws, first) = repo();
    let o = night(&ws, "n1", CALM, &[]);
    assert_eq!(o.code, 0, "{}", o.all());
    let n1 = json(&ws, "n1/nightly.json");
    let key = n1["testbed"].as_str().unwrap().to_string();
    assert!(
        o.stdout.contains(&format!(
            "first night: this run is now baseline nightly of testbed {key}"
        )),
        "{}",
        o.stdout
    );
    assert_eq!(n1["first_night"], true);
    assert_eq!(n1["exit_code"], 0);
    assert_eq!(n1["commit"], first.as_str());
    assert_eq!(n1["baseline"]["commit"], first.as_str());
    let stored = json(&ws, &format!("baselines/{key}/nightly.json"));
    assert_eq!(stored["run"]["id"], json(&ws, "n1/run/run.json")["id"]);
    // The default [nightly]: synth and e2e, baseline and all.
    let cases: Vec<String> = stored["run"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["suite"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(cases, ["synth", "e2e"]);
    assert_eq!(stored["run"]["variants"].as_array().unwrap().len(), 2);
    assert!(ws.path("n1/report/report.html").is_file());
    assert!(std::fs::read_to_string(ws.path("n1/compare.md"))
        .unwrap()
        .contains("first night"));

    // Same distribution, another seed: nothing regresses.
    let o = night(&ws, "n2", CALM2, &[]);
    assert_eq!(o.code, 0, "{}", o.all());
    let n2 = json(&ws, "n2/nightly.json");
    assert_eq!(n2["first_night"], false);
    assert_eq!(n2["exit_code"], 0);
    assert_eq!(n2["verdicts"]["regressed"], 0);
    let rows = json(&ws, "n2/compare.json")["rows"].as_array().unwrap().len();
    let counted: u64 = ["regressed", "improved", "unchanged", "inconclusive"]
        .iter()
        .map(|k| n2["verdicts"][k].as_u64().unwrap())
        .sum();
    assert_eq!(counted as usize, rows);
    assert!(n2["verdicts"]["unchanged"].as_u64().unwrap() > 0, "{n2}");
    let md = std::fs::read_to_string(ws.path("n2/compare.md")).unwrap();
    assert!(
        md.contains("| variant | case | phase |") && md.contains("msm_l"),
        "{md}"
    );
    assert!(ws.path("n2/report/report.html").is_file());
    assert_eq!(n2["next_steps"].as_array().unwrap().len(), 0);
    // How busy the rest of the host was, over every process of the night.
    let host = &n2["host"];
    assert!(host["samples"].as_u64().unwrap() > 0, "{host}");
    let mean = host["mean_other_cpus"].as_f64().unwrap();
    assert!(
        mean >= 0.0 && mean <= host["max_other_cpus"].as_f64().unwrap(),
        "{host}"
    );
    assert!(o.stdout.contains("nightly: host: other processes kept"), "{}", o.all());

    // A later commit makes msm_l 20% slower: exit 1 and the bisect steps.
    std::fs::write(ws.path("prover/lib.rs"), "pub fn f() { let _ = 1; }\n").unwrap();
    git(ws.dir.path(), &["commit", "-q", "-am", "slower"]);
    let second = git(ws.dir.path(), &["rev-parse", "HEAD"]);
    let o = night(&ws, "n3", SLOW, &[]);
    assert_eq!(o.code, 1, "{}", o.all());
    let n3 = json(&ws, "n3/nightly.json");
    assert_eq!(n3["exit_code"], 1);
    assert_eq!(n3["commit"], second.as_str());
    assert_eq!(n3["baseline"]["commit"], first.as_str());
    let regressed: Vec<String> = n3["regressions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{}/{}", r["variant"].as_str().unwrap(), r["phase"].as_str().unwrap()))
        .collect();
    assert!(
        regressed.contains(&"baseline/msm_l".to_string()) && regressed.contains(&"all/msm_l".to_string()),
        "{regressed:?}"
    );
    assert!(
        regressed.iter().all(|r| r.ends_with("/msm_l") || r.ends_with("/total")),
        "{regressed:?}"
    );
    assert_eq!(n3["verdicts"]["regressed"].as_u64().unwrap() as usize, regressed.len());
    let steps: Vec<String> = n3["next_steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    let bisect = format!(
        "git bisect start {second} {first} && git bisect run phaseline bisect oracle --baseline nightly \
         --baseline-variant baseline --suite e2e --circuit tiny --metric msm_l; git bisect reset"
    );
    assert!(steps.iter().any(|s| s.contains(&bisect)), "{steps:#?}");
    assert!(
        steps
            .iter()
            .any(|s| s
                .contains("phaseline bisect flags --bad presize,smallvec --suite e2e --circuit tiny --metric msm_l")),
        "{steps:#?}"
    );
    assert!(o.stdout.contains(&bisect), "{}", o.stdout);
    // The printed oracle judges this checkout: bad while msm_l is slow, good with the
    // timings of the baseline night (with another seed the mock sits 2% off and the
    // oracle rightly answers 125, inconclusive at its repetition cap).
    let oracle: Vec<&str> = bisect
        .split("git bisect run phaseline ")
        .nth(1)
        .and_then(|r| r.split(';').next())
        .unwrap()
        .split_whitespace()
        .chain(["--runner", common::MOCK])
        .collect();
    let slow = ws.spec("oracle-slow.json", SLOW);
    let o = ws.run(&oracle, Some(&slow));
    assert_eq!(o.code, 1, "{}", o.all());
    assert!(o.all().contains("bad (`msm_l`"), "{}", o.all());
    let calm = ws.spec("oracle-calm.json", CALM);
    let o = ws.run(&oracle, Some(&calm));
    assert_eq!(o.code, 0, "{}", o.all());
    // The baseline is still the first night's.
    assert_eq!(
        json(&ws, &format!("baselines/{key}/nightly.json"))["run"]["id"],
        json(&ws, "n1/run/run.json")["id"]
    );
    assert!(ws.temp_leftovers().is_empty(), "{:?}", ws.temp_leftovers());
}

#[test]
fn promote_replaces_after_a_clean_night_and_refuses_after_a_regression() {
    let (ws, _) = repo();
    assert_eq!(night(&ws, "p1", CALM, &[]).code, 0);
    let o = night(&ws, "p2", CALM2, &["--promote"]);
    assert_eq!(o.code, 0, "{}", o.all());
    let n2 = json(&ws, "p2/nightly.json");
    assert_eq!(n2["promoted"], true);
    let id = |dir: &str| json(&ws, &format!("{dir}/run/run.json"))["id"].clone();
    let now: Value =
        serde_json::from_str(&std::fs::read_to_string(baseline_file(&ws, &n2, "nightly")).unwrap()).unwrap();
    assert_eq!(now["run"]["id"], id("p2"));
    let prev_file = baseline_file(&ws, &n2, "nightly-prev");
    assert_eq!(n2["previous_baseline"], prev_file.display().to_string().as_str());
    let prev: Value = serde_json::from_str(&std::fs::read_to_string(&prev_file).unwrap()).unwrap();
    assert_eq!(prev["run"]["id"], id("p1"));
    assert_eq!(prev["name"], "nightly-prev");
    // The kept baseline is usable by name.
    let o = ws.run(&["compare", "p2/run", "--baseline", "nightly-prev"], None);
    assert_eq!(o.code, 0, "{}", o.all());

    let o = night(&ws, "p3", SLOW, &["--promote"]);
    assert_eq!(o.code, 1, "{}", o.all());
    assert!(o.stdout.contains("--promote refused"), "{}", o.stdout);
    let n3 = json(&ws, "p3/nightly.json");
    assert_eq!(n3["promoted"], false);
    let now: Value =
        serde_json::from_str(&std::fs::read_to_string(baseline_file(&ws, &n3, "nightly")).unwrap()).unwrap();
    assert_eq!(
        now["run"]["id"],
        id("p2"),
        "a regressed night never becomes the baseline"
    );
}

#[test]
fn refusals_failed_samples_and_the_default_out() {
    let (ws, _) = repo();
    let o = night(&ws, "g", CALM, &["--require-gpu"]);
    if phaseline::gpu::model_and_driver().is_none() {
        assert_error(&o, &["--require-gpu", "no usable GPU", "CPU-only"]);
    } else {
        // A GPU host: the default CPU suites are refused all the same.
        assert_error(&o, &["--require-gpu", "cuda backend"]);
    }
    assert!(!ws.path("g").exists(), "nothing measured");
    assert!(!ws.path("baselines").exists(), "no baseline saved");

    assert_error(&night(&ws, "x", CALM, &["--suite", "nope"]), &["unknown suite `nope`"]);
    assert_error(&night(&ws, "x", CALM, &["--baseline", "a.b"]), &["baseline name `a.b`"]);
    assert_error(
        &night(&ws, "x", CALM, &["--budget", "soon"]),
        &["--budget `soon`", "e.g. 3m"],
    );

    assert_eq!(night(&ws, "b1", CALM, &[]).code, 0);
    // Nothing in common with the baseline: an error, never a pass with nothing judged.
    assert_error(
        &night(&ws, "b4", CALM2, &["--variant", "other="]),
        &["nothing in common", "baseline @ synth/tiny", "other @ synth/tiny"],
    );
    assert!(!ws.path("b4").exists());
    // Partly new: judged where possible, the rest named.
    let o = night(&ws, "b5", CALM2, &["--variant", "baseline", "--variant", "new=presize"]);
    assert_eq!(o.code, 0, "{}", o.all());
    let m = json(&ws, "b5/nightly.json")["message"].as_str().unwrap().to_string();
    assert!(m.contains("not in the baseline, so not judged: variant new"), "{m}");
    // A variant whose features changed since the baseline is named as the suspect.
    let o = night(&ws, "b6", SLOW, &["--variant", "baseline", "--variant", "all=presize"]);
    assert_eq!(o.code, 1, "{}", o.all());
    let steps = json(&ws, "b6/nightly.json")["next_steps"].to_string();
    assert!(
        steps.contains(
            "variant `all` was built with other features than in the baseline (added: [], removed: [smallvec])"
        ),
        "{steps}"
    );
    // An unreadable stored baseline stops the night and is left as it was.
    let file = baseline_file(&ws, &json(&ws, "b1/nightly.json"), "nightly");
    std::fs::write(&file, "{\"schema_version\": 1, \"name\"").unwrap();
    assert_error(&night(&ws, "b2", CALM2, &[]), &["is truncated"]);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "{\"schema_version\": 1, \"name\""
    );
    assert!(!ws.path("b2").exists());
    // An --out that already holds a nightly is refused.
    assert_error(&night(&ws, "b1", CALM2, &[]), &["already holds a nightly"]);

    // Failed samples: exit 2, nightly.json says so, no baseline is saved from them.
    let (ws, _) = repo();
    let o = night(&ws, "f", r#"{"behaviour": "crash"}"#, &["--suite", "synth"]);
    assert_error(&o, &["samples failed"]);
    let n = json(&ws, "f/nightly.json");
    assert_eq!(n["exit_code"], 2);
    assert!(n["message"].as_str().unwrap().contains("samples failed"), "{n}");
    assert!(!baseline_file(&ws, &n, "nightly").exists());

    // Without --out: a new folder under runs_dir holding the run and the outputs.
    let (ws, _) = repo();
    let spec = ws.spec("calm.json", CALM);
    let o = ws.run(&["nightly", "--reps", "8", "--progress", "lines"], Some(&spec));
    assert_eq!(o.code, 0, "{}", o.all());
    let dirs: Vec<_> = std::fs::read_dir(ws.path("runs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let name = dirs[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("nightly-"), "{name}");
    let n: Value = serde_json::from_str(&std::fs::read_to_string(dirs[0].join("nightly.json")).unwrap()).unwrap();
    assert_eq!(n["first_night"], true);
    let run_path = n["paths"]["run"].as_str().unwrap();
    assert!(run_path.ends_with(&format!("{name}/run")), "{run_path}");
    assert!(dirs[0].join("run/run.json").is_file() && dirs[0].join("report/report.html").is_file());
}

/// The host counters belong to a runner process: in `block` mode, where one
/// process makes every repetition of a (variant, case), they go on its first
/// sample only, so a night's host summary weighs each process once.
#[test]
fn host_counters_go_once_on_each_process() {
    let ws = Ws::mock();
    let spec = ws.spec("spec.json", "{}");
    let count = |interleave: &str| {
        let out = format!("r-{interleave}");
        let o = ws.run(
            &[
                "run",
                "--suite",
                "e2e",
                "--variant",
                "baseline",
                "--reps",
                "4",
                "--interleave",
                interleave,
                "--progress",
                "quiet",
                "--out",
                &out,
            ],
            Some(&spec),
        );
        assert_eq!(o.code, 0, "{}", o.all());
        let run = common::run_of(&ws.path(&out));
        let with = run
            .samples
            .iter()
            .filter(|s| s.counters.contains_key("host_other_cpus"))
            .count();
        (with, run.samples.len())
    };
    assert_eq!(count("block"), (1, 4), "one process, four repetitions");
    assert_eq!(count("alternate"), (4, 4), "a process for each repetition");
}
