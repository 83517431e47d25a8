//! A night's same-sitting reference, with runners in the fingerprint-keyed
//! cache as a GPU host without cargo has them: copies of the mock runner, each
//! with its own behaviour (`mock-spec.json` beside it). The baseline's runner
//! is measured interleaved with tonight's, so a host that got slower between
//! nights reads as no change, while a slower runner is caught; without the
//! baseline's runner the stored samples are the reference, and the outputs
//! say which was used. Undecided rows are settled with more repetitions, and
//! the budget rule decides what a night ends with when its budget runs out.

mod common;
use common::{config, git, Out, Ws, MOCK};
use phaseline_fingerprint::{fingerprint, BuildKey};
use serde_json::Value;

/// A workspace without a runner override, in a git repository.
fn repo(extra_build: &str, thresholds: &str) -> Ws {
    let cfg = config(extra_build, 20.0).replace("[thresholds]\ndefault = 0.03", thresholds);
    let ws = Ws::with_config(&cfg);
    git(ws.dir.path(), &["init", "-q"]);
    git(ws.dir.path(), &["add", "."]);
    git(ws.dir.path(), &["commit", "-q", "-m", "first"]);
    ws
}

/// The fingerprint the checkout gives the `baseline` variant (no features) now.
fn fp_now(ws: &Ws) -> String {
    let key = BuildKey {
        features: vec![],
        profile: "release".into(),
        cuda_archs: String::new(),
    };
    fingerprint(ws.dir.path(), &key).expect("fingerprint")
}

/// Puts a mock runner reporting `fp` into the runner cache, behaving as `spec` says.
fn install(ws: &Ws, fp: &str, spec: &str) {
    let dir = ws.path(&format!("target/runners/{fp}"));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("phaseline-prover");
    if !bin.exists() {
        std::fs::copy(MOCK, &bin).unwrap();
    }
    let mut v: Value = serde_json::from_str(spec).unwrap();
    v["fingerprint"] = Value::String(fp.into());
    std::fs::write(dir.join("mock-spec.json"), v.to_string()).unwrap();
}

