//! Simulated detection and false-alarm rates of `compare` with default options.
//!
//! Four phases of 100 ms each with Gaussian noise of a chosen coefficient of variation; one
//! phase is slowed by a chosen factor in the candidate. For each setting, `TRIALS` independent
//! reference/candidate pairs are compared and the verdicts counted.
//!
//! Run: `cargo run --release -p phaseline --example stats_power`

use phaseline::compare::{compare_runs, CompareOptions};
use phaseline::model::Verdict;
use phaseline::stats::{median_ratio_ci, SeededRng};
use phaseline::testkit::synthetic::SyntheticRun;

const TRIALS: u64 = 200;

fn run(id: &str, seed: u64, cv: f64, reps: usize, shift: f64) -> phaseline::model::Run {
    SyntheticRun::new(id, seed)
        .variant("v", &[])
        .phase("a", 100.0, cv)
        .phase("b", 100.0, cv)
        .phase("c", 100.0, cv)
        .phase("d", 100.0, cv)
        .effect("v", "a", shift)
        .reps(reps)
        .build()
}

fn main() {
    let opts = CompareOptions::default();
    check_coverage();
    check_reps_needed(&opts);
    println!(
        "cv     reps  shift  shifted: regressed inconclusive unchanged | others: regressed  (over {TRIALS} trials)"
    );
    for cv in [0.005, 0.01, 0.02, 0.03] {
        for reps in [5, 10, 20] {
            for shift in [1.0, 1.05, 1.10] {
                let (mut reg, mut inc, mut unch, mut false_reg) = (0, 0, 0, 0);
                for t in 0..TRIALS {
                    let seed = 1_000_000 * reps as u64 + 10_000 * (cv * 1000.0) as u64 + 2 * t;
                    let r = run("r", seed, cv, reps, 1.0);
                    let k = run("k", seed + 1, cv, reps, shift);
                    let c = compare_runs(&r, &k, &opts).expect("comparison");
                    for row in &c.rows {
                        match (row.phase.as_str(), row.verdict) {
                            ("a", Verdict::Regressed) => reg += 1,
                            ("a", Verdict::Inconclusive) => inc += 1,
                            ("a", Verdict::Unchanged) => unch += 1,
                            ("b" | "c" | "d", Verdict::Regressed) => false_reg += 1,
                            _ => {}
                        }
                    }
                }
                let pct = |x: u64| 100.0 * x as f64 / TRIALS as f64;
                println!(
                    "{:<5}  {:>4}  {:>5.2}  {:>17.1}% {:>11.1}% {:>8.1}% | {:>15.2}%",
                    cv,
                    reps,
                    shift,
                    pct(reg),
                    pct(inc),
                    pct(unch),
                    100.0 * false_reg as f64 / (3 * TRIALS) as f64
                );
            }
        }
    }
}

/// Does the reps-needed hint deliver? For inconclusive results at a small size, take the median
/// suggestion, measure again at that size, and report how often the verdict is then decisive
/// and correct (the estimate aims at about 80%).
fn check_reps_needed(opts: &CompareOptions) {
    println!("reps-needed check (cv, shift, reps): median suggestion -> share settled correctly at that size");
    for (cv, shift, reps) in [(0.02, 1.05, 10), (0.03, 1.08, 6), (0.02, 1.0, 5), (0.03, 1.0, 10)] {
        let mut hints = Vec::new();
        for t in 0..TRIALS {
            let r = run("r", 7_000_000 + 2 * t, cv, reps, 1.0);
            let k = run("k", 7_000_001 + 2 * t, cv, reps, shift);
            let c = compare_runs(&r, &k, opts).expect("comparison");
            let a = c.rows.iter().find(|x| x.phase == "a").expect("row a");
            if let Some(n) = a.reps_needed {
                hints.push(n);
            }
        }
        hints.sort_unstable();
        let Some(&n) = hints.get(hints.len() / 2) else {
            println!("{cv:<5} {shift:.2} {reps:>3}: never inconclusive");
            continue;
        };
        let want = if shift > 1.0 {
            Verdict::Regressed
        } else {
            Verdict::Unchanged
        };
        let mut settled = 0;
        for t in 0..TRIALS {
            let r = run("r", 8_000_000 + 2 * t, cv, n, 1.0);
            let k = run("k", 8_000_001 + 2 * t, cv, n, shift);
            let c = compare_runs(&r, &k, opts).expect("comparison");
            settled += u64::from(c.rows.iter().any(|x| x.phase == "a" && x.verdict == want));
        }
        println!(
            "{cv:<5} {shift:.2} {reps:>3}: {} of {TRIALS} inconclusive, median hint {n} -> {:.1}% {}",
            hints.len(),
            100.0 * settled as f64 / TRIALS as f64,
            if shift > 1.0 { "regressed" } else { "unchanged" }
        );
    }
}

/// Coverage of the bootstrap interval: how often the 95% interval of the median ratio holds the
/// true ratio (1.10) for Gaussian noise.
fn check_coverage() {
    println!("bootstrap interval coverage of the true ratio (target 95%)");
    for n in [3usize, 5, 10, 20] {
        for cv in [0.01, 0.05] {
            let trials = 2000u64;
            let mut rng = SeededRng::new(n as u64 * 7 + (cv * 1000.0) as u64);
            let (mut cover, mut width) = (0u64, 0.0);
            for t in 0..trials {
                let a: Vec<f64> = (0..n).map(|_| 100.0 * (1.0 + cv * rng.normal())).collect();
                let b: Vec<f64> = (0..n).map(|_| 110.0 * (1.0 + cv * rng.normal())).collect();
                let ci = median_ratio_ci(&a, &b, 2000, 0.95, t).expect("interval");
                cover += u64::from(ci.low <= 1.1 && ci.high >= 1.1);
                width += ci.high - ci.low;
            }
            println!(
                "n {n:>2} cv {cv:<5}: coverage {:.1}%, mean width {:.4}",
                100.0 * cover as f64 / trials as f64,
                width / trials as f64
            );
        }
    }
}
