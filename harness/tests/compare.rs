//! Comparisons of synthetic runs with known answers.

use phaseline::compare::{
    calibrate, compare_runs, compare_variants, decide, exit_code, CalibrateOptions, CompareOptions,
};
use phaseline::model::{Comparison, PhaseComparison, Verdict};
use phaseline::testkit::synthetic::{case, SyntheticRun};
use phaseline::ExitCode;

fn three_phases(id: &str, seed: u64) -> SyntheticRun {
    SyntheticRun::new(id, seed)
        .variant("baseline", &[])
        .phase("synthesize", 200.0, 0.01)
        .phase("ntt", 80.0, 0.01)
        .phase("msm", 120.0, 0.01)
}

fn row<'a>(c: &'a Comparison, phase: &str) -> &'a PhaseComparison {
    c.rows
        .iter()
        .find(|r| r.phase == phase)
        .unwrap_or_else(|| panic!("no row {phase}: {c:#?}"))
}

#[test]
fn ten_percent_shift_is_detected_and_only_there() {
    let reference = three_phases("ref", 1).reps(10).build();
    let candidate = three_phases("cand", 2).reps(10).effect("baseline", "ntt", 1.10).build();
    let c = compare_runs(&reference, &candidate, &CompareOptions::default()).unwrap();
    let ntt = row(&c, "ntt");
    assert_eq!(ntt.verdict, Verdict::Regressed, "{ntt:#?}");
    assert!(ntt.ci_low > 1.03 && ntt.ci_high < 1.17, "{ntt:#?}");
    assert!(ntt.q_value < 0.05 && ntt.p_value <= ntt.q_value);
    for p in ["synthesize", "msm"] {
        assert_eq!(row(&c, p).verdict, Verdict::Unchanged, "{:#?}", row(&c, p));
    }
    // total moves by 8/400 = 2%, inside the 3% band or undecided, never a regression.
    assert_ne!(row(&c, "total").verdict, Verdict::Regressed);
    assert_eq!(exit_code(&c), ExitCode::Regression);
    assert!(!c.cross_testbed);
    assert_eq!(c.rows[0].phase, "total");
}

#[test]
fn a_speedup_is_improved_and_exits_zero() {
    let reference = three_phases("ref", 3).reps(10).build();
    let candidate = three_phases("cand", 4).reps(10).effect("baseline", "msm", 0.8).build();
    let c = compare_runs(&reference, &candidate, &CompareOptions::default()).unwrap();
    assert_eq!(row(&c, "msm").verdict, Verdict::Improved);
    assert_eq!(exit_code(&c), ExitCode::Ok);
}

#[test]
fn same_seed_same_comparison() {
    let reference = three_phases("ref", 5).reps(8).build();
    let candidate = three_phases("cand", 6).reps(8).effect("baseline", "ntt", 1.04).build();
    let opts = CompareOptions::default();
    assert_eq!(
        compare_runs(&reference, &candidate, &opts).unwrap(),
        compare_runs(&reference, &candidate, &opts).unwrap()
    );
}

/// A/A comparisons over many seeds: the share of comparisons with any false "regressed" row
/// stays at or below the nominal level. With a zero threshold the verdict rests on the
/// Benjamini-Hochberg test alone, the strictest case.
#[test]
fn false_alarm_rate_of_aa_comparisons_is_at_most_nominal() {
    let trials = 600;
    let mut opts = CompareOptions {
        resamples: 200,
        ..CompareOptions::default()
    };
    opts.thresholds.default = 0.0;
    opts.thresholds.floor_ms = 0.0;
    let mut alarms_zero_threshold = 0;
    let mut alarms_default = 0;
    for t in 0..trials {
        let build = |id: &str, seed: u64| {
            SyntheticRun::new(id, seed)
                .variant("v", &[])
                .phase("a", 50.0, 0.05)
                .phase("b", 30.0, 0.05)
                .phase("c", 20.0, 0.05)
                .phase("d", 10.0, 0.05)
                .reps(8)
                .build()
        };
        let r = build("r", 2 * t + 1000);
        let k = build("k", 2 * t + 1001);
        let z = compare_runs(&r, &k, &opts).unwrap();
        alarms_zero_threshold += usize::from(z.any_regression());
        // The same rows judged with the default 3% threshold (the floor does not bind here).
        let with_default = |r: &PhaseComparison| decide(r.q_value, r.ci_low, r.ci_high, 0.03, opts.alpha);
        alarms_default += usize::from(z.rows.iter().any(|r| with_default(r) == Verdict::Regressed));
    }
    let nominal = 0.05;
    // One-sided allowance of two binomial standard errors around the nominal rate.
    let slack = 2.0 * (nominal * (1.0 - nominal) / trials as f64).sqrt();
    let rate = alarms_zero_threshold as f64 / trials as f64;
    println!("A/A false alarms over {trials} trials: {alarms_zero_threshold} (threshold 0), {alarms_default} (3%)");
    assert!(rate <= nominal + slack, "false-alarm rate {rate}");
    // A threshold only removes alarms.
    assert!(alarms_default <= alarms_zero_threshold);
}

