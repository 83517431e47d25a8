//! Judging a night and settling its undecided rows.
//!
//! A night's rows are judged per variant against its reference: the
//! baseline's runner measured tonight, interleaved (a within-run comparison),
//! or, where no such runner could be had, the baseline's stored samples.
//! Rows left inconclusive get more interleaved repetitions of their variant
//! and its reference, in rounds, until every row is regressed, improved or
//! unchanged, the round cap is reached, or the next round would overrun the
//! night's time budget.
//!
//! The budget rule (what a night exits with when settling stops first): a
//! still-inconclusive row whose slowdown is significant (q < alpha / looks,
//! where looks counts the first judging and every settling round), whose
//! whole interval lies above 1 and whose median ratio lies beyond the phase's
//! threshold is counted as a regression: the slowdown is real and more likely
//! than not larger than the threshold. Its verdict becomes `regressed` with a
//! note saying so. Any other inconclusive row stays inconclusive, is listed
//! with the repetitions it would need, and does not fail the night.

use crate::compare::{self, CompareOptions};
use crate::error::HarnessError;
use crate::model::{Case, Comparison, Run, Verdict};
use crate::reference::{self, RefChoice};
use crate::runner::Session;
use serde::Serialize;
use std::time::{Duration, Instant};

/// More rounds than this would mostly re-test rows that sit on a threshold.
pub const MAX_ROUNDS: usize = 6;

/// The note of a row counted as a regression by the budget rule.
pub const BUDGET_RULE_NOTE: &str = "regressed by the nightly budget rule: significant slowdown, interval above 1, \
     median ratio beyond the threshold, interval still reaching into the band when the budget ended";

/// Tonight's variants judged against their references.
pub fn judge(
    run: &Run,
    stored: &Run,
    choices: &[RefChoice],
    opts: &CompareOptions,
) -> Result<Comparison, HarnessError> {
    let mut rows = Vec::new();
    let tonight = run.only_variants(|n| !reference::is_ref(n));
    for c in choices {
        let part = if c.measured() {
            compare::compare_variants(run, &reference::ref_name(&c.variant), &c.variant, opts)?
        } else {
            let keep = |n: &str| n == c.variant;
            compare::compare_runs(&stored.only_variants(keep), &tonight.only_variants(keep), opts)?
        };
        rows.extend(part.rows);
    }
    if rows.is_empty() {
        return Err(HarnessError::Incomparable(
            "the night judged nothing: none of tonight's variants is in the baseline".into(),
        ));
    }
    one_family(&mut rows, opts.alpha);
    Ok(Comparison {
        reference: opts.reference_label.clone().unwrap_or_else(|| "reference".into()),
        candidate: opts
            .candidate_label
            .clone()
            .unwrap_or_else(|| format!("run {}", run.id)),
        cross_testbed: stored.testbed.key != run.testbed.key,
        ref_testbed: stored.testbed.key.clone(),
        cand_testbed: run.testbed.key.clone(),
        bootstrap_seed: opts.bootstrap_seed,
        alpha: opts.alpha,
        rows,
    })
}

/// A night ends in one exit code, so its false-alarm rate is that of all its rows together, not
/// of each (variant, case) family: the p-values of every row with both sides measured are
/// adjusted again as one Benjamini-Hochberg family, each row keeps the larger of its two q-values,
/// and rows whose verdict rested on significance are decided again. (A same-commit night on a GPU
/// host once failed on one row of 92 at q = 0.047 within its family of 23.) Rows that only
/// repeat their one child phase (`same_as`) are not in the family; they take their child's
/// q-value and verdict afterwards.
fn one_family(rows: &mut [crate::model::PhaseComparison], alpha: f64) {
    let tested: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].ref_n > 0 && rows[i].cand_n > 0 && rows[i].same_as.is_none())
        .collect();
    let p: Vec<f64> = tested.iter().map(|&i| rows[i].p_value).collect();
    let q = crate::stats::benjamini_hochberg(&p);
    for (&i, q) in tested.iter().zip(q) {
        let r = &mut rows[i];
        if q <= r.q_value {
            continue;
        }
        r.q_value = q;
        if matches!(r.verdict, Verdict::Regressed | Verdict::Improved) {
            let v = compare::decide(q, r.ci_low, r.ci_high, r.threshold, alpha);
            if v != r.verdict {
                r.note = Some(format!(
                    "{} within its family, not across the night's {} rows (q = {q:.3})",
                    r.verdict.as_str(),
                    p.len()
                ));
                r.verdict = v;
            }
        }
    }
    compare::follow_children(rows);
}

