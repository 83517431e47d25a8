//! One family of rows: every phase of one variant on one case, tested together.
//!
//! Each phase gets medians, ratio, bootstrap interval and Mann-Whitney p-value; the p-values
//! of the phases that could be tested are adjusted together with Benjamini-Hochberg (the family
//! is one variant on one case, `total` included, rows that only repeat their one child phase
//! excluded: see [`super::repeat`]), then each row gets its verdict by [`decide`]; a row that
//! only repeats a child takes the child's q-value and verdict.

use crate::model::{Case, PairedTest, PhaseComparison, Verdict};
use crate::stats::{self, reps_needed::Observed, Test};

use super::options::CompareOptions;

/// The samples of one phase on each side, and why a side may have none.
pub(crate) struct PhaseData {
    pub phase: String,
    pub reference: Vec<f64>,
    pub candidate: Vec<f64>,
    /// Why a side has no values (e.g. "phase missing in reference"), if it has none.
    pub ref_absent: Option<String>,
    pub cand_absent: Option<String>,
    pub ref_failed: usize,
    pub cand_failed: usize,
    /// (reference, candidate) values of the same repetition, when the comparison is paired
    /// and every repetition has exactly one sample a side.
    pub pairs: Option<Vec<(f64, f64)>>,
    /// The one child phase this phase only repeats in the family's measured samples, with the
    /// largest share of it the child leaves uncovered ([`super::repeat::repeated_child`]).
    pub same_as: Option<(String, f64)>,
}

/// The verdict rule. `regressed` / `improved` need a significant adjusted p-value (`q < alpha`)
/// AND the whole interval beyond `1 + threshold` / below `1 - threshold`; `unchanged` needs the
/// whole interval inside `[1 - threshold, 1 + threshold]`; anything else is `inconclusive`.
pub fn decide(q: f64, ci_low: f64, ci_high: f64, threshold: f64, alpha: f64) -> Verdict {
    let (lo, hi) = (1.0 - threshold, 1.0 + threshold);
    if q < alpha && ci_low > hi {
        Verdict::Regressed
    } else if q < alpha && ci_high < lo {
        Verdict::Improved
    } else if ci_low >= lo && ci_high <= hi {
        Verdict::Unchanged
    } else {
        Verdict::Inconclusive
    }
}

struct Tested {
    ref_median: f64,
    cand_median: f64,
    ratio: f64,
    ci: stats::RatioCi,
    p: f64,
    superiority: f64,
    threshold: f64,
    /// Pairs tested, when tested paired.
    pairs: Option<usize>,
    /// The test that gave `p`.
    test: Test,
}

