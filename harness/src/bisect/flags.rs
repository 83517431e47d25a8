//! `bisect flags`: whole change first, then the two-ended screen; when the
//! flags' effects add up, the culprits are the flags that move the metric;
//! when they do not, delta debugging isolates the smallest reproducing flag
//! set (repeated from there until the rest no longer changes anything).
//! Optionally a factorial fit on top (its design points are measured first,
//! in one call, so the comparisons among them reuse that call).
//!
//! Every comparison sets a probe against the end (or ddmin base) measured in
//! the same call: see the drift policy in [`super::judge`].

use super::ddmin::{ddmin, Test};
use super::factorial::{factorial, measure_design, FactorialFit};
use super::judge::{describe, Judge, Outcome};
use super::screen::{screen, Class, Screen};
use super::space::{Space, Toggle};
use crate::model::{Verdict, TOTAL};
use crate::HarnessError;

/// `--metric auto`: bisect every phase that regressed between good and bad.
pub const AUTO: &str = "auto";

/// A flag, or a set of flags that only together, moves the metric.
#[derive(Clone, Debug)]
pub struct Culprit {
    pub flags: Toggle,
    /// The flags interact (found by delta debugging, not by the screen).
    pub interaction: bool,
    /// Reference = the set without these flags, candidate = with them.
    pub outcome: Outcome,
}

#[derive(Clone, Debug)]
pub enum Finding {
    /// Good and bad do not differ on the metric.
    NoChange(Outcome),
    /// Could not tell whether good and bad differ, even at the repetition cap.
    Undecided(Outcome),
    Located {
        total: Outcome,
        target: Verdict,
        additive: bool,
        culprits: Vec<Culprit>,
        /// Flags the screen could not decide about (never guessed into culprits).
        inconclusive: Vec<String>,
    },
}

pub struct FlagsAnswer {
    pub finding: Finding,
    pub screen: Option<Screen>,
    pub factorial: Option<FactorialFit>,
}

fn as_test(v: Verdict, target: Verdict) -> Test {
    match v {
        _ if v == target => Test::Fail,
        Verdict::Inconclusive => Test::Unresolved,
        _ => Test::Pass,
    }
}

pub fn bisect_flags(judge: &mut Judge, space: &Space, with_factorial: bool) -> Result<FlagsAnswer, HarnessError> {
    let good = space.variant(&Toggle::new());
    let bad = space.variant(&space.all());
    let k = space.flags.len();
    judge.say(format!(
        "[start] {k} differing flag(s): {}; metric `{}`",
        space.label_set(&space.all()),
        judge.opts.metric
    ));
    if with_factorial {
        measure_design(judge, space)?;
    }
    let total = judge.compare(&good, &bad)?;
    judge.say(format!(
        "[whole] good -> bad: {:?}, {}",
        total.verdict,
        describe(&total.metric)
    ));
    let factorial_fit = |judge: &mut Judge| -> Result<Option<FactorialFit>, HarnessError> {
        if with_factorial {
            factorial(judge, space).map(Some)
        } else {
            Ok(None)
        }
    };
    let target = match total.verdict {
        Verdict::Unchanged => {
            let f = factorial_fit(judge)?;
            return Ok(FlagsAnswer {
                finding: Finding::NoChange(total),
                screen: None,
                factorial: f,
            });
        }
        Verdict::Inconclusive => {
            let f = factorial_fit(judge)?;
            return Ok(FlagsAnswer {
                finding: Finding::Undecided(total),
                screen: None,
                factorial: f,
            });
        }
        v => v,
    };
    let sc = screen(judge, space, &total, target)?;
    let mut culprits = Vec::new();
    if sc.additivity.additive {
        for e in &sc.effects {
            if e.class(target) == Class::Culprit {
                let outcome = if e.add.verdict == target {
                    e.add.clone()
                } else {
                    e.remove.clone()
                };
                culprits.push(Culprit {
                    flags: [e.flag.clone()].into_iter().collect(),
                    interaction: false,
                    outcome,
                });
            }
        }
    } else {
        let mut base = Toggle::new();
        let mut remaining = space.all();
        while !remaining.is_empty() {
            let from = space.variant(&base);
            let rest = judge.compare(&from, &bad)?;
            if rest.verdict != target {
                judge.say(format!(
                    "[ddmin] {} -> bad: {:?}: nothing left to isolate",
                    from.name, rest.verdict
                ));
                break;
            }
            judge.say(format!(
                "[ddmin] isolating within {} from {}",
                space.label_set(&remaining),
                from.name
            ));
            let mut test = |s: &Toggle| -> Result<Test, HarnessError> {
                let with: Toggle = base.union(s).cloned().collect();
                let o = judge.compare(&from, &space.variant(&with))?;
                let t = as_test(o.verdict, target);
                judge.say(format!(
                    "  {} + {}: {t:?}, {}",
                    from.name,
                    space.label_set(s),
                    describe(&o.metric)
                ));
                Ok(t)
            };
            let (found, _log) = ddmin(&remaining, &mut test)?;
            let with: Toggle = base.union(&found).cloned().collect();
            let outcome = judge.compare(&from, &space.variant(&with))?;
            if outcome.verdict != target {
                break;
            }
            judge.say(format!("[ddmin] smallest reproducing set: {}", space.label_set(&found)));
            culprits.push(Culprit {
                interaction: found.len() > 1,
                flags: found.clone(),
                outcome,
            });
            base = with;
            remaining = remaining.difference(&found).cloned().collect();
        }
    }
    let in_culprit = |f: &String| culprits.iter().any(|c| c.flags.contains(f));
    let inconclusive: Vec<String> = sc
        .effects
        .iter()
        .filter(|e| e.class(target) == Class::Inconclusive && !in_culprit(&e.flag))
        .map(|e| e.flag.clone())
        .collect();
    let factorial = factorial_fit(judge)?;
    Ok(FlagsAnswer {
        finding: Finding::Located {
            total,
            target,
            additive: sc.additivity.additive,
            culprits,
            inconclusive,
        },
        screen: Some(sc),
        factorial,
    })
}

