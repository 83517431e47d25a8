//! Resuming `bisect flags` across sittings, on the seeded mock measurer: the
//! drift check pools stored samples only when the reference end has not moved,
//! sets them aside (kept in the state file) when it has, is skipped with
//! `--trust-stored`, and state files without sitting marks still load.

use phaseline::bisect::drift::Resumed;
use phaseline::bisect::flags::Finding;
use phaseline::bisect::space::{parse_features, Space};
use phaseline::bisect::state::BisectState;
use phaseline::bisect::{run_flags, FlagsRequest, FlagsRun, Measurer, Settings};
use phaseline::compare::CompareOptions;
use phaseline::model::{Run, Variant};
use phaseline::testkit::{MockEffect, MockMeasurer, MockScenario};
use phaseline::HarnessError;
use std::path::Path;

const ALL: &str = "smallvec,presize,par-bg2,pin,window-tune";
const PHASES: [&str; 6] = ["synthesis", "ntt_h", "msm_l", "msm_a", "msm_b_g2", "pin"];

/// `pin` adds 300 ms to the `pin` phase; every base time is multiplied by `scale`.
fn scenario(scale: f64, seed: u64) -> MockScenario {
    let base = [1000.0, 300.0, 400.0, 400.0, 500.0, 100.0];
    MockScenario {
        base_ms: PHASES
            .iter()
            .zip(base)
            .map(|(p, ms)| (p.to_string(), ms * scale))
            .collect(),
        effects: vec![MockEffect {
            flags: vec!["pin".into()],
            phase: "pin".into(),
            delta_ms: 300.0,
        }],
        noise: 0.01,
        noisy_flags: Default::default(),
        seed,
        call_scale: Vec::new(),
    }
}

fn args(resume: bool, trust_stored: bool) -> FlagsRequest {
    FlagsRequest {
        suite: "e2e".into(),
        metric: "total".into(),
        reps: 5,
        max_reps: 20,
        factorial: false,
        resume,
        trust_stored,
    }
}

/// Records every call (variant names, repetitions); fails after `left` calls when set.
struct Recorder {
    inner: MockMeasurer,
    left: Option<usize>,
    calls: Vec<(Vec<String>, usize)>,
}

impl Recorder {
    fn new(sc: MockScenario, left: Option<usize>) -> Self {
        Recorder {
            inner: MockMeasurer::new(sc).unwrap(),
            left,
            calls: Vec::new(),
        }
    }
}

impl Measurer for Recorder {
    fn measure(&mut self, v: &[Variant], reps: usize) -> Result<Run, HarnessError> {
        if let Some(left) = &mut self.left {
            if *left == 0 {
                return Err(HarnessError::Invalid("interrupted".into()));
            }
            *left -= 1;
        }
        self.calls.push((v.iter().map(|x| x.name.clone()).collect(), reps));
        self.inner.measure(v, reps)
    }
}

fn bisect(m: &mut dyn Measurer, a: &FlagsRequest, state: &Path) -> (Result<FlagsRun, HarnessError>, Vec<String>) {
    let set = Settings {
        circuit: "mock".into(),
        compare: CompareOptions::default(),
    };
    let space = Space::new(vec![], parse_features(ALL).unwrap()).unwrap();
    let mut lines = Vec::new();
    let r = run_flags(&space, a, &set, m, state, &mut |l: &str| lines.push(l.to_string()));
    (r, lines)
}

fn culprits(r: &FlagsRun) -> Vec<Vec<String>> {
    match &r.answers[0].1.finding {
        Finding::Located { culprits, .. } => culprits.iter().map(|c| c.flags.iter().cloned().collect()).collect(),
        other => panic!("expected culprits, got {other:?}\n{}", r.text),
    }
}

fn load(path: &Path) -> BisectState {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn ok_total(st: &BisectState) -> usize {
    st.bank.keys().map(|k| st.ok_count(k)).sum()
}

/// A first sitting cut off after two measure calls (good with bad, then good
/// with its screen probes: the bisect needs three); returns its successful sample count.
fn first_sitting(path: &Path) -> usize {
    let mut cut = Recorder::new(scenario(1.0, 42), Some(2));
    let (r, _) = bisect(&mut cut, &args(false, false), path);
    assert!(r.err().expect("interrupted").to_string().contains("interrupted"));
    let st = load(path);
    assert_eq!(st.sitting, 0);
    let n = ok_total(&st);
    assert_eq!(n, cut.inner.runs, "every sample of the first sitting is banked");
    assert!(st.ok_count("good") >= 5 && n > st.ok_count("good"));
    n
}

fn line_with<'a>(lines: &'a [String], needle: &str) -> &'a str {
    lines
        .iter()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with `{needle}` in:\n{}", lines.join("\n")))
}

