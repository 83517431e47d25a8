//! Noise level of one phase from A/A data (the pure part of `calibrate`).
//!
//! The pooled samples of one build (or of builds with identical features) are split at random
//! into two disjoint halves many times; each split gives `|ln(median(A) / median(B))|`, the
//! log ratio an A/A comparison would show. The noise threshold is a high quantile of those
//! values, turned back into a relative change (`exp(q) - 1`). Halves are smaller than the
//! groups of a real comparison, so this errs on the wide (conservative) side.

use super::quantile::{median_in_place, quantile_sorted};
use super::rng::SeededRng;

/// Fewest pooled samples a phase needs to be calibrated (two per half).
pub const MIN_POOLED: usize = 4;

/// Relative noise threshold of `values` (see module docs): the `quantile` of the absolute log
/// ratio of half-split medians over `splits` random splits. `None` with fewer than
/// [`MIN_POOLED`] values, a non-positive or non-finite value, or `splits == 0`.
pub fn split_noise(values: &[f64], splits: usize, quantile: f64, seed: u64) -> Option<f64> {
    if values.len() < MIN_POOLED || splits == 0 || values.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
        return None;
    }
    let mut rng = SeededRng::new(seed);
    let mut pool = values.to_vec();
    let half = pool.len() / 2;
    let mut logs = Vec::with_capacity(splits);
    let mut a = vec![0.0; half];
    let mut b = vec![0.0; half];
    for _ in 0..splits {
        // Partial Fisher-Yates: the first 2 * half positions become a random pick.
        for i in 0..2 * half {
            let j = i + rng.index(pool.len() - i);
            pool.swap(i, j);
        }
        a.copy_from_slice(&pool[..half]);
        b.copy_from_slice(&pool[half..2 * half]);
        let ma = median_in_place(&mut a)?;
        let mb = median_in_place(&mut b)?;
        logs.push((ma / mb).ln().abs());
    }
    logs.sort_by(f64::total_cmp);
    Some(quantile_sorted(&logs, quantile)?.exp() - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noisy(cv: f64, n: usize, seed: u64) -> Vec<f64> {
        let mut r = SeededRng::new(seed);
        (0..n).map(|_| 100.0 * (1.0 + cv * r.normal())).collect()
    }

    #[test]
    fn noise_grows_with_spread_and_is_reproducible() {
        let quiet = split_noise(&noisy(0.01, 20, 1), 500, 0.95, 7).unwrap();
        let loud = split_noise(&noisy(0.05, 20, 1), 500, 0.95, 7).unwrap();
        assert!(quiet > 0.0 && quiet < 0.03, "{quiet}");
        assert!(loud > 3.0 * quiet, "{loud} vs {quiet}");
        assert_eq!(split_noise(&noisy(0.01, 20, 1), 500, 0.95, 7), Some(quiet));
    }

    #[test]
    fn too_few_or_bad_values() {
        assert!(split_noise(&[1.0, 2.0, 3.0], 10, 0.95, 1).is_none());
        assert!(split_noise(&[1.0, 2.0, 3.0, -1.0], 10, 0.95, 1).is_none());
        assert_eq!(split_noise(&[5.0; 8], 10, 0.95, 1), Some(0.0));
    }
}
