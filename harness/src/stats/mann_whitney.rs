//! Two-sided Mann-Whitney U (Wilcoxon rank-sum) test.
//!
//! Method, chosen by size:
//! - `n1 + n2 <= EXACT_MAX_N` (ties or not): the exact permutation distribution of the
//!   rank sum, computed by dynamic programming over groups of tied values. Ranks are midranks,
//!   doubled so they are integers; the distribution counts, for every way of picking `n1` of the
//!   `N` pooled values, the doubled rank sum of the pick. Without ties this is the classical
//!   exact null distribution of U (the one tables list); with ties it is the exact conditional
//!   distribution given the observed tie pattern.
//! - larger samples: the normal approximation with the tie-corrected variance and a continuity
//!   correction of 1/2 (as R's `wilcox.test(correct = TRUE)` does).
//!
//! The two-sided p-value is `min(1, 2 * min(P(W <= w), P(W >= w)))`, the convention of R's exact
//! `wilcox.test`, so results can be checked against published tables and R.

use statrs::distribution::{ContinuousCDF, Normal};

/// Largest pooled sample size that gets the exact distribution.
pub const EXACT_MAX_N: usize = 100;

/// How a p-value was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MwuMethod {
    /// Exact distribution, no ties.
    Exact,
    /// Exact conditional distribution given the ties.
    ExactTies,
    /// Normal approximation (tie-corrected, continuity-corrected).
    Normal,
}

/// Result of [`mann_whitney`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MwuResult {
    /// U of the first sample: pairs (x, y) with x > y, plus half the ties.
    pub u: f64,
    /// `u / (n1 * n2)`: the estimated probability that a value of `x` exceeds one of `y`.
    pub superiority: f64,
    pub p_value: f64,
    pub method: MwuMethod,
}

/// Two-sided Mann-Whitney U test of `x` against `y`. `None` when either sample is empty
/// or holds a non-finite value.
pub fn mann_whitney(x: &[f64], y: &[f64]) -> Option<MwuResult> {
    let (n1, n2) = (x.len(), y.len());
    if n1 == 0 || n2 == 0 || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    let ranks = doubled_ranks(x, y);
    // Doubled rank sum of x, and the tie groups as (size, doubled rank).
    let w2: u64 = ranks.x_ranks.iter().sum();
    let nn1 = n1 as f64;
    let u = w2 as f64 / 2.0 - nn1 * (nn1 + 1.0) / 2.0;
    let superiority = u / (n1 * n2) as f64;
    let has_ties = ranks.groups.iter().any(|&(t, _)| t > 1);
    let (p_value, method) = if n1 + n2 <= EXACT_MAX_N {
        // Count picks of the smaller sample (cheaper); its rank sum is the complement of x's.
        let n = (n1 + n2) as u64;
        let p = if n1 <= n2 {
            exact_p(&ranks.groups, n1, w2)
        } else {
            exact_p(&ranks.groups, n2, n * (n + 1) - w2)
        };
        (
            p,
            if has_ties {
                MwuMethod::ExactTies
            } else {
                MwuMethod::Exact
            },
        )
    } else {
        (normal_p(u, n1, n2, &ranks.groups), MwuMethod::Normal)
    };
    Some(MwuResult {
        u,
        superiority,
        p_value: p_value.clamp(0.0, 1.0),
        method,
    })
}

struct Ranks {
    /// Doubled midranks of the values of x.
    x_ranks: Vec<u64>,
    /// Tie groups of the pooled sample: (size, doubled midrank), ascending.
    groups: Vec<(usize, u64)>,
}

fn doubled_ranks(x: &[f64], y: &[f64]) -> Ranks {
    let mut pooled: Vec<(f64, bool)> = x
        .iter()
        .map(|&v| (v, true))
        .chain(y.iter().map(|&v| (v, false)))
        .collect();
    pooled.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut x_ranks = Vec::with_capacity(x.len());
    let mut groups = Vec::new();
    let mut i = 0;
    while i < pooled.len() {
        let mut j = i;
        while j + 1 < pooled.len() && pooled[j + 1].0 == pooled[i].0 {
            j += 1;
        }
        // Positions i..=j (0-based) hold ranks i+1..=j+1; doubled midrank = i + j + 2.
        let r2 = (i + j + 2) as u64;
        groups.push((j - i + 1, r2));
        x_ranks.extend(pooled[i..=j].iter().filter(|p| p.1).map(|_| r2));
        i = j + 1;
    }
    Ranks { x_ranks, groups }
}

