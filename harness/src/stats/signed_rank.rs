//! Two-sided Wilcoxon signed-rank test of paired differences, and the paired
//! bootstrap interval of a median ratio.
//!
//! For samples measured in interleaved pairs (one reference child, then one
//! candidate child, on the same witnesses' seed and the same minute of load),
//! the natural statistic is the per-pair log ratio `ln(cand / ref)`: slow load
//! drift moves both members of a pair and cancels in the ratio, where an
//! unpaired test sees it as spread.
//!
//! Method: zero differences are dropped (Wilcoxon's convention); the absolute
//! differences get midranks, doubled so they are integers; `W+` is the doubled
//! rank sum of the positive differences. Under the null each rank is positive
//! or negative with probability 1/2 independently, so the exact conditional
//! distribution of `W+` given the tie pattern is a subset-sum distribution,
//! computed by dynamic programming over probabilities (exact up to
//! [`EXACT_MAX_N`] non-zero pairs). Above that, the normal approximation with
//! the tie-corrected variance and a continuity correction, as R's
//! `wilcox.test(paired = TRUE, correct = TRUE)` does. The two-sided p-value is
//! `min(1, 2 * min(P(W <= w), P(W >= w)))`.

use super::bootstrap::RatioCi;
use super::quantile::{median_in_place, quantile_sorted};
use super::rng::SeededRng;
use statrs::distribution::{ContinuousCDF, Normal};

/// Largest number of non-zero differences that gets the exact distribution.
pub const EXACT_MAX_N: usize = 400;

/// Result of [`signed_rank`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignedRankResult {
    /// Non-zero differences tested.
    pub n: usize,
    /// Rank sum of the positive differences (midranks, not doubled).
    pub w_plus: f64,
    /// Share of Walsh averages `(d_i + d_j) / 2`, `i <= j`, above zero (half
    /// for zeros): the paired analogue of the probability of superiority.
    pub superiority: f64,
    pub p_value: f64,
    pub exact: bool,
}

/// Two-sided signed-rank test of `d` against a centre of 0. `None` when `d`
/// is empty or holds a non-finite value. All-zero differences give p = 1.
pub fn signed_rank(d: &[f64]) -> Option<SignedRankResult> {
    if d.is_empty() || d.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let superiority = walsh_superiority(d);
    let mut nz: Vec<f64> = d.iter().copied().filter(|v| *v != 0.0).collect();
    let n = nz.len();
    if n == 0 {
        return Some(SignedRankResult {
            n,
            w_plus: 0.0,
            superiority,
            p_value: 1.0,
            exact: true,
        });
    }
    nz.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    // Doubled midranks and tie groups (size) of |d|.
    let mut ranks2 = vec![0u64; n];
    let mut ties = Vec::new();
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && nz[j + 1].abs() == nz[i].abs() {
            j += 1;
        }
        // Ranks i+1 ..= j+1; midrank doubled = (i+1) + (j+1).
        let r2 = (i + j + 2) as u64;
        for slot in &mut ranks2[i..=j] {
            *slot = r2;
        }
        ties.push(j - i + 1);
        i = j + 1;
    }
    let w2: u64 = nz.iter().zip(&ranks2).filter(|(v, _)| **v > 0.0).map(|(_, r)| *r).sum();
    let w_plus = w2 as f64 / 2.0;
    let (p_value, exact) = if n <= EXACT_MAX_N {
        let total: u64 = ranks2.iter().sum();
        let mut dist = vec![0.0f64; total as usize + 1];
        dist[0] = 1.0;
        let mut reach = 0usize;
        for &r in &ranks2 {
            let r = r as usize;
            reach += r;
            for s in (0..=reach).rev() {
                let with = if s >= r { dist[s - r] } else { 0.0 };
                dist[s] = 0.5 * (dist[s] + with);
            }
        }
        let w = w2 as usize;
        let low: f64 = dist[..=w].iter().sum();
        let high: f64 = dist[w..].iter().sum();
        ((2.0 * low.min(high)).min(1.0), true)
    } else {
        let nf = n as f64;
        let mean = nf * (nf + 1.0) / 4.0;
        let tie_term: f64 = ties.iter().map(|&t| (t * t * t - t) as f64).sum::<f64>() / 48.0;
        let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term;
        if var <= 0.0 {
            (1.0, false)
        } else {
            let diff = w_plus - mean;
            let z = (diff.abs() - 0.5).max(0.0) / var.sqrt();
            let p = 2.0 * (1.0 - Normal::standard().cdf(z));
            (p.min(1.0), false)
        }
    };
    Some(SignedRankResult {
        n,
        w_plus,
        superiority,
        p_value,
        exact,
    })
}

fn walsh_superiority(d: &[f64]) -> f64 {
    let (mut above, mut all) = (0.0, 0.0);
    for i in 0..d.len() {
        for j in i..d.len() {
            let s = d[i] + d[j];
            above += if s > 0.0 {
                1.0
            } else if s == 0.0 {
                0.5
            } else {
                0.0
            };
            all += 1.0;
        }
    }
    above / all
}

