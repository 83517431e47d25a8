//! How many repetitions per side would likely settle an inconclusive comparison.
//!
//! A simulation-free estimate from two requirements; the answer is the larger of those that
//! apply, never less than one more than what was measured, and capped at [`MAX_REPS`].
//!
//! 1. Precision. The interval's half-width in log-ratio units shrinks like `1/sqrt(n)`. With
//!    observed half-width `h` at `n` reps (so a standard error `se = h / z_{c}`), and distance `d`
//!    from the observed log ratio to the nearest edge of the threshold band, the interval clears
//!    that edge with about 80% probability at `n * ((z_c + z_power) * se / d)^2` reps (the usual
//!    sample-size formula for a margin test). If the ratio lies outside the band the target is a
//!    change (the lower edge must clear `1 + t`, or the upper `1 - t`); inside it, equivalence
//!    (the interval must fit in the band).
//! 2. Significance, for a change only. Noether's (1987) formula for the Mann-Whitney test with
//!    equal groups: `n = (z_{1-a/2} + z_power)^2 / (6 (P - 1/2)^2)` per side, where `P` is the
//!    observed probability that a candidate value exceeds a reference value; for paired samples
//!    (signed-rank test) `n = (z_{1-a/2} + z_power)^2 / (3 (P' - 1/2)^2)` pairs, where `P'` is the
//!    share of positive Walsh averages of the differences; for the sign test
//!    `n = (z_{1-a/2} + z_power)^2 / (4 (p - 1/2)^2)` pairs, `p` the share of positive
//!    differences (the binomial proportion's sample size). It is also raised to
//!    the smallest `n` at which the exact test can reach `alpha / m` at all (`2 / C(2n, n)`, or
//!    `2 / 2^n` for pairs), since Benjamini-Hochberg over `m` phases may need that when only one
//!    phase moves.
//!
//! These assume the spread and the effect stay as observed; treat the answer as an order of
//! magnitude, not a promise.

use statrs::distribution::{ContinuousCDF, Normal};

/// Upper bound of the estimate (an effect sitting exactly on the threshold needs "infinitely" many).
pub const MAX_REPS: usize = 10_000;

/// What was observed for one inconclusive phase.
#[derive(Clone, Copy, Debug)]
pub struct Observed {
    /// Reps per side that were measured (the smaller side).
    pub n: usize,
    /// Observed median ratio (candidate / reference).
    pub ratio: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    /// Confidence level of the interval (0.95).
    pub confidence: f64,
    /// Relative threshold `t` of the band `[1 - t, 1 + t]`.
    pub threshold: f64,
    /// Observed probability of superiority `U / (n1 n2)`; for the signed-rank test the share
    /// of positive Walsh averages of the differences; for the sign test the share of positive
    /// differences.
    pub superiority: f64,
    /// The test that judged the row; for the paired ones `n` is the number of pairs.
    pub test: Test,
    pub alpha: f64,
    /// Number of phases tested together (Benjamini-Hochberg family size).
    pub family: usize,
}

/// Which test judged a row: it sets the effect-size constant of Noether's formula and the
/// smallest number at which the exact test can reach a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// Mann-Whitney, two independent samples.
    RankSum,
    /// Wilcoxon signed-rank, pairs.
    SignedRank,
    /// Sign test, pairs.
    Sign,
}

/// Target power of the estimate.
pub const POWER: f64 = 0.8;