#[test]
fn small_samples_are_inconclusive_with_a_note() {
    let reference = three_phases("ref", 7).reps(2).build();
    let candidate = three_phases("cand", 8).reps(10).effect("baseline", "ntt", 1.5).build();
    let c = compare_runs(&reference, &candidate, &CompareOptions::default()).unwrap();
    for r in &c.rows {
        assert_eq!(r.verdict, Verdict::Inconclusive);
        assert!(r.note.as_deref().unwrap_or("").contains("too few samples"), "{r:#?}");
        assert!(r.reps_needed.unwrap_or(0) >= 3);
    }
    // Failed samples count against the minimum and are mentioned.
    let candidate = three_phases("cand", 8)
        .reps(4)
        .fail("baseline", 0)
        .fail("baseline", 1)
        .build();
    let reference = three_phases("ref", 7).reps(4).build();
    let c = compare_runs(&reference, &candidate, &CompareOptions::default()).unwrap();
    let note = row(&c, "ntt").note.clone().unwrap_or_default();
    assert!(
        note.contains("too few") && note.contains("2 failed candidate"),
        "{note}"
    );
}

#[test]
fn modest_noisy_shift_is_inconclusive_with_reps_needed() {
    let build = |id: &str, seed: u64, f: f64| {
        SyntheticRun::new(id, seed)
            .variant("v", &[])
            .phase("p", 100.0, 0.06)
            .effect("v", "p", f)
            .reps(5)
            .build()
    };
    let c = compare_runs(&build("r", 11, 1.0), &build("k", 12, 1.06), &CompareOptions::default()).unwrap();
    let p = row(&c, "p");
    assert_eq!(p.verdict, Verdict::Inconclusive, "{p:#?}");
    assert!(p.reps_needed.unwrap() > 5, "{p:#?}");
}

#[test]
fn phase_missing_on_one_side_gives_a_row_with_a_note() {
    let reference = three_phases("ref", 9).reps(6).drop_phase("baseline", "msm").build();
    let candidate = three_phases("cand", 10).reps(6).drop_phase("baseline", "ntt").build();
    let c = compare_runs(&reference, &candidate, &CompareOptions::default()).unwrap();
    let msm = row(&c, "msm");
    assert_eq!(msm.verdict, Verdict::Inconclusive);
    assert_eq!(msm.note.as_deref(), Some("phase missing in reference"));
    assert_eq!((msm.ref_n, msm.cand_n), (0, 6));
    assert_eq!(row(&c, "ntt").note.as_deref(), Some("phase missing in candidate"));
    assert_eq!(row(&c, "synthesize").verdict, Verdict::Unchanged);
    // Numbers stay finite so the comparison survives JSON.
    let back: Comparison = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    assert_eq!(back, c);
}

#[test]
fn variant_or_case_on_one_side_only() {
    let reference = three_phases("ref", 13).variant("A1", &["smallvec"]).reps(4).build();
    let candidate = three_phases("cand", 14)
        .case(case("synth", "tiny"))
        .case(case("e2e", "tiny"))
        .reps(4)
        .build();
    let c = compare_runs(&reference, &candidate, &CompareOptions::default()).unwrap();
    let a1: Vec<_> = c.rows.iter().filter(|r| r.variant == "A1").collect();
    assert_eq!(a1.len(), 1);
    assert!(
        a1[0].note.as_deref().unwrap().contains("not in candidate"),
        "{:?}",
        a1[0].note
    );
    let e2e: Vec<_> = c.rows.iter().filter(|r| r.case.suite == "e2e").collect();
    assert_eq!(e2e.len(), 1);
    assert!(e2e[0].note.as_deref().unwrap().contains("not in reference"));
}

#[test]
fn cross_testbed_is_refused_unless_allowed() {
    let reference = three_phases("ref", 15).reps(4).build();
    let candidate = three_phases("cand", 16).reps(4).testbed("other-box").build();
    let err = compare_runs(&reference, &candidate, &CompareOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("other-box") && err.contains("--allow-cross-testbed"),
        "{err}"
    );
    let opts = CompareOptions {
        allow_cross_testbed: true,
        ..CompareOptions::default()
    };
    let c = compare_runs(&reference, &candidate, &opts).unwrap();
    assert!(c.cross_testbed);
    assert_eq!(c.cand_testbed, "other-box");
}

