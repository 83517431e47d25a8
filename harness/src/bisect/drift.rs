//! The drift check of a resumed bisect. Samples of an earlier sitting were
//! measured under other conditions (clocks, temperature, load, a reboot), so
//! pooling them with new ones assumes the machine did not drift in between.
//! Before any new decision, the reference end is measured afresh and compared
//! with its stored samples under the bisect's own statistics; the stored
//! samples are pooled only when nothing moved. Otherwise they are set aside
//! (kept in the state file) and the bisect measures afresh.

use super::judge::{describe, last_error, Judge};
use super::space::{Space, Toggle};
use crate::compare::compare_variants;
use crate::model::{PhaseComparison, Sample, Variant, Verdict, TOTAL};
use crate::HarnessError;

/// Temporary variant names of the two sides of the check.
const STORED: &str = "drift-check-stored";
const FRESH: &str = "drift-check-fresh";

/// What a resume did with the samples of earlier sittings.
#[derive(Clone, Debug, PartialEq)]
pub enum Resumed {
    /// The state file held no successful sample: nothing to check.
    Empty,
    /// Pooled without a check (`--trust-stored`).
    Trusted,
    /// The check passed: stored samples pooled. `summary` is the metric's change.
    Kept { variant: String, summary: String },
    /// The check found drift (or could not rule it out): stored samples set aside.
    SetAside {
        variant: String,
        summary: String,
        /// Successful samples set aside.
        samples: usize,
        /// True when nothing was shown to move but nothing was shown steady either.
        inconclusive: bool,
    },
}

/// Runs the drift check (or records that it was skipped) and applies its verdict to the bank.
pub fn on_resume(judge: &mut Judge, space: &Space, trust: bool) -> Result<Resumed, HarnessError> {
    let stored: usize = judge.state.bank.keys().map(|k| judge.state.ok_count(k)).sum();
    if stored == 0 {
        judge.say("[resume] the state file holds no successful sample: nothing to check, measuring afresh".into());
        return Ok(Resumed::Empty);
    }
    if trust {
        judge.say(format!(
            "[resume] drift check skipped (--trust-stored): {stored} stored sample(s) of earlier sitting(s) pooled with new ones"
        ));
        return Ok(Resumed::Trusted);
    }
    let Some(reference) = pick_reference(judge, space) else {
        let reason = "no stored variant with a known build to measure afresh".to_string();
        judge.say(format!(
            "[resume] drift check impossible ({reason}): {stored} stored sample(s) set aside (kept in the state file), measuring afresh"
        ));
        judge.state.set_aside_all(reason.clone());
        judge.save()?;
        return Ok(Resumed::SetAside {
            variant: String::new(),
            summary: reason,
            samples: stored,
            inconclusive: true,
        });
    };
    let metric = if judge.opts.metric == super::flags::AUTO {
        TOTAL.to_string()
    } else {
        judge.opts.metric.clone()
    };
    let n_stored = judge.state.ok_count(&reference.name);
    let mut sits: Vec<u32> = judge.state.sittings_of(&reference.name);
    sits.sort_unstable();
    sits.dedup();
    let reps = judge.opts.reps;
    let (run, call) = judge.measure_unbanked(std::slice::from_ref(&reference), reps)?;
    let fresh: Vec<Sample> = run
        .samples
        .into_iter()
        .filter(|s| s.variant == reference.name)
        .collect();
    let n_fresh = fresh.iter().filter(|s| s.ok && !s.warmup).count();
    if n_fresh == 0 {
        let why = last_error(&fresh);
        return Err(HarnessError::Failed(format!(
            "drift check: variant `{}` produced no successful repetition: {why}",
            reference.name
        )));
    }
    let mut both = judge.run_of(&[&reference]);
    for s in both.samples.iter_mut() {
        s.variant = STORED.into();
    }
    for b in both.variants.iter_mut() {
        b.variant.name = STORED.into();
    }
    both.samples.extend(fresh.iter().cloned().map(|mut s| {
        s.variant = FRESH.into();
        s
    }));
    let cmp = compare_variants(&both, STORED, FRESH, &judge.opts.compare)?;
    let row = cmp.rows.iter().find(|r| r.phase == metric).ok_or_else(|| {
        let seen: Vec<&str> = cmp.rows.iter().map(|r| r.phase.as_str()).collect();
        HarnessError::Invalid(format!(
            "metric phase `{metric}` is not in the records of `{}` (phases: {})",
            reference.name,
            seen.join(", ")
        ))
    })?;
    let moved: Vec<&PhaseComparison> = cmp
        .rows
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Regressed | Verdict::Improved))
        .collect();
    let summary = format!("`{metric}` {}", describe(row));
    let head = format!(
        "[resume] drift check on `{}`: stored x{n_stored} (sitting {}) vs fresh x{n_fresh}, {summary}",
        reference.name,
        sits.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
    );
    let out = if row.verdict == Verdict::Unchanged && moved.is_empty() {
        judge.say(format!("{head}: unchanged, {stored} stored sample(s) kept"));
        judge.state.bank_samples(&reference.name, fresh, call);
        Resumed::Kept {
            variant: reference.name.clone(),
            summary,
        }
    } else {
        let inconclusive = moved.is_empty();
        let what = if inconclusive {
            format!("{:?} (pooling needs evidence)", row.verdict).to_lowercase()
        } else {
            let list: Vec<String> = moved
                .iter()
                .map(|r| format!("`{}` {:+.1}%", r.phase, (r.ratio - 1.0) * 100.0))
                .collect();
            format!("drifted ({})", list.join(", "))
        };
        judge.say(format!(
            "{head}: {what}, {stored} stored sample(s) set aside (kept in the state file), measuring afresh"
        ));
        let reason = format!("drift check on `{}`: {summary}: {what}", reference.name);
        judge.state.set_aside_all(reason);
        judge.state.bank_samples(&reference.name, fresh, call);
        Resumed::SetAside {
            variant: reference.name.clone(),
            summary,
            samples: stored,
            inconclusive,
        }
    };
    judge.save()?;
    Ok(out)
}

