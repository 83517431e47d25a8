//! `bisect flags` on the seeded mock measurer: culprits, pairs, no change,
//! noisy flags, build caching, factorial fit and resuming from the state file.

use phaseline::bisect::flags::Finding;
use phaseline::bisect::space::{parse_features, Space};
use phaseline::bisect::{run_flags, FlagsRequest, FlagsRun, Measurer, Settings};
use phaseline::compare::CompareOptions;
use phaseline::model::{Run, Variant};
use phaseline::testkit::{MockEffect, MockMeasurer, MockScenario};
use phaseline::{ExitCode, HarnessError};
use std::path::Path;

const ALL: &str = "smallvec,presize,par-bg2,pin,window-tune";

fn scenario(effects: Vec<(&[&str], &str, f64)>) -> MockScenario {
    MockScenario {
        base_ms: [
            ("synthesis", 1000.0),
            ("ntt_h", 300.0),
            ("msm_l", 400.0),
            ("msm_a", 400.0),
            ("msm_b_g2", 500.0),
            ("pin", 100.0),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
        effects: effects
            .into_iter()
            .map(|(f, p, d)| MockEffect {
                flags: f.iter().map(|s| s.to_string()).collect(),
                phase: p.to_string(),
                delta_ms: d,
            })
            .collect(),
        noise: 0.01,
        noisy_flags: Default::default(),
        seed: 42,
        call_scale: Vec::new(),
    }
}

fn args(factorial: bool, resume: bool) -> FlagsRequest {
    FlagsRequest {
        suite: "e2e".into(),
        metric: "total".into(),
        reps: 5,
        max_reps: 20,
        factorial,
        resume,
        trust_stored: false,
    }
}

fn space() -> Space {
    Space::new(vec![], parse_features(ALL).unwrap()).unwrap()
}

fn bisect(m: &mut dyn Measurer, a: &FlagsRequest, state: &Path) -> Result<FlagsRun, HarnessError> {
    let set = Settings {
        circuit: "mock".into(),
        compare: CompareOptions::default(),
    };
    run_flags(&space(), a, &set, m, state, &mut |_l: &str| {})
}

fn culprit_sets(r: &FlagsRun) -> Vec<(Vec<String>, bool)> {
    match &r.answers[0].1.finding {
        Finding::Located { culprits, .. } => culprits
            .iter()
            .map(|c| (c.flags.iter().cloned().collect(), c.interaction))
            .collect(),
        other => panic!("expected culprits, got {other:?}"),
    }
}

fn set(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

#[test]
fn one_culprit_among_five_flags_with_its_phase_and_cached_builds() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = MockMeasurer::new(scenario(vec![(&["pin"], "pin", 300.0)])).unwrap();
    let r = bisect(&mut m, &args(false, false), &dir.path().join("s.json")).unwrap();
    assert_eq!(culprit_sets(&r), vec![(set(&["pin"]), false)]);
    assert_eq!(r.exit, ExitCode::Regression);
    assert!(r.text.contains("answer: pin: +"), "{}", r.text);
    assert!(r.text.contains("in `pin` (95% CI"), "{}", r.text);
    assert!(!r.text.contains("msm_l"), "no other phase moved:\n{}", r.text);
    // good, bad and the 2k screen variants, each built once.
    assert_eq!(m.built.len(), 12);
    assert_eq!(r.cost.builds, 12);
    assert_eq!(r.cost.runs, m.runs);
    assert!(r.text.contains("cost: 12 variant build(s)"), "{}", r.text);
    assert!(r.text.contains("2^5 = 32 builds"), "{}", r.text);
}

#[test]
fn two_independent_culprits_found_each_with_its_phase() {
    let dir = tempfile::tempdir().unwrap();
    let sc = scenario(vec![(&["pin"], "pin", 300.0), (&["smallvec"], "synthesis", 250.0)]);
    let mut m = MockMeasurer::new(sc).unwrap();
    let r = bisect(&mut m, &args(false, false), &dir.path().join("s.json")).unwrap();
    assert_eq!(
        culprit_sets(&r),
        vec![(set(&["pin"]), false), (set(&["smallvec"]), false)]
    );
    assert!(r.text.contains("in `synthesis`"), "{}", r.text);
    assert!(r.text.contains("in `pin`"), "{}", r.text);
    assert!(!r.text.contains("interact"), "{}", r.text);
}

#[test]
fn an_interaction_is_found_as_the_pair() {
    let dir = tempfile::tempdir().unwrap();
    let sc = scenario(vec![(&["presize", "par-bg2"], "msm_b_g2", 400.0)]);
    let mut m = MockMeasurer::new(sc).unwrap();
    let r = bisect(&mut m, &args(false, false), &dir.path().join("s.json")).unwrap();
    assert_eq!(culprit_sets(&r), vec![(set(&["par-bg2", "presize"]), true)]);
    assert!(r.text.contains("(only together)"), "{}", r.text);
    assert!(r.text.contains("in `msm_b_g2`"), "{}", r.text);
    assert!(r.text.contains("flags interact"), "{}", r.text);
}

#[test]
fn factorial_fit_names_the_interaction_term() {
    let dir = tempfile::tempdir().unwrap();
    let sc = scenario(vec![(&["presize", "par-bg2"], "msm_b_g2", 400.0)]);
    let mut m = MockMeasurer::new(sc).unwrap();
    let r = bisect(&mut m, &args(true, false), &dir.path().join("s.json")).unwrap();
    let fit = r.answers[0].1.factorial.as_ref().expect("factorial requested");
    assert_eq!(fit.points, 32);
    let term = |f: &[&str]| fit.terms.iter().find(|t| t.flags == set(f)).unwrap();
    let pair = term(&["par-bg2", "presize"]);
    assert!(pair.ci_low > 0.1, "interaction term {pair:?}");
    for f in ["smallvec", "presize", "par-bg2", "pin", "window-tune"] {
        let t = term(&[f]);
        assert!(t.estimate.abs() < 0.02, "main effect of {f}: {t:?}");
    }
    assert!(term(&["pin", "smallvec"]).estimate.abs() < 0.02);
    // Every design point measured once: 32 builds in all (screen variants are design points).
    assert_eq!(m.built.len(), 32);
}

#[test]
fn no_culprit_when_nothing_changed() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = MockMeasurer::new(scenario(vec![])).unwrap();
    let r = bisect(&mut m, &args(false, false), &dir.path().join("s.json")).unwrap();
    assert!(matches!(r.answers[0].1.finding, Finding::NoChange(_)), "{}", r.text);
    assert_eq!(r.exit, ExitCode::Ok);
    assert!(r.text.contains("no culprit"));
    // Only good and bad were measured.
    assert_eq!(m.built.len(), 2);
}

