//! Seeded bootstrap confidence interval of the ratio of medians (candidate / reference).
//!
//! Percentile bootstrap: each side is resampled independently with replacement at its own
//! size, the ratio of the two resample medians is recorded, and the interval is the
//! `(1 - confidence) / 2` and `(1 + confidence) / 2` quantiles of those ratios. The same
//! seed gives the same interval. With very small samples (n < 6) the median takes only a few
//! distinct values, so the interval is coarse; the comparison treats n < 3 as too few.

use super::quantile::{median_in_place, quantile_sorted};
use super::rng::SeededRng;

/// A confidence interval of a ratio.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioCi {
    pub low: f64,
    pub high: f64,
}

/// `cand / reference`, with 0/0 read as 1 (both sides zero) and x/0 as +infinity.
pub fn ratio(cand: f64, reference: f64) -> f64 {
    if reference == 0.0 {
        if cand == 0.0 {
            1.0
        } else {
            f64::INFINITY
        }
    } else {
        cand / reference
    }
}

/// Bootstrap interval of `median(candidate) / median(reference)`.
/// `None` when a side is empty, `resamples == 0`, or `confidence` is outside (0, 1).
pub fn median_ratio_ci(
    reference: &[f64],
    candidate: &[f64],
    resamples: usize,
    confidence: f64,
    seed: u64,
) -> Option<RatioCi> {
    if reference.is_empty() || candidate.is_empty() || resamples == 0 || !(confidence > 0.0 && confidence < 1.0) {
        return None;
    }
    let mut rng = SeededRng::new(seed);
    let mut rbuf = vec![0.0; reference.len()];
    let mut cbuf = vec![0.0; candidate.len()];
    let mut ratios = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        for slot in rbuf.iter_mut() {
            *slot = reference[rng.index(reference.len())];
        }
        for slot in cbuf.iter_mut() {
            *slot = candidate[rng.index(candidate.len())];
        }
        let r = median_in_place(&mut rbuf)?;
        let c = median_in_place(&mut cbuf)?;
        ratios.push(ratio(c, r));
    }
    ratios.sort_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    Some(RatioCi {
        low: quantile_sorted(&ratios, tail)?,
        high: quantile_sorted(&ratios, 1.0 - tail)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noisy(center: f64, n: usize, seed: u64) -> Vec<f64> {
        let mut r = SeededRng::new(seed);
        (0..n).map(|_| center * (1.0 + 0.02 * r.normal())).collect()
    }

    #[test]
    fn deterministic_for_a_seed() {
        let a = noisy(100.0, 12, 1);
        let b = noisy(110.0, 12, 2);
        let x = median_ratio_ci(&a, &b, 1000, 0.95, 42).unwrap();
        let y = median_ratio_ci(&a, &b, 1000, 0.95, 42).unwrap();
        assert_eq!(x, y);
        let z = median_ratio_ci(&a, &b, 1000, 0.95, 43).unwrap();
        assert_ne!(x, z);
    }

    #[test]
    fn interval_covers_the_true_ratio_and_excludes_one() {
        let a = noisy(100.0, 20, 5);
        let b = noisy(110.0, 20, 6);
        let ci = median_ratio_ci(&a, &b, 2000, 0.95, 9).unwrap();
        assert!(ci.low < 1.10 && ci.high > 1.10, "{ci:?}");
        assert!(ci.low > 1.0, "{ci:?}");
        assert!(ci.high - ci.low < 0.05, "{ci:?}");
    }

    #[test]
    fn constant_samples_give_a_point_interval_and_bad_input_none() {
        let ci = median_ratio_ci(&[2.0; 5], &[3.0; 5], 100, 0.95, 1).unwrap();
        assert_eq!((ci.low, ci.high), (1.5, 1.5));
        assert!(median_ratio_ci(&[], &[1.0], 100, 0.95, 1).is_none());
        assert!(median_ratio_ci(&[1.0], &[1.0], 100, 1.0, 1).is_none());
        assert_eq!(ratio(0.0, 0.0), 1.0);
        assert_eq!(ratio(1.0, 0.0), f64::INFINITY);
    }
}