/// Reps per side that would likely settle the comparison (see the module docs).
pub fn reps_needed(o: &Observed) -> usize {
    let std = Normal::standard();
    let z_c = std.inverse_cdf(0.5 + o.confidence / 2.0);
    let z_a = std.inverse_cdf(1.0 - o.alpha / 2.0);
    let z_b = std.inverse_cdf(POWER);
    let n = o.n.max(1) as f64;
    let floor = o.n + 1;
    if !(o.ratio > 0.0 && o.ratio.is_finite() && o.ci_low > 0.0 && o.ci_high.is_finite()) {
        return MAX_REPS;
    }
    let lr = o.ratio.ln();
    let up = (1.0 + o.threshold).ln();
    let down = if o.threshold < 1.0 {
        (1.0 - o.threshold).ln()
    } else {
        f64::NEG_INFINITY
    };
    let half = (o.ci_high.ln() - o.ci_low.ln()) / 2.0;
    let se = half / z_c;
    let change = lr > up || lr < down;
    let d = if change {
        if lr > up {
            lr - up
        } else {
            down - lr
        }
    } else {
        (up - lr).min(lr - down)
    };
    let precision = if se <= 0.0 {
        n
    } else if d <= 0.0 {
        f64::INFINITY
    } else {
        n * ((z_c + z_b) * se / d).powi(2)
    };
    let mut need = precision;
    if change {
        let eff = o.superiority - 0.5;
        // Noether (1987): 6 (P - 1/2)^2 for the rank-sum test, 3 (P' - 1/2)^2 for signed ranks;
        // the sign test's binomial proportion: 4 (p - 1/2)^2.
        let k = match o.test {
            Test::RankSum => 6.0,
            Test::SignedRank => 3.0,
            Test::Sign => 4.0,
        };
        let noether = if eff == 0.0 {
            f64::INFINITY
        } else {
            (z_a + z_b).powi(2) / (k * eff * eff)
        };
        let level = o.alpha / o.family.max(1) as f64;
        // Both paired tests' smallest p is 2 / 2^n.
        let exact = match o.test {
            Test::RankSum => min_exact_n(level),
            Test::SignedRank | Test::Sign => super::signed_rank::min_exact_pairs(level),
        };
        need = need.max(noether).max(exact as f64);
    }
    if !need.is_finite() || need >= MAX_REPS as f64 {
        return MAX_REPS;
    }
    (need.ceil() as usize).max(floor).min(MAX_REPS)
}

/// Smallest equal group size at which the exact two-sided Mann-Whitney test can reach `level`.
pub fn min_exact_n(level: f64) -> usize {
    // 2 / C(2n, n) <= level.
    let mut c = 2.0f64; // C(2, 1)
    for n in 1..64usize {
        if 2.0 / c <= level {
            return n;
        }
        // C(2(n+1), n+1) = C(2n, n) * (2n+1)(2n+2) / (n+1)^2
        let nf = n as f64;
        c *= (2.0 * nf + 1.0) * (2.0 * nf + 2.0) / ((nf + 1.0) * (nf + 1.0));
    }
    64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(ratio: f64, half: f64, superiority: f64) -> Observed {
        Observed {
            n: 5,
            ratio,
            ci_low: ratio * (-half).exp(),
            ci_high: ratio * half.exp(),
            confidence: 0.95,
            threshold: 0.03,
            superiority,
            test: Test::RankSum,
            alpha: 0.05,
            family: 1,
        }
    }

    #[test]
    fn exact_test_minimum_sizes() {
        // 2 / C(6, 3) = 0.1, 2 / C(8, 4) = 0.0286: n = 4 is the first to reach 0.05.
        assert_eq!(min_exact_n(0.05), 4);
        assert_eq!(min_exact_n(0.1), 3);
        // 2 / C(10, 5) = 0.0079, 2 / C(12, 6) = 0.0022.
        assert_eq!(min_exact_n(0.005), 6);
    }

    #[test]
    fn larger_effects_and_less_noise_need_fewer_reps() {
        let small = reps_needed(&obs(1.06, 0.04, 0.8));
        let large = reps_needed(&obs(1.12, 0.04, 0.8));
        assert!(large < small, "{large} vs {small}");
        let noisy = reps_needed(&obs(1.06, 0.08, 0.8));
        assert!(noisy > small, "{noisy} vs {small}");
        assert!(large > 5 && small <= MAX_REPS);
    }

    #[test]
    fn equivalence_target_and_degenerate_cases() {
        // Ratio inside the band with a wide interval: needs more reps to fit the band.
        let n = reps_needed(&obs(1.0, 0.05, 0.5));
        // se = 0.05 / 1.96, d = ln 1.03; n = 5 * ((1.96 + 0.84) * se / d)^2 = 29.2.
        assert_eq!(n, 30);
        // On the threshold exactly: capped.
        assert_eq!(reps_needed(&obs(1.03, 0.05, 0.7)), MAX_REPS);
        // Undefined ratio: capped.
        assert_eq!(reps_needed(&obs(f64::INFINITY, 0.05, 0.7)), MAX_REPS);
        // Never fewer than one more than measured.
        assert!(reps_needed(&obs(1.5, 0.001, 1.0)) >= 6);
    }
}