/// One row still undecided when settling stopped.
#[derive(Clone, Debug, Serialize)]
pub struct Undecided {
    pub variant: String,
    pub case: String,
    pub phase: String,
    pub ratio: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub threshold: f64,
    /// Repetitions per side that would likely settle it.
    pub reps_needed: Option<usize>,
}

/// What settling did (`nightly.json`'s `settle`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct SettleReport {
    pub budget_s: f64,
    pub elapsed_s: f64,
    pub rounds: usize,
    /// Repetitions added per side, over all rounds and (variant, case) pairs.
    pub added_reps: usize,
    /// Why settling stopped: `settled`, `budget`, `round cap`, `nothing to settle`.
    pub stopped: String,
    /// Rows counted as regressions by the budget rule.
    pub budget_rule_regressions: usize,
    pub undecided: Vec<Undecided>,
}

/// Rows that more repetitions could decide: inconclusive and testable.
fn open_rows(c: &Comparison) -> Vec<(String, Case)> {
    let mut out: Vec<(String, Case)> = Vec::new();
    for r in c
        .rows
        .iter()
        .filter(|r| r.verdict == Verdict::Inconclusive && r.reps_needed.is_some())
    {
        if !out.iter().any(|(v, k)| *v == r.variant && *k == r.case) {
            out.push((r.variant.clone(), r.case.clone()));
        }
    }
    out
}

/// Whether the budget rule counts an inconclusive row as a regression after `looks` judgings
/// of the night (the first pass and every settling round). The rule bypasses the threshold
/// that otherwise guards against peeking, so its significance level is split over the looks
/// (Bonferroni): `q < alpha / looks`.
pub fn budget_rule(r: &crate::model::PhaseComparison, alpha: f64, looks: usize) -> bool {
    r.verdict == Verdict::Inconclusive
        && r.q_value < alpha / looks.max(1) as f64
        && r.ci_low > 1.0
        && r.ratio > 1.0 + r.threshold
}