/// `exp(median(log_ratios))`: the median ratio of paired samples.
pub fn paired_ratio(log_ratios: &[f64]) -> Option<f64> {
    let mut buf = log_ratios.to_vec();
    median_in_place(&mut buf).map(f64::exp)
}

/// Percentile bootstrap interval of [`paired_ratio`]: pairs are resampled
/// with replacement, so each resample keeps every pair's two members together.
/// `None` when `log_ratios` is empty, `resamples == 0` or `confidence` is
/// outside (0, 1).
pub fn paired_ratio_ci(log_ratios: &[f64], resamples: usize, confidence: f64, seed: u64) -> Option<RatioCi> {
    if log_ratios.is_empty() || resamples == 0 || !(confidence > 0.0 && confidence < 1.0) {
        return None;
    }
    let mut rng = SeededRng::new(seed);
    let mut buf = vec![0.0; log_ratios.len()];
    let mut meds = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        for slot in buf.iter_mut() {
            *slot = log_ratios[rng.index(log_ratios.len())];
        }
        meds.push(median_in_place(&mut buf)?.exp());
    }
    meds.sort_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    Some(RatioCi {
        low: quantile_sorted(&meds, tail)?,
        high: quantile_sorted(&meds, 1.0 - tail)?,
    })
}

/// Smallest number of pairs at which the exact two-sided signed-rank test can
/// reach `level` at all (`2 / 2^n <= level`).
pub fn min_exact_pairs(level: f64) -> usize {
    (1..64usize).find(|&n| 2.0 / 2f64.powi(n as i32) <= level).unwrap_or(64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values_match_tables() {
        // Hollander & Wolfe's depression data, x - y per patient; R's
        // wilcox.test(x, y, paired = TRUE) gives V = 40, p-value = 0.03906.
        let d = [0.952, -0.147, 1.022, 0.43, 0.62, 0.59, 0.49, -0.08, 0.01];
        let r = signed_rank(&d).unwrap();
        assert!(r.exact);
        assert_eq!(r.w_plus, 40.0);
        assert!((r.p_value - 0.0390625).abs() < 1e-9, "{}", r.p_value);
    }

    #[test]
    fn all_one_sign_reaches_the_smallest_p() {
        let d: Vec<f64> = (1..=6).map(|i| i as f64).collect();
        let r = signed_rank(&d).unwrap();
        assert!((r.p_value - 2.0 / 64.0).abs() < 1e-12);
        assert_eq!(r.superiority, 1.0);
        assert_eq!(min_exact_pairs(2.0 / 64.0), 6);
        assert_eq!(min_exact_pairs(0.05), 6);
    }

    #[test]
    fn symmetric_differences_are_not_significant() {
        let d = [-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 0.0];
        let r = signed_rank(&d).unwrap();
        assert_eq!(r.n, 6);
        assert_eq!(r.p_value, 1.0);
        assert!((r.superiority - 0.5).abs() < 1e-12);
        assert_eq!(signed_rank(&[0.0, 0.0]).unwrap().p_value, 1.0);
        assert!(signed_rank(&[]).is_none());
        assert!(signed_rank(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn normal_approximation_agrees_with_exact_near_the_switch() {
        let mut rng = SeededRng::new(7);
        let d: Vec<f64> = (0..EXACT_MAX_N + 1).map(|_| 0.1 + rng.normal()).collect();
        let approx = signed_rank(&d).unwrap();
        assert!(!approx.exact);
        let exact = signed_rank(&d[..EXACT_MAX_N]).unwrap();
        assert!(exact.exact);
        // One pair more or less moves p a little, not by orders of magnitude.
        assert!(
            (approx.p_value.ln() - exact.p_value.ln()).abs() < 0.5,
            "{} vs {}",
            approx.p_value,
            exact.p_value
        );
    }

    #[test]
    fn paired_interval_cancels_drift_shared_by_a_pair() {
        // Load drift of +-30% shared by both members of each pair, a 5% effect.
        let mut rng = SeededRng::new(3);
        let lr: Vec<f64> = (0..40)
            .map(|_| {
                let load = 1.0 + 0.3 * rng.unit();
                let r = 100.0 * load * (1.0 + 0.005 * rng.normal());
                let c = 105.0 * load * (1.0 + 0.005 * rng.normal());
                (c / r).ln()
            })
            .collect();
        let ci = paired_ratio_ci(&lr, 2000, 0.95, 1).unwrap();
        assert!(ci.low > 1.03 && ci.high < 1.07, "{ci:?}");
        assert!((paired_ratio(&lr).unwrap() - 1.05).abs() < 0.01);
        assert_eq!(paired_ratio_ci(&lr, 2000, 0.95, 1), Some(ci));
        assert!(paired_ratio_ci(&[], 10, 0.95, 1).is_none());
    }
}