#[test]
fn an_unchanged_machine_pools_the_stored_samples() {
    let dir = tempfile::tempdir().unwrap();
    // Starting over on the same machine: the cost to beat.
    let mut scratch = MockMeasurer::new(scenario(1.0, 7)).unwrap();
    let (r0, _) = bisect(&mut scratch, &args(false, false), &dir.path().join("scratch.json"));
    let r0 = r0.unwrap();
    assert_eq!(culprits(&r0), vec![vec!["pin".to_string()]]);

    let path = dir.path().join("state.json");
    let stored = first_sitting(&path);
    let good_stored = load(&path).ok_count("good");
    let mut m = Recorder::new(scenario(1.0, 7), None);
    let (r, lines) = bisect(&mut m, &args(true, false), &path);
    let r = r.unwrap();
    println!("{}\n{}", lines.join("\n"), r.text);
    assert_eq!(culprits(&r), culprits(&r0), "same answer as starting over");
    // The check came first: the good end alone, --reps times.
    assert_eq!(m.calls[0], (vec!["good".to_string()], 5));
    let check = line_with(&lines, "[resume] drift check on `good`");
    assert!(
        check.contains(&format!("stored x{good_stored} (sitting 0) vs fresh x5, `total` ")),
        "{check}"
    );
    assert!(
        check.ends_with(&format!(": unchanged, {stored} stored sample(s) kept")),
        "{check}"
    );
    assert!(matches!(&r.resumed, Some(Resumed::Kept { variant, .. }) if variant == "good"));
    assert!(
        m.inner.runs < scratch.runs,
        "pooling saved nothing: {} fresh runs against {} from scratch",
        m.inner.runs,
        scratch.runs
    );
    assert_eq!(r.cost.fresh_runs, m.inner.runs);
    let st = load(&path);
    assert!(st.set_aside.is_empty());
    assert_eq!(st.sitting, 1);
    let (earlier, now) = st.ok_by_sitting();
    assert_eq!((earlier, now), (stored, m.inner.runs));
    // The good end holds both sittings' samples, oldest first.
    let mut want = vec![0; good_stored];
    want.extend(vec![1; st.ok_count("good") - good_stored]);
    assert_eq!(st.sittings_of("good"), want);
    assert!(
        r.text.contains(&format!(
            "samples: {stored} of {} came from earlier sitting(s), pooled after the drift check on `good` passed (`total` ",
            stored + m.inner.runs
        )),
        "{}",
        r.text
    );
}

#[test]
fn a_drifted_machine_sets_the_stored_samples_aside_and_measures_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let stored = first_sitting(&path);
    let before = load(&path);
    // Every phase 15% slower in the second sitting (other clocks, say).
    let mut m = Recorder::new(scenario(1.15, 7), None);
    let (r, lines) = bisect(&mut m, &args(true, false), &path);
    let r = r.unwrap();
    println!("{}\n{}", lines.join("\n"), r.text);
    assert_eq!(culprits(&r), vec![vec!["pin".to_string()]], "{}", r.text);
    assert_eq!(m.calls[0], (vec!["good".to_string()], 5));
    let check = line_with(&lines, "[resume] drift check on `good`");
    assert!(check.contains(": drifted ("), "{check}");
    for p in PHASES.iter().chain(&["total"]) {
        assert!(
            check.contains(&format!("`{p}` +1")),
            "`{p}` not reported moved: {check}"
        );
    }
    assert!(
        check.ends_with(&format!(
            "{stored} stored sample(s) set aside (kept in the state file), measuring afresh"
        )),
        "{check}"
    );
    match &r.resumed {
        Some(Resumed::SetAside {
            variant,
            samples,
            inconclusive,
            summary,
        }) => {
            assert_eq!((variant.as_str(), *samples, *inconclusive), ("good", stored, false));
            assert!(summary.starts_with("`total` +1"), "{summary}");
        }
        other => panic!("{other:?}"),
    }
    let st = load(&path);
    // Nothing deleted: the first sitting's samples sit in the state file, as banked.
    assert_eq!(st.set_aside.len(), 1);
    let aside = &st.set_aside[0];
    assert_eq!(aside.sitting, 1);
    assert_eq!(aside.bank, before.bank);
    assert_eq!(aside.ok_total(), stored);
    assert!(aside.reason.contains("drifted"), "{}", aside.reason);
    // The answer rests on fresh samples only: every banked sample is of this sitting.
    assert_eq!(st.ok_by_sitting(), (0, m.inner.runs));
    assert_eq!(r.cost.fresh_runs, m.inner.runs);
    assert!(st.bank.keys().all(|k| st.sittings_of(k).iter().all(|s| *s == 1)));
    // Builds are kept.
    assert!(before.built.keys().all(|k| st.built.contains_key(k)));
    assert!(
        r.text.contains(&format!(
            "samples: 0 of {} came from earlier sitting(s); {stored} stored sample(s) were set aside \
             (kept in the state file) because the drift check on `good` found drift (`total` +1",
            m.inner.runs
        )),
        "{}",
        r.text
    );
}