fn night(ws: &Ws, out: &str, extra: &[&str]) -> Out {
    let mut args = vec![
        "nightly",
        "--suite",
        "e2e",
        "--variant",
        "baseline",
        "--reps",
        "8",
        "--progress",
        "lines",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    ws.run(&args, None)
}

fn json(ws: &Ws, rel: &str) -> Value {
    let text = std::fs::read_to_string(ws.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_json::from_str(&text).expect("JSON")
}

fn regressed_phases(n: &Value) -> Vec<String> {
    n["regressions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["phase"].as_str().unwrap().to_string())
        .collect()
}

const CALM: &str = r#"{"seed": 1, "noise": 0.01, "fresh_noise": true}"#;
/// The same runner on a host that got 30% slower in every phase.
const SLOW_HOST: &str = r#"{"seed": 1, "noise": 0.01, "fresh_noise": true,
    "phases": {"synthesis": 65, "ntt_h": 31.2, "intt": 10.4, "coset_ntt": 10.4, "coset_intt": 10.4,
               "msm_h": 39, "msm_l": 52, "msm_a": 45.5, "msm_b_g1": 19.5, "msm_b_g2": 58.5,
               "assemble": 2.6, "verify": 13}}"#;
/// A runner whose msm_l is 10% slower (40 -> 44 ms), on the slower host.
const SLOW_CODE_SLOW_HOST: &str = r#"{"seed": 2, "noise": 0.01, "fresh_noise": true,
    "phases": {"synthesis": 65, "ntt_h": 31.2, "intt": 10.4, "coset_ntt": 10.4, "coset_intt": 10.4,
               "msm_h": 39, "msm_l": 57.2, "msm_a": 45.5, "msm_b_g1": 19.5, "msm_b_g2": 58.5,
               "assemble": 2.6, "verify": 13}}"#;

fn commit_change(ws: &Ws, text: &str) -> String {
    std::fs::write(ws.path("prover/lib.rs"), text).unwrap();
    git(ws.dir.path(), &["commit", "-q", "-am", "change"]);
    fp_now(ws)
}

#[test]
fn same_sitting_reference_cancels_host_drift_and_catches_the_runner() {
    let ws = repo("cargo = \"false\"", "[thresholds]\ndefault = 0.03");
    let fp0 = fp_now(&ws);
    install(&ws, &fp0, CALM);
    let o = night(&ws, "n1", &[]);
    assert_eq!(o.code, 0, "{}", o.all());
    assert_eq!(json(&ws, "n1/nightly.json")["first_night"], true);

    // The host is 30% slower tonight; the code did not change (same runner).
    install(&ws, &fp0, SLOW_HOST);
    let o = night(&ws, "n2", &[]);
    assert_eq!(o.code, 0, "host drift read as a change:\n{}", o.all());
    let n2 = json(&ws, "n2/nightly.json");
    assert_eq!(n2["reference"][0]["kind"], "runner", "{n2}");
    assert_eq!(n2["reference"][0]["how"], "cached", "{n2}");
    assert_eq!(n2["verdicts"]["regressed"], 0, "{n2}");
    let run = ws.run_json("n2/run");
    let names: Vec<&str> = run["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["variant"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["baseline", "baseline@ref"]);
    assert!(std::fs::read_to_string(ws.path("n2/compare.md"))
        .unwrap()
        .contains("against the baseline's runner"));
    // Judged against the stored samples instead, the same night is a false alarm:
    // what the same-sitting reference exists for.
    let o = night(&ws, "n2s", &["--stored-reference"]);
    assert_eq!(o.code, 1, "{}", o.all());
    let n2s = json(&ws, "n2s/nightly.json");
    assert_eq!(n2s["reference"][0]["kind"], "stored");
    assert!(regressed_phases(&n2s).len() > 3, "{n2s}");

    // A commit makes msm_l 10% slower: caught, and only msm_l (and the total).
    let fp1 = commit_change(&ws, "pub fn f() { let _ = 1; }\n");
    assert_ne!(fp0, fp1);
    install(&ws, &fp1, SLOW_CODE_SLOW_HOST);
    let o = night(&ws, "n3", &[]);
    assert_eq!(o.code, 1, "{}", o.all());
    let n3 = json(&ws, "n3/nightly.json");
    assert_eq!(n3["reference"][0]["fingerprint"], fp0.as_str());
    let phases = regressed_phases(&n3);
    assert!(phases.contains(&"msm_l".to_string()), "{n3}");
    assert!(phases.iter().all(|p| p == "msm_l" || p == "total"), "{phases:?}");
    // The stored baseline holds no reference samples and is unchanged.
    let key = n3["testbed"].as_str().unwrap();
    let stored = json(&ws, &format!("baselines/{key}/nightly.json"));
    assert_eq!(stored["run"]["id"], ws.run_json("n1/run")["id"]);

    // The baseline's runner is gone and cannot be built (cargo is `false` here):
    // the stored samples are the reference, and the outputs say why.
    std::fs::remove_dir_all(ws.path(&format!("target/runners/{fp0}"))).unwrap();
    let o = night(&ws, "n4", &[]);
    let n4 = json(&ws, "n4/nightly.json");
    assert_eq!(n4["reference"][0]["kind"], "stored", "{}", o.all());
    let how = n4["reference"][0]["how"].as_str().unwrap();
    assert!(
        how.contains("no reference runner") && how.contains("build of variant"),
        "{how}"
    );
    assert!(
        o.stdout.contains("against the baseline's stored samples"),
        "{}",
        o.stdout
    );
    assert!(ws.temp_leftovers().is_empty(), "{:?}", ws.temp_leftovers());
}

#[test]
fn undecided_rows_are_settled_with_more_repetitions() {
    let ws = repo("cargo = \"false\"", "[thresholds]\ndefault = 0.03");
    let fp0 = fp_now(&ws);
    // 6% noise: 8 repetitions a side cannot place a 12% slowdown beyond 3%.
    install(&ws, &fp0, r#"{"seed": 1, "noise": 0.06, "fresh_noise": true}"#);
    assert_eq!(night(&ws, "n1", &[]).code, 0);
    let fp1 = commit_change(&ws, "pub fn f() { let _ = 2; }\n");
    install(
        &ws,
        &fp1,
        r#"{"seed": 2, "noise": 0.06, "fresh_noise": true, "phases": {"msm_l": 44.8}}"#,
    );
    let o = night(&ws, "n2", &["--budget", "10m"]);
    assert_eq!(o.code, 1, "{}", o.all());
    let n2 = json(&ws, "n2/nightly.json");
    let settle = &n2["settle"];
    assert!(settle["rounds"].as_u64().unwrap() >= 1, "{settle}");
    assert!(settle["added_reps"].as_u64().unwrap() >= 8, "{settle}");
    // The night's alpha (0.05) is spent over its looks: half at the first, the rest split over
    // the planned rounds, never more than alpha in all.
    let planned = settle["planned_rounds"].as_u64().unwrap();
    assert!(planned >= settle["rounds"].as_u64().unwrap(), "{settle}");
    let levels: Vec<f64> = settle["look_levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_f64().unwrap())
        .collect();
    assert_eq!(levels.len() as u64, settle["rounds"].as_u64().unwrap() + 1, "{settle}");
    assert_eq!(levels[0], 0.025, "{settle}");
    assert!(
        levels[1..].iter().all(|&l| (l - 0.025 / planned as f64).abs() < 1e-12),
        "{settle}"
    );
    assert!(levels.iter().sum::<f64>() <= 0.05 + 1e-12, "{settle}");
    assert!(regressed_phases(&n2).contains(&"msm_l".to_string()), "{n2}");
    assert!(o.stdout.contains("settling:"), "{}", o.stdout);
    // The extra repetitions are in the run, interleaved with the reference's.
    let run = ws.run_json("n2/run");
    let reps = |v: &str| {
        run["samples"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["variant"] == v && s["warmup"] == false)
            .count()
    };
    assert!(
        reps("baseline") > 8 && reps("baseline") == reps("baseline@ref"),
        "{}",
        reps("baseline")
    );

    // With no budget left the same night cannot settle: rows stay undecided
    // and the night lists them with what they would need.
    let o = night(&ws, "n3", &["--budget", "1ms"]);
    let n3 = json(&ws, "n3/nightly.json");
    assert_eq!(n3["settle"]["rounds"], 0, "{}", o.all());
    // No round planned: the only look keeps the whole of alpha.
    assert_eq!(n3["settle"]["planned_rounds"], 0, "{n3}");
    assert_eq!(n3["settle"]["look_levels"][0], 0.05, "{n3}");
    assert_eq!(n3["settle"]["stopped"], "budget");
    let undecided = n3["settle"]["undecided"].as_array().unwrap();
    assert!(!undecided.is_empty(), "{n3}");
    assert!(undecided
        .iter()
        .all(|u| u["reps_needed"].is_u64() || u["reps_needed"].is_null()));
}

#[test]
fn budget_rule_counts_a_real_slowdown_whose_interval_reaches_into_the_band() {
    // msm_l's threshold 10%; the runner is 11.5% slower with 3% noise, and no
    // budget for more rounds: the interval lies above 1 but reaches into the
    // band, so the row is inconclusive by the verdict rule and the night's
    // budget rule counts it (median ratio beyond the threshold, significant).
    let ws = repo(
        "cargo = \"false\"",
        "[thresholds]\ndefault = 0.03\n\n[thresholds.phases]\nmsm_l = 0.10",
    );
    let fp0 = fp_now(&ws);
    install(&ws, &fp0, r#"{"seed": 11, "noise": 0.03}"#);
    assert_eq!(night(&ws, "n1", &[]).code, 0);
    let fp1 = commit_change(&ws, "pub fn f() { let _ = 3; }\n");
    install(&ws, &fp1, r#"{"seed": 12, "noise": 0.03, "phases": {"msm_l": 44.6}}"#);
    let o = night(&ws, "n2", &["--budget", "1ms"]);
    let cmp = json(&ws, "n2/compare.json");
    let row = cmp["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["phase"] == "msm_l")
        .unwrap()
        .clone();
    assert_eq!(o.code, 1, "{row}\n{}", o.all());
    assert_eq!(row["verdict"], "regressed", "{row}");
    assert!(row["note"].as_str().unwrap_or("").contains("budget rule"), "{row}");
    assert!(row["ci_low"].as_f64().unwrap() <= 1.10, "{row}");
    let n2 = json(&ws, "n2/nightly.json");
    assert!(n2["settle"]["budget_rule_regressions"].as_u64().unwrap() >= 1, "{n2}");
}
