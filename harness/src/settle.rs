//! Judging a night and settling its undecided rows.
//!
//! A night's rows are judged per variant against its reference: the
//! baseline's runner measured tonight, interleaved (a within-run comparison),
//! or, where no such runner could be had, the baseline's stored samples.
//! Rows left inconclusive get more interleaved repetitions of their variant
//! and its reference, in rounds, until every row is regressed, improved or
//! unchanged, the round cap is reached, the next round would overrun the
//! night's time budget, or no undecided row could settle within what that
//! budget can still buy ([`within_reach`]).
//!
//! Every judging of the night is a look at the data: the first judging and the
//! judging after each settling round. A row judged at several looks has
//! several chances to cross its significance level by chance, so the night's
//! alpha is spent over its looks ([`Looks`], a Bonferroni split): before the
//! first judging the night plans `R` settling rounds at most, and the
//! significance level of look `k` (1-based) is
//!
//! ```text
//! alpha_1 = alpha                          when R = 0
//! alpha_1 = alpha * FIRST_LOOK_SHARE       when R > 0 (half of alpha)
//! alpha_k = alpha * (1 - FIRST_LOOK_SHARE) / R    for k = 2 ..= R + 1
//! ```
//!
//! so that `alpha_1 + ... + alpha_(R+1) = alpha`, and no round beyond the `R`
//! planned is run. `R` is [`MAX_ROUNDS`] or fewer: as many rounds as the budget
//! left after the first pass holds if every round were as cheap as the cheapest
//! possible one (one (variant, case) pair re-measured), at the first pass's
//! time per child. A round whose pairs do not all fit in the budget left
//! measures the pairs with the most undecided rows that do ([`fit_round`]). It depends on timings and counts, never on a verdict. At
//! look `k` a row is `regressed` or `improved` only when its q-value (the
//! larger of its family's and the night's) is below `alpha_k`, in the ordinary
//! rule and in the budget rule alike; so a row that is not slower has a
//! chance of at most `alpha_1 + ... + alpha_(R+1) = alpha` of being called a
//! regression over the whole night, however many rounds run.
//!
//! The budget rule (what a night exits with when settling stops first): a
//! still-inconclusive row whose slowdown is significant at the last look
//! (q < alpha_k, the level of that look), whose whole interval lies above 1
//! and whose median ratio lies beyond the phase's threshold is counted as a
//! regression: the slowdown is real and more likely than not larger than the
//! threshold. Its verdict becomes `regressed` with a note saying so. Any other
//! inconclusive row stays inconclusive, is listed with the repetitions it
//! would need, and does not fail the night.
//!
//! A row that only repeats its one child phase (`total` of a synthesis-only
//! night: see `compare::repeat`) is in no family: neither its (variant, case)
//! family nor the night's. It is shown, marked `same as <child>`, and takes
//! its child's q-value and verdict, so one measurement is counted once.

use crate::compare::{self, CompareOptions};
use crate::error::HarnessError;
use crate::model::{Case, Comparison, Run, Verdict};
use crate::reference::{self, RefChoice};
use crate::runner::Session;
use serde::Serialize;
use std::time::{Duration, Instant};

/// More rounds than this would mostly re-test rows that sit on a threshold.
pub const MAX_ROUNDS: usize = 6;

/// The share of alpha the first look keeps when settling rounds are planned: most nights are
/// decided at the first look, so it keeps half, and the planned rounds share the other half.
pub const FIRST_LOOK_SHARE: f64 = 0.5;

/// How a night spends its alpha over its looks (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Looks {
    /// The night's false-alarm level per row.
    pub alpha: f64,
    /// Settling rounds planned before the first look; no more are run.
    pub planned_rounds: usize,
}