#[test]
fn trust_stored_pools_without_a_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let stored = first_sitting(&path);
    let (r, _) = bisect(
        &mut Recorder::new(scenario(1.0, 7), None),
        &args(false, true),
        &dir.path().join("other.json"),
    );
    assert!(r.err().unwrap().to_string().contains("only applies with --resume"));
    // Even on a drifted machine: the person vouched for it.
    let mut m = Recorder::new(scenario(1.15, 7), None);
    let (r, lines) = bisect(&mut m, &args(true, true), &path);
    let r = r.unwrap();
    // Pooled across a 15% drift, yet no phantom: each comparison's two sides
    // come from the same calls (the screen's `bad` probes beside `bad`, now).
    assert_eq!(culprits(&r), vec![vec!["pin".to_string()]], "{}", r.text);
    assert!(
        lines.iter().all(|l| !l.contains("drift check on")),
        "{}",
        lines.join("\n")
    );
    let skip = line_with(&lines, "[resume] drift check skipped (--trust-stored)");
    assert!(
        skip.ends_with(&format!(
            "{stored} stored sample(s) of earlier sitting(s) pooled with new ones"
        )),
        "{skip}"
    );
    assert_eq!(r.resumed, Some(Resumed::Trusted));
    assert_ne!(
        m.calls[0],
        (vec!["good".to_string()], 5),
        "the good end was re-measured"
    );
    let st = load(&path);
    assert!(st.set_aside.is_empty());
    assert_eq!(st.ok_by_sitting(), (stored, m.inner.runs));
    assert!(
        r.text.contains(&format!(
            "samples: {stored} of {} came from earlier sitting(s), pooled without a drift check (--trust-stored).",
            stored + m.inner.runs
        )),
        "{}",
        r.text
    );
}

#[test]
fn a_state_file_without_sittings_loads_as_sitting_zero() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let stored = first_sitting(&path);
    // Strip what this version added: the file a bisect wrote before sittings existed.
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let obj = v.as_object_mut().unwrap();
    assert!(obj.remove("sitting").is_some() && obj.remove("sittings").is_some());
    assert!(!obj.contains_key("set_aside"));
    assert_eq!(obj["schema_version"], 1);
    std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let old = load(&path);
    assert_eq!((old.sitting, old.ok_by_sitting()), (0, (0, stored)));
    assert_eq!(old.sittings_of("good"), vec![0; old.ok_count("good")]);

    let mut m = Recorder::new(scenario(1.0, 7), None);
    let (r, lines) = bisect(&mut m, &args(true, false), &path);
    let r = r.unwrap();
    assert_eq!(culprits(&r), vec![vec!["pin".to_string()]]);
    assert!(line_with(&lines, "[resume] drift check on `good`").contains(": unchanged"));
    let st = load(&path);
    assert_eq!(st.sitting, 1);
    assert_eq!(st.ok_by_sitting(), (stored, m.inner.runs));

    // Sitting marks that do not match the samples are a broken file, not a guess.
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v["sittings"]["good"].as_array_mut().unwrap().pop();
    std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let (r, _) = bisect(&mut m, &args(true, false), &path);
    let e = r.err().expect("mismatched marks").to_string();
    assert!(e.contains("sitting mark(s)") && e.contains("`good`"), "{e}");
}