/// Exact two-sided p-value of the doubled rank sum `w2` of a pick of `n1` values.
fn exact_p(groups: &[(usize, u64)], n1: usize, w2: u64) -> f64 {
    let n: usize = groups.iter().map(|g| g.0).sum();
    let smax = (n1 * 2 * n) as u64;
    let width = smax as usize + 1;
    // dp[k * width + s]: number of picks of k values so far with doubled rank sum s;
    // lo[k]..=hi[k] bounds the sums reached so far for k values (the loops skip the rest).
    let mut dp = vec![0.0f64; (n1 + 1) * width];
    dp[0] = 1.0;
    let (mut lo, mut hi) = (vec![usize::MAX; n1 + 1], vec![0usize; n1 + 1]);
    lo[0] = 0;
    for &(t, r2) in groups {
        let binom = binomials(t);
        let r2 = r2 as usize;
        // Descending k: row k is read before any lower row writes into it.
        for k in (0..n1).rev() {
            if lo[k] > hi[k] {
                continue;
            }
            for j in 1..=t.min(n1 - k) {
                lo[k + j] = lo[k + j].min(lo[k] + j * r2);
                hi[k + j] = hi[k + j].max(hi[k] + j * r2);
            }
            let (read, write) = dp.split_at_mut((k + 1) * width);
            let src = &read[k * width..];
            for s in lo[k]..=hi[k] {
                let c = src[s];
                if c == 0.0 {
                    continue;
                }
                for j in 1..=t.min(n1 - k) {
                    write[(j - 1) * width + s + j * r2] += c * binom[j];
                }
            }
        }
    }
    let row = &dp[n1 * width..(n1 + 1) * width];
    let total: f64 = row.iter().sum();
    let w = w2 as usize;
    let lower: f64 = row[..=w.min(width - 1)].iter().sum();
    let upper: f64 = row[w.min(width)..].iter().sum();
    (2.0 * lower.min(upper) / total).min(1.0)
}

fn binomials(t: usize) -> Vec<f64> {
    let mut b = vec![1.0f64; t + 1];
    for j in 1..=t {
        b[j] = b[j - 1] * (t + 1 - j) as f64 / j as f64;
    }
    b
}