impl Looks {
    /// The significance level of look `look` (1 the first judging, `k + 1` after round `k`);
    /// 0 (nothing significant) after the planned rounds.
    pub fn level(&self, look: usize) -> f64 {
        let r = self.planned_rounds;
        match look {
            0 | 1 if r == 0 => self.alpha,
            0 | 1 => self.alpha * FIRST_LOOK_SHARE,
            k if k <= r + 1 => self.alpha * (1.0 - FIRST_LOOK_SHARE) / r as f64,
            _ => 0.0,
        }
    }

    /// The sum of the levels of every planned look: at most alpha.
    pub fn spent(&self) -> f64 {
        (1..=self.planned_rounds + 1).map(|k| self.level(k)).sum()
    }
}

/// The note of a row counted as a regression by the budget rule.
pub const BUDGET_RULE_NOTE: &str = "regressed by the nightly budget rule: significant slowdown, interval above 1, \
     median ratio beyond the threshold, interval still reaching into the band when the budget ended";

/// Tonight's variants judged against their references at significance level `level` (the
/// level of this look, [`Looks::level`]; `opts.alpha` at a night's only look). The comparison
/// reports `opts.alpha`, the night's alpha.
pub fn judge(
    run: &Run,
    stored: &Run,
    choices: &[RefChoice],
    opts: &CompareOptions,
    level: f64,
) -> Result<Comparison, HarnessError> {
    let night_alpha = opts.alpha;
    let mut rows = Vec::new();
    let tonight = run.only_variants(|n| !reference::is_ref(n));
    // Verdicts, pairing and the repetitions an inconclusive row needs are all at this look's level.
    let at_level = CompareOptions {
        alpha: level.clamp(f64::MIN_POSITIVE, opts.alpha),
        ..opts.clone()
    };
    let opts = &at_level;
    let alpha = at_level.alpha;
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
    one_family(&mut rows, alpha);
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
        alpha: night_alpha,
        rows,
    })
}