/// Compares every phase of one (variant, case) family.
pub(crate) fn compare_family(
    variant: &str,
    case: &Case,
    data: Vec<PhaseData>,
    opts: &CompareOptions,
) -> Vec<PhaseComparison> {
    let suite_opts = opts.thresholds.for_suite(&case.suite).map(|thresholds| CompareOptions {
        thresholds,
        ..opts.clone()
    });
    let opts = suite_opts.as_ref().unwrap_or(opts);
    let mut rows = Vec::with_capacity(data.len());
    let mut tested: Vec<Option<Tested>> = Vec::with_capacity(data.len());
    let reasons: Vec<Option<String>> = data.iter().map(|d| untestable_reason(d, opts.min_samples)).collect();
    // A row repeats its child only when both can be tested and the part the child leaves
    // uncovered cannot move the row's ratio past its threshold on its own.
    let repeats: Vec<Option<(String, f64)>> = data
        .iter()
        .zip(&reasons)
        .map(|(d, reason)| {
            let (child, share) = d.same_as.clone()?;
            let c = data.iter().position(|x| x.phase == child)?;
            let threshold = opts
                .thresholds
                .effective(&d.phase, stats::median(&d.reference).unwrap_or(0.0));
            (reason.is_none() && reasons[c].is_none() && super::repeat::uncovered_bound(share) < threshold)
                .then_some((child, share))
        })
        .collect();
    // Pairs are tested paired only when they are enough for the exact paired test (signed-rank
    // or sign: the smallest p of either is 2 / 2^n) to reach the family's Bonferroni level at
    // all (2 / 2^n <= alpha / m, m the rows tested together);
    // fewer pairs have less power than the rank-sum test of the same samples, so they are tested
    // unpaired. The choice depends on counts only, never on the outcome.
    let members = repeats.iter().filter(|r| r.is_none()).count();
    let min_pairs = opts
        .min_samples
        .max(stats::signed_rank::min_exact_pairs(opts.alpha / members.max(1) as f64));
    let paired_test = opts.paired_test(&case.suite);
    for ((d, reason), repeat) in data.iter().zip(reasons).zip(&repeats) {
        let mut row = base_row(variant, case, d, opts);
        row.same_as = repeat.as_ref().map(|(c, _)| c.clone());
        let t = match reason {
            Some(reason) => {
                row.note = Some(join_notes(Some(reason), failure_note(d)));
                let few = d.reference.len().min(d.candidate.len()) < opts.min_samples;
                let present = d.ref_absent.is_none() && d.cand_absent.is_none();
                row.reps_needed =
                    (present && few).then(|| opts.min_samples.max(stats::reps_needed::min_exact_n(opts.alpha)));
                None
            }
            None => {
                let label = format!("{variant}|{}|{}", case.label(), d.phase);
                let seed = stats::derive_seed(opts.bootstrap_seed, &label);
                test_phase(d, opts, paired_test, min_pairs, seed)
            }
        };
        if let Some(t) = &t {
            row.ref_median_ms = t.ref_median;
            row.cand_median_ms = t.cand_median;
            row.ratio = finite(t.ratio);
            row.ci_low = finite(t.ci.low);
            row.ci_high = finite(t.ci.high);
            row.p_value = t.p;
            row.threshold = t.threshold;
            row.pairs = t.pairs;
        }
        rows.push(row);
        tested.push(t);
    }
    let ps: Vec<f64> = tested
        .iter()
        .zip(&repeats)
        .filter(|(_, r)| r.is_none())
        .filter_map(|(t, _)| t.as_ref().map(|t| t.p))
        .collect();
    let qs = stats::benjamini_hochberg(&ps);
    let family = ps.len();
    let mut qi = qs.into_iter();
    for (((row, t), d), repeat) in rows.iter_mut().zip(&tested).zip(&data).zip(&repeats) {
        let Some(t) = t else { continue };
        if let Some((child, share)) = repeat {
            // Verdict and q-value: the child's, given by `follow_children` below.
            row.note = Some(join_notes(Some(super::repeat::note(child, *share)), failure_note(d)));
            continue;
        }
        let q = qi.next().unwrap_or(1.0);
        row.q_value = q;
        row.verdict = decide(q, t.ci.low, t.ci.high, t.threshold, opts.alpha);
        let mut reason = None;
        if row.verdict == Verdict::Inconclusive {
            let n = t.pairs.unwrap_or_else(|| d.reference.len().min(d.candidate.len()));
            row.reps_needed = Some(stats::reps_needed(&Observed {
                n,
                test: t.test,
                ratio: t.ratio,
                ci_low: t.ci.low,
                ci_high: t.ci.high,
                confidence: opts.confidence,
                threshold: t.threshold,
                superiority: t.superiority,
                alpha: opts.alpha,
                family,
            }));
            let beyond = t.ci.low > 1.0 + t.threshold || t.ci.high < 1.0 - t.threshold;
            reason = Some(if beyond {
                format!("beyond the threshold but not significant (q = {q:.3})")
            } else {
                "interval crosses the threshold band".to_string()
            });
        } else if row.verdict == Verdict::Unchanged && q < opts.alpha && t.ratio != 1.0 {
            reason = Some("significant but inside the threshold band".to_string());
        }
        let note = join_notes(reason, failure_note(d));
        row.note = (!note.is_empty()).then_some(note);
    }
    super::repeat::follow_children(&mut rows);
    rows
}

fn base_row(variant: &str, case: &Case, d: &PhaseData, opts: &CompareOptions) -> PhaseComparison {
    let ref_median = stats::median(&d.reference).map(finite).unwrap_or(0.0);
    let cand_median = stats::median(&d.candidate).map(finite).unwrap_or(0.0);
    let ratio = if d.reference.is_empty() || d.candidate.is_empty() {
        1.0
    } else {
        finite(stats::ratio(cand_median, ref_median))
    };
    PhaseComparison {
        variant: variant.to_string(),
        case: case.clone(),
        phase: d.phase.clone(),
        ref_n: d.reference.len(),
        cand_n: d.candidate.len(),
        ref_median_ms: ref_median,
        cand_median_ms: cand_median,
        ratio,
        ci_low: ratio,
        ci_high: ratio,
        p_value: 1.0,
        q_value: 1.0,
        threshold: opts.thresholds.effective(&d.phase, ref_median),
        verdict: Verdict::Inconclusive,
        reps_needed: None,
        note: None,
        pairs: None,
        same_as: None,
    }
}

