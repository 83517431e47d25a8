//! The one-flag-at-a-time screen from both ends (good plus each flag, bad minus
//! each flag: 2k variants for k flags) and the additivity check of its effects
//! against the whole good -> bad change.

use super::judge::{describe, Judge, Outcome};
use super::space::{Space, Toggle};
use crate::model::Verdict;
use crate::HarnessError;

/// What one flag does, seen from both ends.
#[derive(Clone, Debug)]
pub struct FlagEffect {
    pub flag: String,
    /// good vs good + flag.
    pub add: Outcome,
    /// bad - flag vs bad (the flag's effect when all others are on).
    pub remove: Outcome,
}

/// How a flag came out of the screen, given the direction of the whole change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Moves the metric the way good -> bad does, from at least one end, and not the other way from the other.
    Culprit,
    /// Decisively no effect in that direction from at least one end, none from the other.
    Innocent,
    /// Neither end could decide, even at the repetition cap.
    Inconclusive,
    /// The two ends disagree in direction (a sign of interaction).
    Contradictory,
}

impl FlagEffect {
    pub fn class(&self, target: Verdict) -> Class {
        let opposite = match target {
            Verdict::Regressed => Verdict::Improved,
            _ => Verdict::Regressed,
        };
        let (a, r) = (self.add.verdict, self.remove.verdict);
        if (a == target && r == opposite) || (a == opposite && r == target) {
            Class::Contradictory
        } else if a == target || r == target {
            Class::Culprit
        } else if a == Verdict::Inconclusive && r == Verdict::Inconclusive {
            Class::Inconclusive
        } else {
            Class::Innocent
        }
    }
}

/// Do the per-flag effects add up to the whole change (as times or as ratios)?
#[derive(Clone, Debug)]
pub struct Additivity {
    pub additive: bool,
    /// Whole change and the sums of per-flag effects from each end, in ms.
    pub total_ms: f64,
    pub add_sum_ms: f64,
    pub remove_sum_ms: f64,
}

#[derive(Clone, Debug)]
pub struct Screen {
    pub effects: Vec<FlagEffect>,
    pub additivity: Additivity,
}

/// Effect in ms with the half-width of its 95% interval, and the same in log ratio.
fn effect(o: &Outcome) -> (f64, f64, f64, f64) {
    let m = &o.metric;
    let ms = m.cand_median_ms - m.ref_median_ms;
    let hw_ms = m.ref_median_ms * (m.ci_high - m.ci_low) / 2.0;
    let lg = m.ratio.ln();
    let hw_lg = (m.ci_high.ln() - m.ci_low.ln()) / 2.0;
    (ms, hw_ms, lg, hw_lg)
}

/// Sums of effects agree with the total within the combined intervals plus the
/// noise threshold (the smallest change that counts).
fn agrees(total: (f64, f64, f64, f64), parts: &[(f64, f64, f64, f64)], ref_ms: f64, thr: f64) -> bool {
    let sum = |i: usize| parts.iter().map(|p| [p.0, p.1, p.2, p.3][i]).sum::<f64>();
    let quad = |i: usize, t: f64| (parts.iter().map(|p| [p.0, p.1, p.2, p.3][i].powi(2)).sum::<f64>() + t * t).sqrt();
    let ms_ok = (total.0 - sum(0)).abs() <= quad(1, total.1) + thr * ref_ms;
    let log_ok = (total.2 - sum(2)).abs() <= quad(3, total.3) + (1.0 + thr).ln();
    ms_ok || log_ok
}

pub fn screen(judge: &mut Judge, space: &Space, total: &Outcome, target: Verdict) -> Result<Screen, HarnessError> {
    let good = space.variant(&Toggle::new());
    let bad = space.variant(&space.all());
    let k = space.flags.len();
    // Each end with its k probes in one interleaved call: every probe is
    // compared with the end's samples of its own call, never with the end's
    // samples of the whole-change comparison or of another sitting.
    let others = |t: &Toggle| -> Toggle { space.all().difference(t).cloned().collect() };
    let adds: Vec<_> = space
        .flags
        .iter()
        .map(|f| space.variant(&[f.clone()].into_iter().collect()))
        .collect();
    let removes: Vec<_> = space
        .flags
        .iter()
        .map(|f| space.variant(&others(&[f.clone()].into_iter().collect())))
        .collect();
    judge
        .say("[screen] good beside good + each flag, bad beside bad - each flag (one interleaved call per end)".into());
    judge.ensure_with(&good, &adds.iter().collect::<Vec<_>>(), judge.opts.reps)?;
    judge.ensure_with(&bad, &removes.iter().collect::<Vec<_>>(), judge.opts.reps)?;
    let mut effects = Vec::new();
    for (i, flag) in space.flags.iter().enumerate() {
        let one: Toggle = [flag.clone()].into_iter().collect();
        let rest: Toggle = space.all().difference(&one).cloned().collect();
        judge.say(format!("[screen {}/{k}] {}", i + 1, space.label(flag)));
        let add = judge.compare(&good, &space.variant(&one))?;
        judge.say(format!(
            "  good -> good+{flag}: {:?}, {}",
            add.verdict,
            describe(&add.metric)
        ));
        let remove = judge.compare(&space.variant(&rest), &bad)?;
        judge.say(format!(
            "  bad-{flag} -> bad: {:?}, {}",
            remove.verdict,
            describe(&remove.metric)
        ));
        effects.push(FlagEffect {
            flag: flag.clone(),
            add,
            remove,
        });
    }
    let t = effect(total);
    let adds: Vec<_> = effects.iter().map(|e| effect(&e.add)).collect();
    let removes: Vec<_> = effects.iter().map(|e| effect(&e.remove)).collect();
    let thr = judge.opts.threshold;
    let ref_ms = total.metric.ref_median_ms;
    let contradictory = effects.iter().any(|e| e.class(target) == Class::Contradictory);
    let additive = !contradictory && agrees(t, &adds, ref_ms, thr) && agrees(t, &removes, ref_ms, thr);
    let additivity = Additivity {
        additive,
        total_ms: t.0,
        add_sum_ms: adds.iter().map(|p| p.0).sum(),
        remove_sum_ms: removes.iter().map(|p| p.0).sum(),
    };
    judge.say(format!(
        "[additivity] good -> bad {:+.1} ms; sum of single-flag effects {:+.1} ms from good, {:+.1} ms from bad: {}",
        additivity.total_ms,
        additivity.add_sum_ms,
        additivity.remove_sum_ms,
        if additive {
            "additive"
        } else {
            "NOT additive (flags interact)"
        }
    ));
    Ok(Screen { effects, additivity })
}