/// A night ends in one exit code, so its false-alarm rate is that of all its rows together, not
/// of each (variant, case) family: the p-values of every row with both sides measured are
/// adjusted again as one Benjamini-Hochberg family, each row keeps the larger of its two q-values,
/// and rows whose verdict rested on significance are decided again. (A same-commit night on a GPU
/// host once failed on one row of 92 at q = 0.047 within its family of 23.) Rows that only
/// repeat their one child phase (`same_as`) are not in the family; they take their child's
/// q-value and verdict afterwards. `alpha` is the level of this look.
fn one_family(rows: &mut [crate::model::PhaseComparison], alpha: f64) {
    let tested: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].ref_n > 0 && rows[i].cand_n > 0 && rows[i].same_as.is_none())
        .collect();
    let p: Vec<f64> = tested.iter().map(|&i| rows[i].p_value).collect();
    let q = crate::stats::benjamini_hochberg(&p);
    for (&i, q) in tested.iter().zip(q) {
        let r = &mut rows[i];
        let grew = q > r.q_value;
        if grew {
            r.q_value = q;
        }
        if matches!(r.verdict, Verdict::Regressed | Verdict::Improved) {
            let q = r.q_value;
            let v = compare::decide(q, r.ci_low, r.ci_high, r.threshold, alpha);
            if v != r.verdict {
                r.note = Some(if grew {
                    format!(
                        "{} within its family, not across the night's {} rows (q = {q:.3})",
                        r.verdict.as_str(),
                        p.len()
                    )
                } else {
                    format!(
                        "{} only at a level above this look's ({alpha:.4}; q = {q:.3})",
                        r.verdict.as_str()
                    )
                });
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
    /// Why settling stopped.
    pub stopped: Stopped,
    /// Undecided rows, when settling stopped, that the budget left could not
    /// have settled: each needed more repetitions a side than [`REACH_MARGIN`]
    /// times what its pair had plus what the budget could still add.
    pub out_of_reach: usize,
    /// Rows counted as regressions by the budget rule (rows that only repeat a child not counted).
    pub budget_rule_regressions: usize,
    /// Settling rounds planned before the first look (the night's alpha is spent over them).
    pub planned_rounds: usize,
    /// The significance level of each look taken: the first judging, then each round's.
    pub look_levels: Vec<f64>,
    pub undecided: Vec<Undecided>,
}

/// Why a night's settling stopped (`nightly.json`'s `settle.stopped`).
/// Printed and serialized as the same words ([`Stopped::as_str`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stopped {
    /// The first judging left no row that more repetitions could decide.
    #[default]
    NothingToSettle,
    /// Rounds ran and every row was decided.
    Settled,
    /// No more rounds were planned, or not even one (variant, case) pair of
    /// the next round fitted in the budget left.
    Budget,
    /// The planned rounds ([`MAX_ROUNDS`] at most) have run.
    RoundCap,
    /// Rows stayed undecided, but none could settle within what the budget
    /// left can buy ([`within_reach`]).
    OutOfReach,
}

impl Stopped {
    pub fn as_str(&self) -> &'static str {
        match self {
            Stopped::NothingToSettle => "nothing to settle",
            Stopped::Settled => "settled",
            Stopped::Budget => "budget",
            Stopped::RoundCap => "round cap",
            Stopped::OutOfReach => "out of reach",
        }
    }
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Stopped {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// How far beyond what the budget can buy an estimate may lie and its row
/// still be re-measured: the estimate of [`crate::stats::reps_needed`] is an
/// order of magnitude, so only rows beyond twice the reach are given up.
pub const REACH_MARGIN: usize = 2;

/// Whether a row estimated to settle at `needed` repetitions a side could,
/// given the `have` its pair has and the `afford` more the budget left can
/// buy for that pair alone, within [`REACH_MARGIN`].
pub fn within_reach(needed: usize, have: usize, afford: usize) -> bool {
    needed <= REACH_MARGIN.saturating_mul(have.saturating_add(afford))
}

/// The (variant, case) pairs with rows that more repetitions could decide
/// (inconclusive, testable and [`within_reach`], `afford` giving the
/// repetitions a side the budget left can buy for a pair), each with how many
/// such rows it has; and how many undecided rows are out of reach.
fn open_rows(c: &Comparison, afford: &dyn Fn(&str, &Case) -> usize) -> (Vec<(String, Case, usize)>, usize) {
    let mut out: Vec<(String, Case, usize)> = Vec::new();
    let mut beyond = 0;
    for r in c.rows.iter().filter(|r| r.verdict == Verdict::Inconclusive) {
        let Some(needed) = r.reps_needed else { continue };
        if !within_reach(needed, r.ref_n.min(r.cand_n), afford(&r.variant, &r.case)) {
            beyond += 1;
            continue;
        }
        match out.iter_mut().find(|(v, k, _)| *v == r.variant && *k == r.case) {
            Some(o) => o.2 += 1,
            None => out.push((r.variant.clone(), r.case.clone(), 1)),
        }
    }
    (out, beyond)
}

/// Which of a round's pairs fit in `left` seconds, given each pair's open
/// rows and estimated cost: the pairs with the most open rows first (ties in
/// plan order), each taken while it still fits. Every pair when all fit;
/// none when not even one does. Indices into the plan, in plan order.
pub fn fit_round(pairs: &[(usize, f64)], left: f64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    order.sort_by(|a, b| pairs[*b].0.cmp(&pairs[*a].0).then(a.cmp(b)));
    let mut spent = 0.0;
    let mut take = Vec::new();
    for i in order {
        if spent + pairs[i].1 <= left {
            spent += pairs[i].1;
            take.push(i);
        }
    }
    take.sort_unstable();
    take
}

/// Whether the budget rule counts an inconclusive row as a regression at the night's last
/// look, whose significance level is `level` ([`Looks::level`]: the same level the ordinary
/// rule used at that look, so the night's alpha is spent once over all its looks): `q < level`,
/// the whole interval above 1 and the median ratio beyond the threshold. A row that only
/// repeats its child is never counted itself: it takes its child's verdict.
pub fn budget_rule(r: &crate::model::PhaseComparison, level: f64) -> bool {
    r.verdict == Verdict::Inconclusive
        && r.same_as.is_none()
        && r.q_value < level
        && r.ci_low > 1.0
        && r.ratio > 1.0 + r.threshold
}

/// The settling rounds a night plans before its first look: as many as `left` seconds of budget
/// hold if every round cost `cheapest_round` seconds (the cheapest round possible), at most
/// [`MAX_ROUNDS`]. Timings and counts only, never a verdict.
pub fn planned_rounds(left: f64, cheapest_round: f64) -> usize {
    // NaN counts as no budget left, and as a round of unknown (no) cost.
    if left.is_nan() || left <= 0.0 {
        0
    } else if cheapest_round.is_nan() || cheapest_round <= 0.0 {
        MAX_ROUNDS
    } else {
        ((left / cheapest_round).floor() as usize).min(MAX_ROUNDS)
    }
}

/// Settles `session`'s undecided rows within `budget` (counted from `started`),
/// re-judging after every round with `judge_run`. Returns the final run, its
/// comparison (budget rule applied) and what was done.
pub fn settle(
    session: &mut Session,
    choices: &[RefChoice],
    round_reps: &dyn Fn(&Case) -> usize,
    judge_run: &dyn Fn(&Run, f64) -> Result<Comparison, HarnessError>,
    alpha: f64,
    budget: Duration,
    started: Instant,
) -> Result<(Run, Comparison, SettleReport), HarnessError> {
    let mut rep = SettleReport {
        budget_s: budget.as_secs_f64(),
        ..SettleReport::default()
    };
    let mut run = session.run();
    // The names measured in a round for variant `v`: its reference runner (when measured
    // tonight), then `v`.
    let names_of = |v: &String| {
        let mut names = Vec::new();
        if choices.iter().any(|c| &c.variant == v && c.measured()) {
            names.push(reference::ref_name(v));
        }
        names.push(v.clone());
        names
    };
    // Seconds per measured child so far: what the next round is estimated from.
    let measured_since = Instant::now();
    let mut per_child = started.elapsed().as_secs_f64() / (run.samples.len().max(1) as f64);
    // The looks are planned before the first one, from the cheapest round there could be.
    let cheapest = choices
        .iter()
        .flat_map(|c| {
            run.cases
                .iter()
                .filter(|k| run.samples.iter().any(|s| s.variant == c.variant && &s.case == *k))
                .map(|k| names_of(&c.variant).len() * round_reps(k))
        })
        .min();
    let looks = Looks {
        alpha,
        planned_rounds: match cheapest {
            Some(children) => planned_rounds(
                budget.as_secs_f64() - started.elapsed().as_secs_f64(),
                per_child * children as f64,
            ),
            None => 0,
        },
    };
    rep.planned_rounds = looks.planned_rounds;
    rep.look_levels.push(looks.level(1));
    let mut cmp = judge_run(&run, looks.level(1))?;
    let mut children_in_rounds = 0usize;
    rep.stopped = Stopped::NothingToSettle;
    loop {
        let left = budget.as_secs_f64() - started.elapsed().as_secs_f64();
        // Repetitions a side the budget left buys for one pair, all of it spent there.
        let afford = |v: &str, _: &Case| {
            let per_rep = per_child * names_of(&v.to_string()).len() as f64;
            if left > 0.0 && per_rep > 0.0 {
                (left / per_rep).floor() as usize
            } else {
                0
            }
        };
        let (open, beyond) = open_rows(&cmp, &afford);
        rep.out_of_reach = beyond;
        if open.is_empty() && beyond == 0 {
            if rep.rounds > 0 {
                rep.stopped = Stopped::Settled;
            }
            break;
        }
        if rep.rounds >= looks.planned_rounds {
            // Fewer rounds than the cap are planned only when the budget holds no more.
            rep.stopped = if looks.planned_rounds < MAX_ROUNDS {
                Stopped::Budget
            } else {
                Stopped::RoundCap
            };
            break;
        }
        if open.is_empty() {
            // Rounds are left, but every undecided row needs far more than they can buy.
            rep.stopped = Stopped::OutOfReach;
            break;
        }
        let full: Vec<(Vec<String>, Case, usize)> = open
            .iter()
            .map(|(v, case, _)| (names_of(v), case.clone(), round_reps(case)))
            .collect();
        // When the whole round does not fit in the budget left, a partial one
        // does: the pairs with the most undecided rows that fit.
        let costs: Vec<(usize, f64)> = open
            .iter()
            .zip(&full)
            .map(|((_, _, rows), (n, _, r))| (*rows, per_child * (n.len() * r) as f64))
            .collect();
        let take = fit_round(&costs, left);
        if take.is_empty() {
            rep.stopped = Stopped::Budget;
            break;
        }
        let plan: Vec<(Vec<String>, Case, usize)> = take.iter().map(|i| full[*i].clone()).collect();
        let children: usize = plan.iter().map(|(n, _, r)| n.len() * r).sum();
        let estimate = per_child * children as f64;
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
        let level = looks.level(rep.rounds + 1);
        rep.look_levels.push(level);
        cmp = judge_run(&run, level)?;
    }
    let last = looks.level(rep.rounds + 1);
    for r in cmp.rows.iter_mut() {
        if budget_rule(r, last) {
            r.verdict = Verdict::Regressed;
            r.note = Some(match &r.note {
                Some(n) => format!("{BUDGET_RULE_NOTE}; {n}"),
                None => BUDGET_RULE_NOTE.into(),
            });
            rep.budget_rule_regressions += 1;
        }
    }
    compare::follow_children(&mut cmp.rows);
    rep.undecided = cmp
        .rows
        .iter()
        .filter(|r| r.verdict == Verdict::Inconclusive && r.same_as.is_none())
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
        assert!(budget_rule(&r, 0.05));
        // Median inside the band: not counted.
        assert!(!budget_rule(&row(Verdict::Inconclusive, 0.03, 1.02, 1.08, 1.2), 0.05));
        // Not significant: not counted.
        assert!(!budget_rule(&row(Verdict::Inconclusive, 0.2, 1.02, 1.2, 1.4), 0.05));
        // Interval reaching below 1: not counted.
        assert!(!budget_rule(&row(Verdict::Inconclusive, 0.03, 0.99, 1.2, 1.4), 0.05));
        // Faster: never a regression.
        assert!(!budget_rule(&row(Verdict::Inconclusive, 0.03, 0.7, 0.8, 0.95), 0.05));
        // Decided rows keep their verdict.
        assert!(!budget_rule(&row(Verdict::Unchanged, 0.03, 1.01, 1.2, 1.05), 0.05));
        // A row that only repeats its child is never counted itself.
        let mut dup = r.clone();
        dup.same_as = Some("synthesis".into());
        assert!(!budget_rule(&dup, 0.05));
        // At the seventh look of a night planned with six rounds q = 0.03 is not enough: the
        // level is 0.05 * 0.5 / 6.
        let looks = Looks {
            alpha: 0.05,
            planned_rounds: 6,
        };
        assert!(!budget_rule(&r, looks.level(7)));
        r.q_value = 0.004;
        assert!(budget_rule(&r, looks.level(7)));
    }

    #[test]
    fn the_looks_of_a_night_spend_at_most_alpha() {
        for alpha in [0.01, 0.05, 0.1] {
            for planned_rounds in 0..=MAX_ROUNDS {
                let looks = Looks { alpha, planned_rounds };
                let levels: Vec<f64> = (1..=planned_rounds + 1).map(|k| looks.level(k)).collect();
                assert!(levels.iter().all(|&l| l > 0.0 && l <= alpha));
                let sum: f64 = levels.iter().sum();
                assert!(sum <= alpha * (1.0 + 1e-12), "{alpha} {planned_rounds}: {sum}");
                assert!((sum - alpha).abs() < 1e-12, "the whole of alpha is spent");
                assert!((looks.spent() - sum).abs() < 1e-15);
                // No look past the planned ones can call anything.
                assert_eq!(looks.level(planned_rounds + 2), 0.0);
            }
        }
        // A night without settling keeps the whole of alpha at its only look.
        assert_eq!(
            Looks {
                alpha: 0.05,
                planned_rounds: 0
            }
            .level(1),
            0.05
        );
        // With six rounds planned the first look keeps half, every round a twelfth.
        let six = Looks {
            alpha: 0.05,
            planned_rounds: 6,
        };
        assert_eq!(six.level(1), 0.025);
        assert!((six.level(2) - 0.05 / 12.0).abs() < 1e-15);
        assert_eq!(six.level(2), six.level(7));
    }

    #[test]
    fn a_q_that_passes_at_the_first_look_does_not_pass_at_the_sixth() {
        // The false alarm of the loaded A/A trial: `all` `synthesis` +13.8% [+4.7%, +63.8%],
        // q = 0.041, called by the ordinary rule after six settling rounds; and a stronger one.
        let looks = Looks {
            alpha: 0.05,
            planned_rounds: 6,
        };
        let mut r = row(Verdict::Regressed, 0.041, 1.047, 1.138, 1.638);
        r.threshold = 0.03;
        // Without the split (alpha at every look) it is a regression at every look.
        assert_eq!(
            compare::decide(0.041, r.ci_low, r.ci_high, r.threshold, 0.05),
            Verdict::Regressed
        );
        // A q of 0.02 passes at the first look (level 0.025) but not at the sixth (0.0042).
        let mut strong = r.clone();
        (strong.p_value, strong.q_value) = (0.02, 0.02);
        let mut first = vec![strong.clone()];
        one_family(&mut first, looks.level(1));
        assert_eq!(first[0].verdict, Verdict::Regressed);
        let mut sixth = vec![strong];
        one_family(&mut sixth, looks.level(6));
        assert_eq!(sixth[0].verdict, Verdict::Inconclusive);
        // The trial's row: inconclusive at the seventh look, and not counted by the budget rule.
        let mut rows = vec![r.clone()];
        one_family(&mut rows, looks.level(7));
        assert_eq!(rows[0].verdict, Verdict::Inconclusive);
        assert!(!budget_rule(&rows[0], looks.level(7)));
    }

    #[test]
    fn a_round_that_does_not_fit_measures_the_pairs_with_most_open_rows_that_do() {
        // (open rows, seconds): all fit.
        assert_eq!(fit_round(&[(3, 40.0), (1, 40.0)], 100.0), vec![0, 1]);
        // Only one fits: the one with more open rows, wherever it is in the plan.
        assert_eq!(fit_round(&[(1, 40.0), (5, 40.0), (2, 40.0)], 50.0), vec![1]);
        // The busiest does not fit, two smaller ones do.
        assert_eq!(fit_round(&[(9, 90.0), (2, 30.0), (2, 30.0)], 70.0), vec![1, 2]);
        // Ties keep plan order.
        assert_eq!(fit_round(&[(2, 40.0), (2, 40.0)], 50.0), vec![0]);
        assert!(fit_round(&[(2, 40.0)], 39.0).is_empty());
        assert!(fit_round(&[(2, 40.0)], f64::NAN).is_empty());
        assert!(fit_round(&[], 100.0).is_empty());
    }

    #[test]
    fn rows_far_beyond_what_the_budget_can_buy_are_not_re_measured() {
        // 8 a side measured, 16 more affordable: up to twice 24 is worth a round.
        assert!(within_reach(20, 8, 16));
        assert!(within_reach(48, 8, 16));
        assert!(!within_reach(49, 8, 16));
        // Nothing affordable: only rows within twice what was measured.
        assert!(within_reach(16, 8, 0));
        assert!(!within_reach(6_489, 8, 0));
        // No overflow at the extremes.
        assert!(within_reach(usize::MAX, usize::MAX, 1));

        let mut near = row(Verdict::Inconclusive, 0.3, 0.95, 1.08, 1.2);
        near.reps_needed = Some(30);
        let mut far = near.clone();
        far.phase = "msm_h".into();
        far.reps_needed = Some(6_489);
        let mut other = far.clone();
        other.variant = "w".into();
        let mut untestable = near.clone();
        untestable.phase = "pin".into();
        untestable.reps_needed = None;
        let c = Comparison {
            reference: "baseline b".into(),
            candidate: "run r".into(),
            cross_testbed: false,
            ref_testbed: "t".into(),
            cand_testbed: "t".into(),
            bootstrap_seed: 1,
            alpha: 0.05,
            rows: vec![near, far, other, untestable],
        };
        // `v` can buy 16 more a side, `w` nothing: only `v`'s near row is open.
        let afford = |v: &str, _: &Case| if v == "v" { 16 } else { 0 };
        let (open, beyond) = open_rows(&c, &afford);
        assert_eq!(open.len(), 1);
        assert_eq!((open[0].0.as_str(), open[0].2), ("v", 1));
        assert_eq!(beyond, 2);
    }

    #[test]
    fn rounds_are_planned_from_the_budget_left_and_the_cheapest_round() {
        assert_eq!(planned_rounds(55.0, 2.5), MAX_ROUNDS);
        assert_eq!(planned_rounds(55.0, 20.0), 2);
        assert_eq!(planned_rounds(10.0, 20.0), 0);
        assert_eq!(planned_rounds(-1.0, 2.0), 0);
        assert_eq!(planned_rounds(10.0, 0.0), MAX_ROUNDS);
        assert_eq!(planned_rounds(f64::NAN, 1.0), 0);
    }

    #[test]
    fn a_row_that_only_repeats_its_child_is_not_in_the_nights_family() {
        // Six rows of a synthesis-only night of two variants, each variant's `total` repeating
        // its `synthesis`, a third phase quiet. `baseline` `synthesis` regressed in its family.
        let mut rows = Vec::new();
        for (v, p, verdict) in [
            ("baseline", 0.02, Verdict::Regressed),
            ("all", 0.5, Verdict::Inconclusive),
        ] {
            let mut syn = row(verdict, p, 1.04, 1.06, 1.14);
            syn.variant = v.into();
            syn.phase = "synthesis".into();
            syn.threshold = 0.03;
            let mut total = syn.clone();
            total.phase = "total".into();
            total.same_as = Some("synthesis".into());
            let mut quiet = row(Verdict::Unchanged, 0.9, 0.99, 1.0, 1.01);
            quiet.variant = v.into();
            quiet.phase = "size_hint".into();
            rows.extend([total, syn, quiet]);
        }
        // Counted as rows of their own, the totals make a family of six.
        let mut counted = rows.clone();
        for r in &mut counted {
            r.same_as = None;
        }
        one_family(&mut counted, 0.05);
        assert!(counted[1].note.as_deref().unwrap().contains("night's 6 rows"));
        assert!((counted[1].q_value - 0.06).abs() < 1e-12);
        // Kept out, the family is four rows: q = 0.02 * 4 / 1.
        one_family(&mut rows, 0.05);
        let syn = &rows[1];
        assert!(
            syn.note.as_deref().unwrap().contains("night's 4 rows"),
            "{:?}",
            syn.note
        );
        assert!((syn.q_value - 0.08).abs() < 1e-12);
        assert_eq!(syn.verdict, Verdict::Inconclusive);
        // Each total takes its child's q-value and verdict, needs no repetitions of its own and
        // keeps its own note.
        for (total, child) in [(0, 1), (3, 4)] {
            assert_eq!(rows[total].q_value, rows[child].q_value);
            assert_eq!(rows[total].verdict, rows[child].verdict);
            assert_eq!(rows[total].reps_needed, None);
        }
        assert_eq!(rows[0].note, None);
    }
}