/// Why a row cannot be tested, if it cannot.
fn untestable_reason(d: &PhaseData, min: usize) -> Option<String> {
    if let Some(r) = d.ref_absent.as_ref().or(d.cand_absent.as_ref()) {
        return Some(r.clone());
    }
    if d.reference
        .iter()
        .chain(&d.candidate)
        .any(|v| !(v.is_finite() && *v >= 0.0))
    {
        return Some("negative or non-finite timings".into());
    }
    let (nr, nc) = (d.reference.len(), d.candidate.len());
    if nr < min || nc < min {
        return Some(format!(
            "too few samples: reference {nr}, candidate {nc} (need {min} per side)"
        ));
    }
    if stats::median(&d.reference).unwrap_or(0.0) <= 0.0 && stats::median(&d.candidate).unwrap_or(0.0) > 0.0 {
        return Some("reference median is 0 ms: ratio undefined".into());
    }
    None
}

fn test_phase(d: &PhaseData, opts: &CompareOptions, test: PairedTest, min_pairs: usize, seed: u64) -> Option<Tested> {
    let ref_median = stats::median(&d.reference)?;
    let cand_median = stats::median(&d.candidate)?;
    if let Some(t) = test_paired(d, opts, test, min_pairs, seed, ref_median, cand_median) {
        return Some(t);
    }
    let ci = stats::median_ratio_ci(&d.reference, &d.candidate, opts.resamples, opts.confidence, seed)?;
    let mwu = stats::mann_whitney(&d.candidate, &d.reference)?;
    Some(Tested {
        ref_median,
        cand_median,
        ratio: stats::ratio(cand_median, ref_median),
        ci,
        p: mwu.p_value,
        superiority: mwu.superiority,
        threshold: opts.thresholds.effective(&d.phase, ref_median),
        pairs: None,
        test: Test::RankSum,
    })
}

/// The paired test of a phase: per-pair log ratios, their median, a paired bootstrap interval
/// and `test` (signed-rank or sign). `None` (test unpaired) without pairs, with fewer than
/// `min_pairs` of them, or with a zero value (no log ratio).
fn test_paired(
    d: &PhaseData,
    opts: &CompareOptions,
    test: PairedTest,
    min_pairs: usize,
    seed: u64,
    ref_median: f64,
    cand_median: f64,
) -> Option<Tested> {
    let pairs = d.pairs.as_ref()?;
    if pairs.len() < min_pairs || pairs.iter().any(|&(r, c)| !(r > 0.0 && c > 0.0)) {
        return None;
    }
    let lr: Vec<f64> = pairs.iter().map(|&(r, c)| (c / r).ln()).collect();
    let (p, superiority, kind) = match test {
        PairedTest::SignedRank => {
            let r = stats::signed_rank(&lr)?;
            (r.p_value, r.superiority, Test::SignedRank)
        }
        PairedTest::Sign => {
            let r = stats::sign_test(&lr)?;
            (r.p_value, r.superiority, Test::Sign)
        }
    };
    Some(Tested {
        ref_median,
        cand_median,
        ratio: stats::paired_ratio(&lr)?,
        ci: stats::paired_ratio_ci(&lr, opts.resamples, opts.confidence, seed)?,
        p,
        superiority,
        test: kind,
        threshold: opts.thresholds.effective(&d.phase, ref_median),
        pairs: Some(pairs.len()),
    })
}

fn failure_note(d: &PhaseData) -> Option<String> {
    match (d.ref_failed, d.cand_failed) {
        (0, 0) => None,
        (r, 0) => Some(format!("{r} failed reference samples excluded")),
        (0, c) => Some(format!("{c} failed candidate samples excluded")),
        (r, c) => Some(format!(
            "{r} failed reference and {c} failed candidate samples excluded"
        )),
    }
}

fn join_notes(a: Option<String>, b: Option<String>) -> String {
    [a, b].into_iter().flatten().collect::<Vec<_>>().join("; ")
}

/// Keeps JSON numbers valid: infinities become the largest finite value, NaN becomes 0.
fn finite(v: f64) -> f64 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(f64::MIN, f64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_rule() {
        let a = 0.05;
        assert_eq!(decide(0.01, 1.05, 1.12, 0.03, a), Verdict::Regressed);
        assert_eq!(decide(0.20, 1.05, 1.12, 0.03, a), Verdict::Inconclusive);
        assert_eq!(decide(0.01, 1.02, 1.12, 0.03, a), Verdict::Inconclusive);
        assert_eq!(decide(0.01, 0.85, 0.95, 0.03, a), Verdict::Improved);
        assert_eq!(decide(0.01, 0.98, 1.02, 0.03, a), Verdict::Unchanged);
        assert_eq!(decide(0.90, 0.98, 1.02, 0.03, a), Verdict::Unchanged);
        assert_eq!(decide(0.90, 0.90, 1.10, 0.03, a), Verdict::Inconclusive);
    }
}