/// The good end when it has stored samples, else the variant with the most
/// (first by name on a tie) whose build is known.
fn pick_reference(judge: &Judge, space: &Space) -> Option<Variant> {
    let good = space.variant(&Toggle::new());
    if judge.state.ok_count(&good.name) > 0 {
        return Some(good);
    }
    let mut best: Option<(usize, Variant)> = None;
    for (name, b) in &judge.state.built {
        let n = judge.state.ok_count(name);
        if n > 0 && best.as_ref().is_none_or(|(m, _)| n > *m) {
            best = Some((n, Variant::new(name.clone(), b.variant.features.clone())));
        }
    }
    best.map(|(_, v)| v)
}

/// The line of the answer that says where its samples come from.
pub fn answer_line(r: &Resumed, earlier: usize, banked: usize) -> String {
    match r {
        Resumed::Empty => format!("samples: all {banked} from this sitting (the state file held none)."),
        Resumed::Trusted => format!(
            "samples: {earlier} of {banked} came from earlier sitting(s), pooled without a drift check (--trust-stored)."
        ),
        Resumed::Kept { variant, summary } => format!(
            "samples: {earlier} of {banked} came from earlier sitting(s), pooled after the drift check on `{variant}` passed ({summary})."
        ),
        Resumed::SetAside {
            variant,
            summary,
            samples,
            inconclusive,
        } => {
            let why = if variant.is_empty() {
                summary.clone()
            } else if *inconclusive {
                format!("the drift check on `{variant}` could not show that nothing moved ({summary})")
            } else {
                format!("the drift check on `{variant}` found drift ({summary})")
            };
            format!(
                "samples: {earlier} of {banked} came from earlier sitting(s); {samples} stored sample(s) were set aside \
                 (kept in the state file) because {why}."
            )
        }
    }
}
