//! Two-sided exact sign test of paired differences.
//!
//! The test that belongs to the median of the differences (the estimator a
//! paired row reports is the median of the per-pair log ratios): it counts
//! the pairs above zero and asks how likely so lopsided a count is when each
//! pair is above or below with probability 1/2. Unlike the signed-rank test it
//! does not weigh a pair by the size of its difference, so a few very large
//! differences in both directions (a machine that switches between a fast and
//! a slow state within a pair) do not drown a small consistent shift.
//! Zero differences are dropped. The p-value is
//! `min(1, 2 * min(P(K <= k), P(K >= k)))` with `K ~ Binomial(n, 1/2)`, from
//! statrs' binomial distribution. In well-behaved noise it needs more pairs
//! than the signed-rank test (asymptotic relative efficiency 2/pi against
//! 3/pi for normal differences).

use statrs::distribution::{Binomial, DiscreteCDF};

/// Result of [`sign_test`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignTestResult {
    /// Non-zero differences tested.
    pub n: usize,
    /// Differences above zero.
    pub positive: usize,
    /// Share of differences above zero, zeros counting half: the estimate of
    /// `P(d > 0)` that sizes the repetitions a row would need.
    pub superiority: f64,
    pub p_value: f64,
}

/// Two-sided sign test of `d` against a median of 0. `None` when `d` is empty
/// or holds a non-finite value. All-zero differences give p = 1.
pub fn sign_test(d: &[f64]) -> Option<SignTestResult> {
    if d.is_empty() || d.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let positive = d.iter().filter(|v| **v > 0.0).count();
    let negative = d.iter().filter(|v| **v < 0.0).count();
    let zeros = d.len() - positive - negative;
    let superiority = (positive as f64 + zeros as f64 / 2.0) / d.len() as f64;
    let n = positive + negative;
    if n == 0 {
        return Some(SignTestResult {
            n,
            positive,
            superiority,
            p_value: 1.0,
        });
    }
    let b = Binomial::new(0.5, n as u64).ok()?;
    let k = positive.min(negative) as u64;
    // P(K <= k) for the smaller count; the distribution is symmetric.
    let p_value = (2.0 * b.cdf(k)).min(1.0);
    Some(SignTestResult {
        n,
        positive,
        superiority,
        p_value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.max(1e-300)
    }

    #[test]
    fn exact_values_match_the_binomial() {
        // 9 of 10 above: 2 * (1 + 10) / 1024 (R: binom.test(9, 10)$p.value = 0.02148438).
        let d = [1.0, 2.0, 0.5, 0.1, 3.0, 0.2, 0.3, 0.4, 0.6, -5.0];
        let r = sign_test(&d).unwrap();
        assert_eq!((r.n, r.positive), (10, 9));
        assert!(close(r.p_value, 22.0 / 1024.0), "{}", r.p_value);
        assert!(close(r.superiority, 0.9));
        // All 10 one way: 2 / 1024, the smallest p of ten pairs.
        let r = sign_test(&[0.01; 10]).unwrap();
        assert!(close(r.p_value, 2.0 / 1024.0));
        // Balanced: p = 1.
        assert_eq!(sign_test(&[1.0, -1.0, 2.0, -2.0]).unwrap().p_value, 1.0);
    }

    #[test]
    fn zeros_are_dropped_and_bad_input_is_refused() {
        let r = sign_test(&[0.0, 0.0, 1.0, 1.0, 1.0]).unwrap();
        assert_eq!(r.n, 3);
        assert!(close(r.p_value, 0.25));
        assert!(close(r.superiority, 0.8));
        assert_eq!(sign_test(&[0.0, 0.0]).unwrap().p_value, 1.0);
        assert!(sign_test(&[]).is_none());
        assert!(sign_test(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn large_differences_both_ways_do_not_hide_a_consistent_shift() {
        // 50 pairs at +5%, 10 at +40% and 10 at -40% (a fast/slow state
        // switching within pairs): the shift is called; the signed-rank test,
        // which weighs the large pairs most, is far less sure.
        let mut d = vec![0.05f64.ln_1p(); 50];
        d.extend(vec![0.40f64.ln_1p(); 10]);
        d.extend(vec![(-0.40f64).ln_1p(); 10]);
        let s = sign_test(&d).unwrap();
        let w = super::super::signed_rank(&d).unwrap();
        assert!(s.p_value < 1e-6, "{}", s.p_value);
        assert!(w.p_value > 10.0 * s.p_value, "{} {}", w.p_value, s.p_value);
    }
}