#[test]
fn a_noisy_flag_is_reported_inconclusive_not_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let mut sc = scenario(vec![(&["pin"], "pin", 1350.0)]);
    sc.noisy_flags.insert("window-tune".into(), 0.25);
    let mut m = MockMeasurer::new(sc).unwrap();
    let path = dir.path().join("s.json");
    let r = bisect(&mut m, &args(false, false), &path).unwrap();
    println!("{}", r.text);
    assert_eq!(culprit_sets(&r), vec![(set(&["pin"]), false)]);
    match &r.answers[0].1.finding {
        Finding::Located { inconclusive, .. } => assert_eq!(inconclusive, &set(&["window-tune"])),
        _ => unreachable!(),
    }
    assert!(r.text.contains("inconclusive: window-tune"), "{}", r.text);
    // It took the repetition cap before giving up.
    let st: phaseline::bisect::state::BisectState =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(
        st.ok_count("good+window-tune") >= 20,
        "{}",
        st.ok_count("good+window-tune")
    );
}

/// Fails every measurement after the first `left` calls (an interrupted bisect).
struct Interrupted {
    inner: MockMeasurer,
    left: usize,
}

impl Measurer for Interrupted {
    fn measure(&mut self, v: &[Variant], reps: usize) -> Result<Run, HarnessError> {
        if self.left == 0 {
            return Err(HarnessError::Invalid("interrupted".into()));
        }
        self.left -= 1;
        self.inner.measure(v, reps)
    }
}

