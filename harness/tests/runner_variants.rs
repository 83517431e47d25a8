//! Variants that name a runner instead of features: a prebuilt runner and an
//! anchor (a copy of the mock that says it is supraseal-c2) in one run with
//! one of ours, on a GPU suite; refusals of runners that cannot run a case;
//! and `bisect flags` taking its variants from a folder of prebuilt runners.

mod common;

use common::{assert_error, config, Ws, MOCK};
use std::path::PathBuf;

const GPU_SUITE: &str = r#"
[suites.gpu]
mode = "prove"
backend = "cuda"
circuits = ["tiny"]
reps = 6
warmup = 0
timeout_s = 20
in_all = false
"#;

/// A copy of the mock at `rel` in the workspace, following `spec` (JSON).
fn runner(ws: &Ws, rel: &str, spec: &str) -> PathBuf {
    let p = ws.path(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::copy(MOCK, &p).unwrap();
    let name = p.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::write(p.with_file_name(format!("{name}.mock-spec.json")), spec).unwrap();
    p
}

fn ws() -> Ws {
    Ws::with_config(&format!("{}{GPU_SUITE}", config("", 20.0)))
}

#[test]
fn an_anchor_and_a_prebuilt_runner_are_variants_of_one_run() {
    let ws = ws();
    let ours = runner(
        &ws,
        "bin/ours",
        r#"{"backends": ["cpu", "cuda"], "features": ["cuda"]}"#,
    );
    let anchor = runner(
        &ws,
        "bin/anchor",
        r#"{"backends": ["supraseal"], "no_params": true, "fingerprint": "anchor-1",
            "phases": {"synthesis": 80.0}}"#,
    );
    let o = ws.run(
        &[
            "run",
            "--suite",
            "gpu",
            "--variant",
            &format!("ours@{}", ours.display()),
            "--variant",
            &format!("supraseal@{}", anchor.display()),
            "--out",
            "runs/mixed",
        ],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.all());
    let run = ws.run_json("runs/mixed");
    let samples = run["samples"].as_array().unwrap();
    for v in ["ours", "supraseal"] {
        let n = samples.iter().filter(|s| s["variant"] == v && s["ok"] == true).count();
        assert_eq!(n, 6, "{v}: {}", o.all());
    }
    // Both on the suite's case (`cuda`), so they are compared; the anchor proved on its own backend.
    assert!(samples.iter().all(|s| s["case"]["backend"] == "cuda"));
    let anchor_sample = samples.iter().find(|s| s["variant"] == "supraseal").unwrap();
    assert!(anchor_sample["phases"]["supraseal_prove"].as_f64().unwrap() > 0.0);
    assert!(anchor_sample["phases"].get("msm_l").is_none());
    let built = run["variants"].as_array().unwrap();
    let fp: Vec<&str> = built.iter().map(|b| b["fingerprint"].as_str().unwrap()).collect();
    assert!(fp.contains(&"anchor-1"), "{fp:?}");
    let ours_features = &built.iter().find(|b| b["variant"]["name"] == "ours").unwrap()["variant"]["features"];
    assert_eq!(
        ours_features,
        &serde_json::json!(["cuda"]),
        "a given runner's features are its own"
    );
    // The comparison judges the anchor's synthesis (80 ms against 50 ms) as a change.
    let c = ws.run(&["compare", "runs/mixed", "--variants", "ours,supraseal"], None);
    assert_eq!(c.code, 1, "{}", c.all());
    let row = c.stdout.lines().find(|l| l.contains("synthesis")).unwrap_or_default();
    assert!(row.contains("regressed"), "{}", c.all());
}

#[test]
fn runners_that_cannot_run_a_case_are_refused_before_measuring() {
    let ws = ws();
    let anchor = runner(&ws, "bin/anchor", r#"{"backends": ["supraseal"], "no_params": true}"#);
    let cpu_only = runner(&ws, "bin/cpu", r#"{"backends": ["cpu"]}"#);
    // An anchor cannot synthesize alone, and runs no `cpu` case.
    for suite in ["synth", "e2e"] {
        let o = ws.run(
            &["run", "--suite", suite, "--variant", &format!("a@{}", anchor.display())],
            None,
        );
        assert_error(&o, &["variant `a` cannot run case", "supraseal"]);
    }
    // A CPU-only runner is not silently run on the CPU for a GPU case.
    let o = ws.run(
        &[
            "run",
            "--suite",
            "gpu",
            "--variant",
            &format!("c@{}", cpu_only.display()),
        ],
        None,
    );
    assert_error(&o, &["runs backends [cpu], not `cuda`"]);
    // Nothing makes the parameters when only anchors run a proving suite.
    let gpu_anchor = runner(&ws, "bin/anchor2", r#"{"backends": ["supraseal"], "no_params": true}"#);
    let o = ws.run(
        &[
            "run",
            "--suite",
            "gpu",
            "--variant",
            &format!("a@{}", gpu_anchor.display()),
        ],
        None,
    );
    assert_error(&o, &["makes parameter files"]);
    // A file that is not a runner, and one that is not there.
    let fake = ws.path("bin/not-a-runner");
    std::fs::write(&fake, "#!/bin/sh\necho hello\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let o = ws.run(
        &["run", "--suite", "gpu", "--variant", &format!("x@{}", fake.display())],
        None,
    );
    assert_error(&o, &["not a runner's info"]);
    let o = ws.run(&["run", "--suite", "gpu", "--variant", "x@bin/missing-runner"], None);
    assert_error(&o, &["missing-runner"]);
}

#[test]
fn bisect_flags_takes_its_variants_from_a_folder_of_prebuilt_runners() {
    let ws = ws();
    let sets: [&[&str]; 4] = [&[], &["smallvec"], &["presize"], &["presize", "smallvec"]];
    for (i, f) in sets.iter().enumerate() {
        let spec = serde_json::json!({
            "features": f,
            "effects": {"presize": {"synthesis": 1.6}},
            "noise": 0.005,
            "fingerprint": format!("prebuilt-{i}"),
        });
        runner(&ws, &format!("runners/r{i}"), &spec.to_string());
    }
    let bisect = |dir: &str| {
        ws.run(
            &[
                "bisect",
                "flags",
                "--bad",
                "smallvec,presize",
                "--suite",
                "e2e",
                "--metric",
                "total",
                "--runners",
                dir,
            ],
            None,
        )
    };
    let o = bisect("runners");
    assert_eq!(o.code, 1, "a located regression exits 1: {}", o.all());
    assert!(o.stdout.contains("presize"), "{}", o.all());
    let culprit_lines: Vec<&str> = o
        .stdout
        .lines()
        .filter(|l| l.contains("smallvec") && l.contains("culprit"))
        .collect();
    assert!(culprit_lines.is_empty(), "smallvec is no culprit: {culprit_lines:?}");
    // Every measured variant was a prebuilt runner: nothing was built.
    assert!(!ws.path("target/runners").exists(), "{}", o.all());
    // A folder without every feature set is refused before anything is measured.
    std::fs::remove_file(ws.path("runners/r3")).unwrap();
    assert_error(
        &bisect("runners"),
        &["lacks 1 of the 4 feature sets", "[presize,smallvec]"],
    );
    // Two runners of one feature set are refused.
    runner(&ws, "runners/r3", r#"{"features": ["presize"]}"#);
    assert_error(&bisect("runners"), &["both have features [presize]"]);
}