/// `--metric auto`: compares good and bad on every phase (more repetitions
/// while nothing regressed and something is undecided), then bisects each
/// regressed phase in turn, largest change first. Samples are shared, so a
/// second phase costs comparisons, rarely measurements.
pub fn bisect_auto(
    judge: &mut Judge,
    space: &Space,
    with_factorial: bool,
) -> Result<Vec<(String, FlagsAnswer)>, HarnessError> {
    let good = space.variant(&Toggle::new());
    let bad = space.variant(&space.all());
    judge.opts.metric = TOTAL.to_string();
    if with_factorial {
        measure_design(judge, space)?;
    }
    let mut n = judge.opts.reps;
    let whole = loop {
        judge.ensure_joint(&[&good, &bad], n)?;
        let o = judge.compare_now(&good, &bad)?;
        let regressed = o.comparison.rows.iter().any(|r| r.verdict == Verdict::Regressed);
        let undecided = o.comparison.rows.iter().any(|r| r.verdict == Verdict::Inconclusive);
        if regressed || !undecided || n >= judge.opts.max_reps {
            break o;
        }
        n = (n * 2).min(judge.opts.max_reps);
        judge.say(format!(
            "[whole] nothing regressed yet and some phases undecided: n={n}"
        ));
    };
    let mut targets: Vec<&crate::model::PhaseComparison> = whole
        .comparison
        .rows
        .iter()
        .filter(|r| r.phase != TOTAL && r.verdict == Verdict::Regressed)
        .collect();
    targets.sort_by(|a, b| {
        let d = |r: &crate::model::PhaseComparison| r.cand_median_ms - r.ref_median_ms;
        d(b).total_cmp(&d(a))
    });
    let mut phases: Vec<String> = targets.iter().map(|r| r.phase.clone()).collect();
    if phases.is_empty() {
        phases.push(TOTAL.to_string());
    }
    judge.say(format!(
        "[whole] good -> bad regressed in: {}",
        if targets.is_empty() {
            "no single phase".to_string()
        } else {
            targets
                .iter()
                .map(|r| format!("`{}` {}", r.phase, describe(r)))
                .collect::<Vec<_>>()
                .join("; ")
        }
    ));
    let mut out = Vec::new();
    for p in phases {
        judge.opts.metric = p.clone();
        judge.opts.threshold = judge.opts.compare.thresholds.relative(&p);
        let a = bisect_flags(judge, space, with_factorial)?;
        out.push((p, a));
    }
    Ok(out)
}