#[test]
fn an_interrupted_bisect_resumes_from_its_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state").join("bisect.json");
    let sc = scenario(vec![(&["presize", "par-bg2"], "msm_b_g2", 400.0)]);
    // The same bisect uninterrupted: the measure calls to expect.
    let mut whole = Recording {
        inner: MockMeasurer::new(sc.clone()).unwrap(),
        calls: Vec::new(),
    };
    bisect(&mut whole, &args(false, false), &dir.path().join("whole.json")).unwrap();
    let mut cut = Interrupted {
        inner: MockMeasurer::new(sc.clone()).unwrap(),
        left: 6,
    };
    let err = bisect(&mut cut, &args(false, false), &path).err().expect("interrupted");
    assert!(err.to_string().contains("interrupted"));
    assert!(path.exists(), "state saved before the interruption");
    // Starting over without --resume would discard it: refused.
    let mut fresh = Recording {
        inner: MockMeasurer::new(sc.clone()).unwrap(),
        calls: Vec::new(),
    };
    let e = bisect(&mut fresh, &args(false, false), &path).err().expect("refused");
    assert!(e.to_string().contains("--resume"), "{e}");
    // Resume: only what is missing gets measured, and the answer is reached.
    let r = bisect(&mut fresh, &args(false, true), &path).unwrap();
    assert_eq!(culprit_sets(&r), vec![(set(&["par-bg2", "presize"]), true)]);
    // The drift check (the good end alone), then exactly the calls the
    // uninterrupted bisect made after its sixth: no pair that the first
    // sitting measured together is measured again. (Stored variants may come
    // back beside another end: a probe of the screen's `bad` call compared
    // with `good` by ddmin is measured anew beside `good`.)
    assert!(whole.calls.len() > 6, "{:?}", whole.calls);
    assert_eq!(fresh.calls[0], vec!["good".to_string()]);
    assert_eq!(
        fresh.calls[1..],
        whole.calls[6..],
        "resume re-measured something the first sitting had measured together"
    );
    assert!(
        r.text.contains("pooled after the drift check on `good` passed"),
        "{}",
        r.text
    );
    assert!(r.cost.fresh_runs < r.cost.runs);
    // Resuming with another metric or cap reuses the samples; another feature set is refused.
    let mut other = args(false, true);
    other.metric = "msm_b_g2".into();
    other.max_reps = 30;
    let runs_before = fresh.inner.runs;
    let r2 = bisect(&mut fresh, &other, &path).unwrap();
    assert_eq!(culprit_sets(&r2), vec![(set(&["par-bg2", "presize"]), true)]);
    assert!(
        fresh.inner.runs - runs_before < r.cost.runs,
        "the metric change re-measured everything"
    );
    let mut other = args(false, true);
    other.suite = "synth".into();
    let e = bisect(&mut fresh, &other, &path).err().expect("mismatch");
    assert!(e.to_string().contains("other parameters"), "{e}");
    std::fs::write(&path, b"{ truncated").unwrap();
    let e = bisect(&mut fresh, &args(false, true), &path).err().expect("corrupt");
    assert!(e.to_string().contains("not a valid state file"), "{e}");
}

#[test]
fn bad_arguments_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = MockMeasurer::new(scenario(vec![])).unwrap();
    let mut a = args(false, false);
    a.reps = 2;
    assert!(bisect(&mut m, &a, &dir.path().join("a.json")).is_err());
    let mut a = args(false, false);
    a.metric = "no_such_phase".into();
    let e = bisect(&mut m, &a, &dir.path().join("b.json")).err().unwrap();
    assert!(e.to_string().contains("no_such_phase"), "{e}");
    assert!(Space::new(vec!["pin".into()], vec!["pin".into()]).is_err());
}

