//! Pairwise comparison used by the bisect oracle until the shared statistics
//! module (`compare_variants`) is available: per phase, medians, the seeded
//! bootstrap 95% interval of the median ratio and a tri-state verdict.
//! Regressed / improved: the whole interval lies beyond the noise threshold;
//! unchanged: the whole interval lies within it; otherwise inconclusive.

use super::rng::Rng;
use crate::model::{Comparison, PhaseComparison, Run, Verdict};
use crate::HarnessError;

#[derive(Clone, Debug)]
pub struct PairOptions {
    pub threshold: f64,
    pub alpha: f64,
    pub seed: u64,
    pub resamples: usize,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

pub fn compare_variants(
    run: &Run,
    reference: &str,
    candidate: &str,
    opts: &PairOptions,
) -> Result<Comparison, HarnessError> {
    let mut rows = Vec::new();
    for case in &run.cases {
        for phase in run.phase_names(reference, case) {
            let r = run.values(reference, case, &phase);
            let c = run.values(candidate, case, &phase);
            if r.is_empty() || c.is_empty() {
                continue;
            }
            let (mut rs, mut cs) = (r.clone(), c.clone());
            let (rm, cm) = (median(&mut rs), median(&mut cs));
            let mut rng = Rng::new(opts.seed);
            let mut ratios = Vec::with_capacity(opts.resamples);
            let (mut br, mut bc) = (vec![0.0; r.len()], vec![0.0; c.len()]);
            for _ in 0..opts.resamples {
                br.iter_mut().for_each(|x| *x = r[rng.index(r.len())]);
                bc.iter_mut().for_each(|x| *x = c[rng.index(c.len())]);
                ratios.push(median(&mut bc) / median(&mut br));
            }
            ratios.sort_by(|a, b| a.total_cmp(b));
            let (lo, hi) = (
                quantile(&ratios, opts.alpha / 2.0),
                quantile(&ratios, 1.0 - opts.alpha / 2.0),
            );
            let below = ratios.iter().filter(|x| **x <= 1.0).count() as f64 / ratios.len() as f64;
            let p = (2.0 * below.min(1.0 - below)).min(1.0);
            let t = opts.threshold;
            let verdict = if r.len() < 3 || c.len() < 3 {
                Verdict::Inconclusive
            } else if lo > 1.0 + t {
                Verdict::Regressed
            } else if hi < 1.0 - t {
                Verdict::Improved
            } else if lo >= 1.0 - t && hi <= 1.0 + t {
                Verdict::Unchanged
            } else {
                Verdict::Inconclusive
            };
            rows.push(PhaseComparison {
                variant: candidate.to_string(),
                case: case.clone(),
                phase,
                ref_n: r.len(),
                cand_n: c.len(),
                ref_median_ms: rm,
                cand_median_ms: cm,
                ratio: cm / rm,
                ci_low: lo,
                ci_high: hi,
                p_value: p,
                q_value: p,
                threshold: t,
                verdict,
                reps_needed: None,
                note: None,
            });
        }
    }
    Ok(Comparison {
        reference: reference.to_string(),
        candidate: candidate.to_string(),
        cross_testbed: false,
        ref_testbed: run.testbed.key.clone(),
        cand_testbed: run.testbed.key.clone(),
        bootstrap_seed: opts.seed,
        alpha: opts.alpha,
        rows,
    })
}