#[test]
fn a_check_that_cannot_decide_sets_the_stored_samples_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let stored = first_sitting(&path);
    // The machine got noisy (30% per phase) and the run stops right after the check.
    let mut sc = scenario(1.0, 7);
    sc.noise = 0.3;
    let mut m = Recorder::new(sc, Some(1));
    let (r, lines) = bisect(&mut m, &args(true, false), &path);
    assert!(r
        .err()
        .expect("interrupted after the check")
        .to_string()
        .contains("interrupted"));
    assert_eq!(m.calls, vec![(vec!["good".to_string()], 5)]);
    let check = line_with(&lines, "[resume] drift check on `good`");
    assert!(
        check.ends_with(&format!(
            ": inconclusive (pooling needs evidence), {stored} stored sample(s) set aside (kept in the state file), measuring afresh"
        )),
        "{check}"
    );
    // The verdict was saved before anything else was measured.
    let st = load(&path);
    assert_eq!(st.set_aside.len(), 1);
    assert_eq!(st.set_aside[0].ok_total(), stored);
    assert!(
        st.set_aside[0].reason.contains("inconclusive"),
        "{}",
        st.set_aside[0].reason
    );
    assert_eq!(st.bank.keys().collect::<Vec<_>>(), vec!["good"]);
    assert_eq!(st.ok_by_sitting(), (0, 5));
    assert!(
        st.log.iter().any(|l| l == check),
        "the check's line is kept in the state's log"
    );
}

#[test]
fn without_stored_good_samples_the_check_uses_the_best_stocked_variant() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    first_sitting(&path);
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for key in ["bank", "sittings", "calls"] {
        v[key].as_object_mut().unwrap().remove("good");
    }
    std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let st = load(&path);
    let most = st.bank.keys().map(|k| st.ok_count(k)).max().unwrap();
    let pick = st.bank.keys().find(|k| st.ok_count(k) == most).unwrap().clone();
    assert_ne!(pick, "good");
    let mut m = Recorder::new(scenario(1.0, 7), Some(1));
    let (r, lines) = bisect(&mut m, &args(true, false), &path);
    assert!(r.is_err(), "stopped after the check");
    assert_eq!(m.calls, vec![(vec![pick.clone()], 5)]);
    let check = line_with(&lines, "[resume] drift check on `");
    assert!(
        check.starts_with(&format!(
            "[resume] drift check on `{pick}`: stored x{most} (sitting 0) vs fresh x5"
        )),
        "{check}"
    );
}

#[test]
fn a_state_file_without_call_marks_loads_and_its_samples_pair_with_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let stored = first_sitting(&path);
    // The file a bisect wrote before call marks existed (it has sittings).
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let obj = v.as_object_mut().unwrap();
    for key in ["calls", "last_call", "repeat_runs"] {
        assert!(obj.remove(key).is_some(), "{key}");
    }
    std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let old = load(&path);
    assert_eq!(old.calls_of("good"), vec![0; old.ok_count("good")]);

    // Starting over: the calls to expect.
    let mut scratch = Recorder::new(scenario(1.0, 7), None);
    let (r0, _) = bisect(&mut scratch, &args(false, false), &dir.path().join("scratch.json"));
    assert_eq!(culprits(&r0.unwrap()), vec![vec!["pin".to_string()]]);

    let mut m = Recorder::new(scenario(1.0, 7), None);
    let (r, lines) = bisect(&mut m, &args(true, false), &path);
    let r = r.unwrap();
    assert_eq!(culprits(&r), vec![vec!["pin".to_string()]], "{}", r.text);
    // The drift check still uses them (one variant against itself)...
    assert!(line_with(&lines, "[resume] drift check on `good`").contains(": unchanged"));
    // ...but which samples were measured together is unknown, so no comparison
    // uses them: after the check, the bisect makes the calls of a fresh start.
    assert_eq!(m.calls[0], (vec!["good".to_string()], 5));
    assert_eq!(m.calls[1..], scratch.calls[..]);
    let st = load(&path);
    assert_eq!(st.ok_by_sitting(), (stored, m.inner.runs));
    assert!(st.calls_of("good").starts_with(&vec![0; old.ok_count("good")]));
    assert!(st.calls_of("good").iter().skip(old.ok_count("good")).all(|c| *c > 0));
}