#[test]
fn auto_metric_finds_a_phase_regression_that_total_hides() {
    // selftest-like: +30 ms in msm_l, while smallvec saves 30 ms of synthesis.
    let sc = scenario(vec![(&["pin"], "msm_l", 30.0), (&["smallvec"], "synthesis", -30.0)]);
    let dir = tempfile::tempdir().unwrap();
    let mut m = MockMeasurer::new(sc.clone()).unwrap();
    let r = bisect(&mut m, &args(false, false), &dir.path().join("total.json")).unwrap();
    assert!(matches!(r.answers[0].1.finding, Finding::NoChange(_)), "{}", r.text);
    let mut auto = args(false, false);
    auto.metric = "auto".into();
    let mut m = MockMeasurer::new(sc).unwrap();
    let r = bisect(&mut m, &auto, &dir.path().join("auto.json")).unwrap();
    let phases: Vec<&str> = r.answers.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(phases, vec!["msm_l"], "{}", r.text);
    assert_eq!(culprit_sets(&r), vec![(set(&["pin"]), false)]);
    assert!(r.text.contains("answer: pin: +"), "{}", r.text);
    assert!(r.text.contains("in `msm_l`"), "{}", r.text);
    assert_eq!(r.exit, ExitCode::Regression);
}

#[test]
fn auto_metric_bisects_each_regressed_phase() {
    let sc = scenario(vec![(&["pin"], "pin", 300.0), (&["smallvec"], "synthesis", 250.0)]);
    let dir = tempfile::tempdir().unwrap();
    let mut auto = args(false, false);
    auto.metric = "auto".into();
    let mut m = MockMeasurer::new(sc).unwrap();
    let r = bisect(&mut m, &auto, &dir.path().join("auto.json")).unwrap();
    let found: Vec<(String, Vec<String>)> = r
        .answers
        .iter()
        .map(|(p, a)| match &a.finding {
            Finding::Located { culprits, .. } => (p.clone(), culprits.iter().flat_map(|c| c.flags.clone()).collect()),
            other => panic!("{p}: {other:?}"),
        })
        .collect();
    assert_eq!(
        found,
        vec![
            ("pin".to_string(), set(&["pin"])),
            ("synthesis".to_string(), set(&["smallvec"]))
        ],
        "{}",
        r.text
    );
    // The second phase reused every measurement of the first: 2 + 2k variants in all.
    assert_eq!(m.built.len(), 12);
}

#[test]
fn a_flag_moving_two_phases_is_answered_once() {
    let sc = scenario(vec![(&["pin"], "pin", 300.0), (&["pin"], "msm_l", 300.0)]);
    let dir = tempfile::tempdir().unwrap();
    let mut auto = args(false, false);
    auto.metric = "auto".into();
    let mut m = MockMeasurer::new(sc).unwrap();
    let r = bisect(&mut m, &auto, &dir.path().join("auto.json")).unwrap();
    assert!(r.answers.len() >= 2, "both phases bisected:\n{}", r.text);
    assert_eq!(r.text.matches("answer:").count(), 1, "{}", r.text);
    assert!(r.text.contains("answer: pin: +"), "{}", r.text);
    assert!(r.text.contains("same culprit as under phase"), "{}", r.text);
}