/// Normal approximation with tie correction and continuity correction.
pub(crate) fn normal_p(u: f64, n1: usize, n2: usize, groups: &[(usize, u64)]) -> f64 {
    let (a, b) = (n1 as f64, n2 as f64);
    let n = a + b;
    let ties: f64 = groups.iter().map(|&(t, _)| (t as f64).powi(3) - t as f64).sum();
    let var = a * b / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    if var <= 0.0 {
        return 1.0;
    }
    let d = u - a * b / 2.0;
    let z = (d - 0.5 * d.signum()) / var.sqrt();
    let std = Normal::standard();
    (2.0 * std.cdf(-z.abs())).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples with a chosen U: x gets `u` values above y, the rest below (no ties).
    fn with_u(n1: usize, n2: usize, u: usize) -> (Vec<f64>, Vec<f64>) {
        // Ranks of y are 1..=n2 shifted so that exactly `u` (x, y) pairs have x > y.
        let y: Vec<f64> = (0..n2).map(|i| 10.0 * i as f64 + 5.0).collect();
        let mut x = Vec::new();
        let mut remaining = u;
        for _ in 0..n1 {
            let above = remaining.min(n2);
            remaining -= above;
            x.push(10.0 * above as f64 + 0.5 * x.len() as f64 / n1 as f64);
        }
        (x, y)
    }

    fn p(x: &[f64], y: &[f64]) -> f64 {
        mann_whitney(x, y).unwrap().p_value
    }

    #[test]
    fn exact_matches_tabulated_small_values() {
        // n1 = n2 = 5: P(U <= 0) = 1/252, P(U <= 2) = 4/252, P(U <= 3) = 7/252 (Mann and Whitney 1947).
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        let y = [6.0, 7.0, 8.0, 9.0, 10.0];
        assert!((p(&x, &y) - 2.0 / 252.0).abs() < 1e-12);
        let (x, y) = with_u(5, 5, 2);
        assert_eq!(mann_whitney(&x, &y).unwrap().u, 2.0);
        assert!((p(&x, &y) - 8.0 / 252.0).abs() < 1e-12);
        let (x, y) = with_u(5, 5, 3);
        assert!((p(&x, &y) - 14.0 / 252.0).abs() < 1e-12);
        // Fully separated 10 vs 10: 2 / C(20, 10).
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        let y: Vec<f64> = (11..=20).map(f64::from).collect();
        assert!((p(&x, &y) / (2.0 / 184_756.0) - 1.0).abs() < 1e-9);
        assert_eq!(mann_whitney(&x, &y).unwrap().method, MwuMethod::Exact);
    }

    #[test]
    fn exact_matches_tabulated_critical_values() {
        // Two-sided alpha = 0.05 critical values of U for equal group sizes, from standard
        // Mann-Whitney tables: U <= crit is significant, U = crit + 1 is not.
        for (n, crit) in [(4usize, 0usize), (5, 2), (6, 5), (8, 13), (10, 23), (20, 127)] {
            let (x, y) = with_u(n, n, crit);
            assert!(p(&x, &y) <= 0.05, "n {n} U {crit} p {}", p(&x, &y));
            let (x, y) = with_u(n, n, crit + 1);
            assert!(p(&x, &y) > 0.05, "n {n} U {} p {}", crit + 1, p(&x, &y));
        }
    }

    #[test]
    fn exact_with_ties_matches_brute_force_enumeration() {
        let x = [1.0, 2.0, 2.0, 3.0, 5.0];
        let y = [2.0, 3.0, 3.0, 4.0, 6.0, 6.0];
        let got = mann_whitney(&x, &y).unwrap();
        assert_eq!(got.method, MwuMethod::ExactTies);
        // Enumerate all C(11, 5) picks of the pooled values and count rank sums.
        let ranks = doubled_ranks(&x, &y);
        let mut all: Vec<u64> = Vec::new();
        for g in &ranks.groups {
            all.extend(std::iter::repeat_n(g.1, g.0));
        }
        let w: u64 = ranks.x_ranks.iter().sum();
        let (mut lower, mut upper, mut total) = (0u64, 0u64, 0u64);
        for mask in 0u32..(1 << all.len()) {
            if mask.count_ones() as usize != x.len() {
                continue;
            }
            let s: u64 = (0..all.len()).filter(|i| mask & (1 << i) != 0).map(|i| all[i]).sum();
            total += 1;
            lower += u64::from(s <= w);
            upper += u64::from(s >= w);
        }
        let want = (2.0 * lower.min(upper) as f64 / total as f64).min(1.0);
        assert!((got.p_value - want).abs() < 1e-12, "{} vs {want}", got.p_value);
        // The larger sample first: counted through the smaller one, same answer.
        let swapped = mann_whitney(&y, &x).unwrap();
        assert!((swapped.p_value - want).abs() < 1e-12, "{} vs {want}", swapped.p_value);
        assert!((swapped.superiority + got.superiority - 1.0).abs() < 1e-12);
    }

    #[test]
    fn exact_agrees_with_normal_approximation_for_large_samples() {
        // 45 vs 50 values with a moderate shift: exact and approximate p-values are close.
        let x: Vec<f64> = (0..45).map(|i| ((i * 17) % 45) as f64 + 6.3).collect();
        let y: Vec<f64> = (0..50).map(|i| ((i * 23) % 50) as f64 + 0.1).collect();
        let exact = mann_whitney(&x, &y).unwrap();
        assert_eq!(exact.method, MwuMethod::Exact);
        let groups = doubled_ranks(&x, &y).groups;
        let approx = normal_p(exact.u, 45, 50, &groups);
        assert!(exact.p_value > 0.001 && exact.p_value < 0.2, "{}", exact.p_value);
        assert!((exact.p_value - approx).abs() < 0.005, "{} vs {approx}", exact.p_value);
        // Beyond EXACT_MAX_N the approximation is used.
        let big_x: Vec<f64> = (0..60).map(f64::from).collect();
        let big_y: Vec<f64> = (0..60).map(|i| f64::from(i) + 0.5).collect();
        assert_eq!(mann_whitney(&big_x, &big_y).unwrap().method, MwuMethod::Normal);
    }

    #[test]
    fn identical_samples_and_bad_input() {
        let x = [3.0; 6];
        let r = mann_whitney(&x, &x).unwrap();
        assert_eq!(r.p_value, 1.0);
        assert_eq!(r.superiority, 0.5);
        assert!(mann_whitney(&[], &x).is_none());
        assert!(mann_whitney(&[f64::NAN], &x).is_none());
        // Symmetric in its arguments.
        let a = [1.0, 4.0, 2.5, 7.0];
        let b = [3.0, 8.0, 9.0, 6.0, 5.5];
        assert!((p(&a, &b) - p(&b, &a)).abs() < 1e-12);
        assert!(
            (mann_whitney(&a, &b).unwrap().superiority + mann_whitney(&b, &a).unwrap().superiority - 1.0).abs() < 1e-12
        );
    }
}