#[test]
fn variants_within_one_run() {
    let run = three_phases("r", 17)
        .variant("A1", &["smallvec"])
        .effect("A1", "synthesize", 1.2)
        .reps(8)
        .build();
    let c = compare_variants(&run, "baseline", "A1", &CompareOptions::default()).unwrap();
    assert_eq!(row(&c, "synthesize").verdict, Verdict::Regressed);
    assert_eq!(row(&c, "synthesize").variant, "A1");
    assert!(c.reference.contains("baseline"));
    let err = compare_variants(&run, "baseline", "nope", &CompareOptions::default()).unwrap_err();
    assert!(err.to_string().contains("'nope'"));
}

#[test]
fn tiny_phase_jitter_is_absorbed_by_the_floor() {
    // A 0.2 ms phase that moves by 0.05 ms (25%) stays below the 0.5 ms floor.
    let build = |id: &str, seed: u64, f: f64| {
        SyntheticRun::new(id, seed)
            .variant("v", &[])
            .phase("tiny", 0.2, 0.01)
            .effect("v", "tiny", f)
            .reps(10)
            .build()
    };
    let c = compare_runs(&build("r", 19, 1.0), &build("k", 20, 1.25), &CompareOptions::default()).unwrap();
    let t = row(&c, "tiny");
    assert!((t.threshold - 0.5 / t.ref_median_ms).abs() < 1e-9, "{t:#?}");
    assert_eq!(t.verdict, Verdict::Unchanged);
}

#[test]
fn calibrate_learns_larger_thresholds_for_noisier_phases() {
    let run = SyntheticRun::new("aa", 21)
        .variant("a", &[])
        .variant("b", &[])
        .phase("quiet", 100.0, 0.005)
        .phase("loud", 100.0, 0.05)
        .reps(10)
        .build();
    let opts = CalibrateOptions {
        variants: vec!["a".into(), "b".into()],
        ..CalibrateOptions::default()
    };
    let t = calibrate(&run, &opts).unwrap();
    let (quiet, loud) = (t.phases["quiet"], t.phases["loud"]);
    assert!((0.01..0.02).contains(&quiet), "{t:?}");
    assert!((0.03..0.15).contains(&loud), "{t:?}");
    assert_eq!(t.default, t.phases.values().copied().fold(0.0, f64::max));
    assert!(t.to_toml().contains("loud = "));
    // Variants with different features are not A/A data; an unnamed choice is ambiguous.
    let mixed = SyntheticRun::new("m", 1)
        .variant("a", &[])
        .variant("b", &["pin"])
        .phase("p", 1.0, 0.1)
        .build();
    let opts = CalibrateOptions {
        variants: vec!["a".into(), "b".into()],
        ..CalibrateOptions::default()
    };
    assert!(calibrate(&mixed, &opts).unwrap_err().to_string().contains("not A/A"));
    assert!(calibrate(&mixed, &CalibrateOptions::default()).is_err());
    // Learned thresholds keep an A/A comparison from regressing.
    let r = SyntheticRun::new("r", 30)
        .variant("a", &[])
        .phase("loud", 100.0, 0.05)
        .reps(10)
        .build();
    let k = SyntheticRun::new("k", 31)
        .variant("a", &[])
        .phase("loud", 100.0, 0.05)
        .reps(10)
        .build();
    let opts = CompareOptions {
        thresholds: t,
        ..CompareOptions::default()
    };
    assert!(!compare_runs(&r, &k, &opts).unwrap().any_regression());
}

#[test]
fn a_span_without_durations_on_either_side_gives_no_row() {
    let strip = |mut run: phaseline::model::Run| {
        for s in &mut run.samples {
            s.phases.remove("ntt");
        }
        run
    };
    let reference = strip(three_phases("ref", 23).reps(4).build());
    let candidate = strip(three_phases("cand", 24).reps(4).build());
    assert!(reference
        .phase_names("baseline", &reference.cases[0])
        .contains(&"ntt".to_string()));
    let c = compare_runs(&reference, &candidate, &CompareOptions::default()).unwrap();
    assert!(c.rows.iter().all(|r| r.phase != "ntt"), "{c:#?}");
    assert_eq!(c.rows.len(), 3);
}