/// The command line end to end, through the real build/run path with the mock runner.
#[test]
fn cli_bisect_flags_with_the_mock_runner() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec.json");
    std::fs::write(
        &spec,
        r#"{"effects": {"presize": {"msm_l": 1.5}}, "noise": 0.01, "seed": 5}"#,
    )
    .unwrap();
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("phaseline.toml");
    let state = dir.path().join("state.json");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_phaseline"))
        .args(["--config"])
        .arg(&config)
        .args([
            "bisect",
            "flags",
            "--good",
            "",
            "--bad",
            "smallvec,presize,par-bg2",
            "--circuit",
            "tiny",
        ])
        .args(["--runner", env!("CARGO_BIN_EXE_phaseline-mock-prover"), "--state"])
        .arg(&state)
        .env("PHASELINE_MOCK_SPEC", &spec)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(out.contains("answer: A2 presize: +"), "{out}\n{err}");
    assert!(out.contains("in `msm_l`"), "{out}\n{err}");
    assert!(err.contains("[screen 1/3]"), "progress lines go to stderr: {err}");
    assert!(state.is_file());
}

/// Records the variant names of every measure call.
struct Recording {
    inner: MockMeasurer,
    calls: Vec<Vec<String>>,
}

impl Measurer for Recording {
    fn measure(&mut self, v: &[Variant], reps: usize) -> Result<Run, HarnessError> {
        self.calls.push(v.iter().map(|x| x.name.clone()).collect());
        self.inner.measure(v, reps)
    }
}

/// The issue's case: the ends measured in one sitting, the probes minutes
/// later on a machine that had become 40% slower (or whose load kept
/// swinging between calls). Every probe is compared with an end measured in
/// the same call, so the drift cancels: one culprit, no phantom.
#[test]
fn load_drift_between_calls_names_no_phantom_culprit() {
    let schedules: [(&str, Vec<f64>); 2] = [
        ("step +40%", vec![1.0, 1.4]),
        ("swings", (0..200).map(|i| [1.0, 1.4, 0.85, 1.25, 1.1][i % 5]).collect()),
    ];
    // (metric, culprit's phase, its delta): selftest-slow's 30 ms in `msm_l`
    // under `--metric auto`, and a larger effect judged on `total`.
    let cases: [(&str, &str, f64); 2] = [("auto", "msm_l", 30.0), ("total", "pin", 300.0)];
    for (what, sched) in &schedules {
        for (metric, phase, delta) in cases {
            let dir = tempfile::tempdir().unwrap();
            let mut sc = scenario(vec![(&["pin"], phase, delta)]);
            sc.call_scale = sched.clone();
            let mut m = Recording {
                inner: MockMeasurer::new(sc).unwrap(),
                calls: Vec::new(),
            };
            let mut a = args(false, false);
            a.metric = metric.into();
            let r = bisect(&mut m, &a, &dir.path().join("s.json")).unwrap();
            let ctx = format!("{what}, --metric {metric}:\n{}", r.text);
            let phases: Vec<&str> = r.answers.iter().map(|(p, _)| p.as_str()).collect();
            let want = if metric == "auto" { phase } else { "total" };
            assert_eq!(phases, vec![want], "{ctx}");
            assert_eq!(culprit_sets(&r), vec![(set(&["pin"]), false)], "{ctx}");
            assert_eq!(r.text.matches("answer:").count(), 1, "{ctx}");
            assert!(r.text.contains("answer: pin: +"), "{ctx}");
            assert!(r.text.contains(&format!("in `{phase}` (95% CI")), "{ctx}");
            assert_eq!(r.exit, ExitCode::Regression, "{ctx}");
            // Every call that measured a probe measured an end beside it.
            for c in &m.calls {
                let probe = c.iter().any(|n| n != "good" && n != "bad");
                assert!(
                    !probe || c.iter().any(|n| n == "good" || n == "bad"),
                    "{what}: a probe measured without its end: {c:?}"
                );
            }
            // The end re-measurements are counted in the cost, and said.
            assert_eq!(r.cost.runs, m.inner.runs, "{ctx}");
            assert!(r.cost.repeat_runs >= 10, "{ctx}");
            assert!(
                r.text
                    .contains(&format!("; {} of them re-measured", r.cost.repeat_runs)),
                "{ctx}"
            );
        }
    }
}