/// Settles `session`'s undecided rows within `budget` (counted from `started`),
/// re-judging after every round with `judge_run`. Returns the final run, its
/// comparison (budget rule applied) and what was done.
pub fn settle(
    session: &mut Session,
    choices: &[RefChoice],
    round_reps: &dyn Fn(&Case) -> usize,
    judge_run: &dyn Fn(&Run) -> Result<Comparison, HarnessError>,
    budget: Duration,
    started: Instant,
) -> Result<(Run, Comparison, SettleReport), HarnessError> {
    let mut rep = SettleReport {
        budget_s: budget.as_secs_f64(),
        ..SettleReport::default()
    };
    let mut run = session.run();
    let mut cmp = judge_run(&run)?;
    // Seconds per measured child so far: what the next round is estimated from.
    let measured_since = Instant::now();
    let mut per_child = started.elapsed().as_secs_f64() / (run.samples.len().max(1) as f64);
    let mut children_in_rounds = 0usize;
    rep.stopped = "nothing to settle".into();
    loop {
        let open = open_rows(&cmp);
        if open.is_empty() {
            if rep.rounds > 0 {
                rep.stopped = "settled".into();
            }
            break;
        }
        if rep.rounds >= MAX_ROUNDS {
            rep.stopped = "round cap".into();
            break;
        }
        let plan: Vec<(Vec<String>, Case, usize)> = open
            .iter()
            .map(|(v, case)| {
                let mut names = Vec::new();
                if choices.iter().any(|c| &c.variant == v && c.measured()) {
                    names.push(reference::ref_name(v));
                }
                names.push(v.clone());
                (names, case.clone(), round_reps(case))
            })
            .collect();
        let children: usize = plan.iter().map(|(n, _, r)| n.len() * r).sum();
        let estimate = per_child * children as f64;
        if started.elapsed().as_secs_f64() + estimate > budget.as_secs_f64() {
            rep.stopped = "budget".into();
            break;
        }
        eprintln!(
            "settle: round {} adds repetitions to {} undecided (variant, case) pair(s), about {:.0} s",
            rep.rounds + 1,
            plan.len(),
            estimate
        );
        for (names, case, reps) in &plan {
            session.more(names, case, *reps)?;
            rep.added_reps += reps;
        }
        children_in_rounds += children;
        per_child = measured_since.elapsed().as_secs_f64() / children_in_rounds as f64;
        rep.rounds += 1;
        run = session.run();
        cmp = judge_run(&run)?;
    }
    for r in cmp.rows.iter_mut() {
        if budget_rule(r, cmp.alpha, rep.rounds + 1) {
            r.verdict = Verdict::Regressed;
            r.note = Some(match &r.note {
                Some(n) => format!("{BUDGET_RULE_NOTE}; {n}"),
                None => BUDGET_RULE_NOTE.into(),
            });
            rep.budget_rule_regressions += 1;
        }
    }
    rep.undecided = cmp
        .rows
        .iter()
        .filter(|r| r.verdict == Verdict::Inconclusive)
        .map(|r| Undecided {
            variant: r.variant.clone(),
            case: r.case.label(),
            phase: r.phase.clone(),
            ratio: r.ratio,
            ci_low: r.ci_low,
            ci_high: r.ci_high,
            threshold: r.threshold,
            reps_needed: r.reps_needed,
        })
        .collect();
    rep.elapsed_s = started.elapsed().as_secs_f64();
    Ok((run, cmp, rep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PhaseComparison;

    fn row(verdict: Verdict, q: f64, lo: f64, ratio: f64, hi: f64) -> PhaseComparison {
        PhaseComparison {
            variant: "v".into(),
            case: crate::testkit::case("e2e", "tiny"),
            phase: "msm_l".into(),
            ref_n: 8,
            cand_n: 8,
            ref_median_ms: 10.0,
            cand_median_ms: 10.0 * ratio,
            ratio,
            ci_low: lo,
            ci_high: hi,
            p_value: q,
            q_value: q,
            threshold: 0.10,
            verdict,
            reps_needed: Some(20),
            note: None,
            pairs: None,
            same_as: None,
        }
    }

    #[test]
    fn a_night_is_one_family() {
        // One row at p = 0.04 among 92 quiet ones no longer fails the night; a strong one still does.
        let quiet = row(Verdict::Unchanged, 0.8, 0.98, 1.0, 1.02);
        let mut rows = vec![quiet.clone(); 91];
        rows.push(row(Verdict::Regressed, 0.04, 1.2, 1.4, 1.5));
        one_family(&mut rows, 0.05);
        assert_eq!(rows[91].verdict, Verdict::Inconclusive);
        assert!(rows[91]
            .note
            .as_deref()
            .unwrap()
            .contains("not across the night's 92 rows"));
        let mut rows = vec![quiet; 91];
        rows.push(row(Verdict::Regressed, 0.0002, 1.2, 1.4, 1.5));
        one_family(&mut rows, 0.05);
        assert_eq!(rows[91].verdict, Verdict::Regressed);
        assert!(rows[91].q_value > 0.0002 && rows[91].q_value < 0.05);
    }

    #[test]
    fn budget_rule_counts_only_real_slowdowns_beyond_the_threshold() {
        // The case that went out as "no regression": +10.7% .. +39.9%, q = 0.03, threshold 11.3%.
        let mut r = row(Verdict::Inconclusive, 0.03, 1.107, 1.2, 1.399);
        r.threshold = 0.113;
        assert!(budget_rule(&r, 0.05, 1));
        // Median inside the band: not counted.
        assert!(!budget_rule(
            &row(Verdict::Inconclusive, 0.03, 1.02, 1.08, 1.2),
            0.05,
            1
        ));
        // Not significant: not counted.
        assert!(!budget_rule(&row(Verdict::Inconclusive, 0.2, 1.02, 1.2, 1.4), 0.05, 1));
        // Interval reaching below 1: not counted.
        assert!(!budget_rule(&row(Verdict::Inconclusive, 0.03, 0.99, 1.2, 1.4), 0.05, 1));
        // Faster: never a regression.
        assert!(!budget_rule(&row(Verdict::Inconclusive, 0.03, 0.7, 0.8, 0.95), 0.05, 1));
        // Decided rows keep their verdict.
        assert!(!budget_rule(&row(Verdict::Unchanged, 0.03, 1.01, 1.2, 1.05), 0.05, 1));
        // After six settling rounds (seven looks) q = 0.03 is not enough: the level is 0.05 / 7.
        assert!(!budget_rule(&r, 0.05, 7));
        r.q_value = 0.005;
        assert!(budget_rule(&r, 0.05, 7));
    }
}