/// Two variants of one run, 5% apart in `ntt`, under load that changes from
/// one repetition to the next by up to 40% and hits both members of a pair
/// alike (as interleaved children on a busy machine see it).
fn loaded_pairs(seed: u64) -> phaseline::model::Run {
    let mut run = three_phases("loaded", seed)
        .variant("cand", &[])
        .reps(24)
        .effect("cand", "ntt", 1.05)
        .build();
    let mut rng = phaseline::stats::SeededRng::new(seed ^ 0x10ad);
    let load: Vec<f64> = (0..24).map(|_| 1.0 + 0.4 * rng.unit()).collect();
    for s in &mut run.samples {
        for v in s.phases.values_mut() {
            *v *= load[s.rep];
        }
    }
    run
}

#[test]
fn paired_judging_sees_through_load_shared_by_each_pair() {
    let run = loaded_pairs(21);
    let unpaired = compare_variants(&run, "baseline", "cand", &CompareOptions::default()).unwrap();
    assert_ne!(
        row(&unpaired, "ntt").verdict,
        Verdict::Regressed,
        "{:#?}",
        row(&unpaired, "ntt")
    );
    assert_eq!(row(&unpaired, "ntt").pairs, None);
    let opts = CompareOptions {
        paired: true,
        ..CompareOptions::default()
    };
    let paired = compare_variants(&run, "baseline", "cand", &opts).unwrap();
    let ntt = row(&paired, "ntt");
    assert_eq!(ntt.verdict, Verdict::Regressed, "{ntt:#?}");
    assert_eq!(ntt.pairs, Some(24));
    assert!(ntt.ci_low > 1.03 && ntt.ci_high < 1.07, "{ntt:#?}");
    for p in ["synthesize", "msm"] {
        assert_eq!(row(&paired, p).verdict, Verdict::Unchanged, "{:#?}", row(&paired, p));
    }
    // Too few pairs for the signed-rank test to reach the family's level: tested unpaired.
    let few = CompareOptions {
        paired: true,
        min_samples: 3,
        ..CompareOptions::default()
    };
    let mut short = run.clone();
    short.samples.retain(|s| s.rep < 5);
    let c = compare_variants(&short, "baseline", "cand", &few).unwrap();
    assert!(c.rows.iter().all(|r| r.pairs.is_none()), "{c:#?}");
    // Runs merged from two measurements repeat repetition numbers: no pairing is guessed.
    let mut merged = run.clone();
    merged.samples.extend(run.samples.iter().cloned());
    let c = compare_variants(&merged, "baseline", "cand", &opts).unwrap();
    assert!(c.rows.iter().all(|r| r.pairs.is_none()), "{c:#?}");
}

/// A suite's `paired_test = "sign"` judges its paired rows with the sign test.
/// Here 40% of the pairs catch one member in a slow state (x1.5, either
/// member alike), the rest show the 5% effect: the sign test counts pairs and
/// is surer of the shift than the signed-rank test, which weighs the large
/// pairs most.
#[test]
fn a_suite_can_judge_its_pairs_with_the_sign_test() {
    let mut run = three_phases("states", 31)
        .variant("cand", &[])
        .reps(60)
        .effect("cand", "ntt", 1.05)
        .build();
    for s in &mut run.samples {
        let slow = match (s.rep % 5, s.variant == "cand") {
            (0, true) | (2, false) => 1.5,
            _ => 1.0,
        };
        for v in s.phases.values_mut() {
            *v *= slow;
        }
    }
    let suite = run.cases[0].suite.clone();
    let signed = CompareOptions {
        paired: true,
        ..CompareOptions::default()
    };
    let mut sign = signed.clone();
    sign.suite_paired_test.insert(suite, phaseline::model::PairedTest::Sign);
    let by_rank = compare_variants(&run, "baseline", "cand", &signed).unwrap();
    let by_sign = compare_variants(&run, "baseline", "cand", &sign).unwrap();
    let (r, s) = (row(&by_rank, "ntt"), row(&by_sign, "ntt"));
    assert_eq!((r.pairs, s.pairs), (Some(60), Some(60)));
    assert_eq!(s.verdict, Verdict::Regressed, "{s:#?}");
    assert!(
        s.p_value < r.p_value / 10.0,
        "sign {} signed-rank {}",
        s.p_value,
        r.p_value
    );
    // Same estimator and interval either way: only the test differs.
    assert_eq!((r.ratio, r.ci_low, r.ci_high), (s.ratio, s.ci_low, s.ci_high));
    // Another suite keeps the signed-rank test.
    let mut other = signed.clone();
    other
        .suite_paired_test
        .insert("another-suite".into(), phaseline::model::PairedTest::Sign);
    let c = compare_variants(&run, "baseline", "cand", &other).unwrap();
    assert_eq!(row(&c, "ntt").p_value, r.p_value);
}
