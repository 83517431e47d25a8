//! `mode = "setup"` suites with the mock runner: the runner's `setup` is
//! measured per variant and case with the harness's statistics, and
//! `phaseline report` renders the setup phases; bad setup suites are refused.

mod common;
use common::*;

fn setup_config() -> String {
    format!(
        "runner_override = {:?}\n{}\n{}",
        MOCK,
        config("", 20.0),
        r#"
[suites.setup]
mode = "setup"
backend = "cpu"
circuits = ["tiny", "small"]
reps = 6
warmup = 1
timeout_s = 20
in_all = false

[suites.setup-gpu]
mode = "setup"
backend = "cuda"
circuits = ["small"]
reps = 3
warmup = 0
timeout_s = 20
in_all = false

[runners.bp]
backend = "bellperson"
"#
    )
}

const SETUP_PHASES: [&str; 6] = [
    "record_shape",
    "qap_eval",
    "fixed_base_g1",
    "fixed_base_g2",
    "normalize",
    "write",
];

#[test]
fn setup_suite_is_measured_per_variant_and_case_and_reported() {
    let ws = Ws::with_config(&setup_config());
    // A1 halves the G1 fixed base; everything else is as fast.
    let spec = ws.spec(
        "spec.json",
        r#"{"noise": 0.01, "effects": {"smallvec": {"fixed_base_g1": 0.5}}}"#,
    );
    let o = ws.run(
        &[
            "run",
            "--suite",
            "setup",
            "--variant",
            "baseline",
            "--variant",
            "A1",
            "--progress",
            "lines",
            "--out",
            "r",
        ],
        Some(&spec),
    );
    assert_eq!(o.code, 0, "{}", o.all());
    let run = phaseline::rundir::load_run(&ws.path("r")).expect("a run directory");
    // 2 cases x 2 variants x (1 warm-up + 6 repetitions), one process each.
    assert_eq!(run.samples.len(), 28);
    assert_eq!(run.cases.len(), 2);
    for s in &run.samples {
        assert!(s.ok, "{:?}", s.error);
        assert_eq!(s.verified, None, "a setup proves nothing");
        for p in SETUP_PHASES.iter().chain(["total"].iter()) {
            assert!(s.phases.contains_key(*p), "{p} missing from {:?}", s.phases);
        }
    }
    // Every measured setup is its own process with its own noise.
    let g1: Vec<f64> = run
        .samples
        .iter()
        .filter(|s| !s.warmup && s.variant == "baseline" && s.case.circuit == "small")
        .map(|s| s.phases["fixed_base_g1"])
        .collect();
    assert_eq!(g1.len(), 6);
    assert!(g1.iter().any(|x| *x != g1[0]), "{g1:?}");
    assert!(g1.iter().all(|x| (x / 600.0 - 1.0).abs() < 0.1), "{g1:?}");

    let rep = ws.run(&["report", "r", "--out", "rep"], None);
    assert_eq!(rep.code, 0, "{}", rep.all());
    let md = std::fs::read_to_string(ws.path("rep/summary.md")).expect("summary.md");
    for p in SETUP_PHASES {
        // Markdown escapes the underscores.
        assert!(md.contains(&p.replace('_', "\\_")), "summary.md lacks {p}:\n{md}");
    }
    // End to end per case and variant; a setup has no prove part.
    assert!(
        md.contains("End to end, median ms:") && !md.contains("prove part"),
        "{md}"
    );
    assert!(md.contains("| setup/small x1 cpu | end to end |"), "{md}");
    let html = std::fs::read_to_string(ws.path("rep/report.html")).expect("report.html");
    assert!(
        html.contains("fixed_base_g1") && html.contains("<svg"),
        "no setup chart"
    );
    let csv = std::fs::read_to_string(ws.path("rep/comparison-a1-vs-baseline.csv")).expect("comparison csv");
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |n: &str| {
        head.iter()
            .position(|h| *h == n)
            .unwrap_or_else(|| panic!("no {n} in {head:?}"))
    };
    let (phase, verdict, circuit) = (col("phase"), col("verdict"), col("circuit"));
    let row = |c: &str, p: &str| -> String {
        csv.lines()
            .skip(1)
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|r| r[circuit] == c && r[phase] == p)
            .map(|r| r[verdict].to_string())
            .unwrap_or_else(|| panic!("no row {c}/{p} in\n{csv}"))
    };
    assert_eq!(row("small", "fixed_base_g1"), "improved");
    assert_eq!(row("small", "total"), "improved");
    assert_eq!(row("small", "qap_eval"), "unchanged");
}

#[test]
fn setup_on_the_gpu_backend_and_bellperson_generator_records() {
    let ws = Ws::with_config(&setup_config());
    let spec = ws.spec("spec.json", r#"{"backends": ["cpu", "cuda", "bellperson"]}"#);
    let o = ws.run(
        &[
            "run",
            "--suite",
            "setup-gpu",
            "--variant",
            "baseline",
            "--variant",
            "bp",
            "--progress",
            "quiet",
            "--out",
            "r",
        ],
        Some(&spec),
    );
    assert_eq!(o.code, 0, "{}", o.all());
    let run = ws.run_json("r");
    let samples = run["samples"].as_array().expect("samples");
    assert_eq!(samples.len(), 6);
    for s in samples {
        assert_eq!(s["ok"], true, "{s}");
        assert_eq!(s["case"]["backend"], "cuda");
        // Ours on the suite's backend; the bellperson variant runs its generator.
        let own = if s["variant"] == "bp" {
            "bellperson_generate"
        } else {
            "fixed_base_g1"
        };
        assert!(s["phases"][own].as_f64().is_some_and(|x| x > 0.0), "{s}");
        assert!(s["phases"]["write"].as_f64().is_some_and(|x| x > 0.0), "{s}");
    }
}

#[test]
fn bad_setup_suites_and_runners_are_refused_with_a_clear_error() {
    let ws = Ws::with_config(&setup_config());
    let spec = ws.spec("spec.json", r#"{}"#);
    let run = |extra: &[&str]| {
        let mut a = vec![
            "run",
            "--suite",
            "setup",
            "--variant",
            "baseline",
            "--progress",
            "quiet",
        ];
        a.extend_from_slice(extra);
        a.extend(["--out", "r"]);
        ws.run(&a, Some(&spec))
    };
    assert_error(
        &run(&["--partitions", "2"]),
        &["suites.setup.partitions", "one circuit"],
    );
    assert_error(&run(&["--inner-warmup", "1"]), &["suites.setup.inner_warmup"]);
    assert_error(&run(&["--interleave", "block"]), &["suites.setup.interleave"]);
    assert_error(&run(&["--inject-delay", "write=5"]), &["--inject-delay", "setup"]);
    // A runner without the suite's backend, and one that makes no parameters (an anchor).
    let o = ws.run(
        &["run", "--suite", "setup-gpu", "--variant", "baseline", "--out", "r"],
        Some(&spec),
    );
    assert_error(&o, &["cannot run case", "cuda"]);
    let anchor = ws.spec("anchor.json", r#"{"backends": ["supraseal"], "no_params": true}"#);
    let o = ws.run(
        &["run", "--suite", "setup-gpu", "--variant", "baseline", "--out", "r"],
        Some(&anchor),
    );
    assert_error(&o, &["makes no parameter files"]);
    assert!(!ws.path("r/run.json").exists());
}
