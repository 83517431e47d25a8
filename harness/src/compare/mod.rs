//! Comparing phase timings: a candidate run against a reference run (`compare`, `diff`), two
//! variants of one run, and learning noise thresholds from A/A data (`calibrate`).
//!
//! Rows are produced per variant, per case, per phase (`total` first). Each (variant, case) is
//! one Benjamini-Hochberg family: its phases are tested together. Rows that cannot be tested
//! (a phase, variant or case present on one side only, too few successful samples, a zero
//! reference median) are `inconclusive` with a note; their ratio and interval are placeholders
//! (the ratio of medians when both sides have values, else 1), their p and q are 1.
//! Every number in a [`Comparison`] is finite, so it round-trips through JSON.
//! A row that only repeats its one child phase (`total` of a synthesis-only run: see [`repeat`])
//! is shown but kept out of the families, and takes its child's q-value and verdict.

mod calibrate;
pub mod common;
mod options;
pub mod overlap;
mod phase;
pub mod repeat;

pub use crate::thresholds::{Thresholds, DEFAULT_FLOOR_MS, DEFAULT_THRESHOLD};
pub use calibrate::{calibrate, calibrate_each, CalibrateOptions};
pub use options::{CompareOptions, DEFAULT_SEED};
pub use phase::decide;
pub use repeat::follow_children;

/// The start of a row's note when one side has no values of the phase (`... reference`
/// or `... candidate`): a phase only the other side records.
pub const MISSING_IN: &str = "phase missing in ";

/// The side (`reference`, `candidate`) a row's note says lacks the phase, if it says so.
pub fn missing_side(note: Option<&str>) -> Option<&str> {
    note.and_then(|n| n.strip_prefix(MISSING_IN))
}

use crate::error::{ExitCode, HarnessError};
use crate::model::{Case, Comparison, Run, TOTAL};
use phase::{compare_family, PhaseData};

/// Compares every variant, case and phase of `candidate` against `reference`.
/// Refuses runs from different testbeds unless `opts.allow_cross_testbed`.
pub fn compare_runs(reference: &Run, candidate: &Run, opts: &CompareOptions) -> Result<Comparison, HarnessError> {
    opts.validate()?;
    let cross = reference.testbed.key != candidate.testbed.key;
    if cross && !opts.allow_cross_testbed {
        return Err(HarnessError::Incomparable(format!(
            "run {} was measured on testbed '{}' but run {} on testbed '{}': timings from different \
             machines are not comparable (pass --allow-cross-testbed to compare anyway; the result is flagged)",
            reference.id, reference.testbed.key, candidate.id, candidate.testbed.key
        )));
    }
    // The candidate's host class picks the GPU tables (one class unless the
    // comparison crosses testbeds, which is flagged).
    let opts = &opts.for_gpu(candidate.testbed.gpu_model.as_deref());
    common::require_same_runner_kind(reference, candidate)?;
    common::require_same_features(reference, candidate, opts.allow_feature_mismatch)?;
    common::require_same_sampling(reference, candidate)?;
    let ref_label = opts
        .reference_label
        .clone()
        .unwrap_or_else(|| format!("run {}", reference.id));
    let cand_label = opts
        .candidate_label
        .clone()
        .unwrap_or_else(|| format!("run {}", candidate.id));
    common::require_common(
        (&ref_label, &common::Coverage::of_run(reference, Case::label)),
        (&cand_label, &common::Coverage::of_run(candidate, Case::label)),
        "compare runs of the same variants and cases",
    )?;
    let mut variants = variant_names(reference);
    for v in variant_names(candidate) {
        if !variants.contains(&v) {
            variants.push(v);
        }
    }
    let mut cases = case_list(reference);
    for c in case_list(candidate) {
        if !cases.contains(&c) {
            cases.push(c);
        }
    }
    let (mut reference_run, mut candidate_run) = (reference.clone(), candidate.clone());
    let mut rows = Vec::new();
    for v in &variants {
        for c in &cases {
            let groups = overlap::annotate_family(&mut reference_run, v, Some(&mut candidate_run), v, c);
            let (reference, candidate) = (&reference_run, &candidate_run);
            let r = Side {
                run: reference,
                variant: v,
                role: "reference",
            };
            let k = Side {
                run: candidate,
                variant: v,
                role: "candidate",
            };
            if let Some(data) = family_data(&r, &k, c, false) {
                let mut family = compare_family(v, c, data, opts);
                overlap::settle_members(&mut family, &groups);
                follow_children(&mut family);
                rows.extend(family);
            }
        }
    }
    Ok(Comparison {
        reference: ref_label,
        candidate: cand_label,
        cross_testbed: cross,
        ref_testbed: reference.testbed.key.clone(),
        cand_testbed: candidate.testbed.key.clone(),
        bootstrap_seed: opts.bootstrap_seed,
        alpha: opts.alpha,
        rows,
    })
}

/// Compares variant `candidate_variant` against `reference_variant` within one run, per case and
/// phase. Rows carry the candidate variant's name.
pub fn compare_variants(
    run: &Run,
    reference_variant: &str,
    candidate_variant: &str,
    opts: &CompareOptions,
) -> Result<Comparison, HarnessError> {
    opts.validate()?;
    let names = variant_names(run);
    for v in [reference_variant, candidate_variant] {
        if !names.iter().any(|n| n == v) {
            return Err(HarnessError::Invalid(format!(
                "variant '{v}' is not in run {} (it has: {})",
                run.id,
                names.join(", ")
            )));
        }
    }
    let opts = &opts.for_gpu(run.testbed.gpu_model.as_deref());
    let mut annotated = run.clone();
    let mut rows = Vec::new();
    for c in case_list(run) {
        let groups = overlap::annotate_family(&mut annotated, reference_variant, None, candidate_variant, &c);
        let run = &annotated;
        let r = Side {
            run,
            variant: reference_variant,
            role: "reference",
        };
        let k = Side {
            run,
            variant: candidate_variant,
            role: "candidate",
        };
        if let Some(data) = family_data(&r, &k, &c, opts.paired) {
            let mut family = compare_family(candidate_variant, &c, data, opts);
            overlap::settle_members(&mut family, &groups);
            follow_children(&mut family);
            rows.extend(family);
        }
    }
    Ok(Comparison {
        reference: opts
            .reference_label
            .clone()
            .unwrap_or_else(|| format!("variant {reference_variant} (run {})", run.id)),
        candidate: opts
            .candidate_label
            .clone()
            .unwrap_or_else(|| format!("variant {candidate_variant} (run {})", run.id)),
        cross_testbed: false,
        ref_testbed: run.testbed.key.clone(),
        cand_testbed: run.testbed.key.clone(),
        bootstrap_seed: opts.bootstrap_seed,
        alpha: opts.alpha,
        rows,
    })
}

/// Exit code of a finished comparison: 1 when any phase regressed, else 0.
pub fn exit_code(c: &Comparison) -> ExitCode {
    if c.any_regression() {
        ExitCode::Regression
    } else {
        ExitCode::Ok
    }
}

/// One side of a comparison: a variant of a run.
struct Side<'a> {
    run: &'a Run,
    variant: &'a str,
    role: &'static str,
}

impl Side<'_> {
    /// (successful measured samples, failed measured samples) of this side on `case`.
    fn counts(&self, case: &Case) -> (usize, usize) {
        let mine = self
            .run
            .samples
            .iter()
            .filter(|s| !s.warmup && s.variant == self.variant && &s.case == case);
        mine.fold((0, 0), |(ok, bad), s| if s.ok { (ok + 1, bad) } else { (ok, bad + 1) })
    }

    /// Why this side has no values of any phase on `case`, if so.
    fn absent(&self, case: &Case) -> Option<String> {
        match self.counts(case) {
            (0, 0) => Some(format!(
                "variant '{}' on {} not in {}",
                self.variant,
                case.label(),
                self.role
            )),
            (0, bad) => Some(format!("all {bad} {} samples failed", self.role)),
            _ => None,
        }
    }
}

/// The phases of one (variant, case) on both sides; `None` when neither side ran it. With
/// `paired`, each phase also gets its per-repetition pairs where they are one-to-one.
fn family_data(r: &Side, k: &Side, case: &Case, paired: bool) -> Option<Vec<PhaseData>> {
    let (r_ok, r_bad) = r.counts(case);
    let (k_ok, k_bad) = k.counts(case);
    if r_ok + r_bad == 0 && k_ok + k_bad == 0 {
        return None;
    }
    let (r_absent, k_absent) = (r.absent(case), k.absent(case));
    if r_absent.is_some() || k_absent.is_some() {
        // One row for the whole family: nothing to compare phase by phase.
        return Some(vec![PhaseData {
            phase: TOTAL.to_string(),
            reference: r.run.values(r.variant, case, TOTAL),
            candidate: k.run.values(k.variant, case, TOTAL),
            ref_absent: r_absent,
            cand_absent: k_absent,
            ref_failed: r_bad,
            cand_failed: k_bad,
            pairs: None,
            same_as: None,
        }]);
    }
    let mut phases = r.run.phase_names(r.variant, case);
    for p in k.run.phase_names(k.variant, case) {
        if !phases.contains(&p) {
            phases.push(p);
        }
    }
    let measured: Vec<&crate::model::Sample> = [r, k]
        .into_iter()
        .flat_map(|side| {
            side.run
                .samples
                .iter()
                .filter(|s| s.ok && !s.warmup && s.variant == side.variant && &s.case == case)
        })
        .collect();
    let data = phases
        .into_iter()
        .filter_map(|p| {
            let reference = r.run.values(r.variant, case, &p);
            let candidate = k.run.values(k.variant, case, &p);
            // A span name with no duration on either side has nothing to compare.
            if reference.is_empty() && candidate.is_empty() {
                return None;
            }
            let missing = |v: &Vec<f64>, role: &str| v.is_empty().then(|| format!("{MISSING_IN}{role}"));
            let pairs = if paired { pairs(r, k, case, &p) } else { None };
            Some(PhaseData {
                pairs,
                same_as: repeat::repeated_child(&p, &measured),
                ref_absent: missing(&reference, r.role),
                cand_absent: missing(&candidate, k.role),
                reference,
                candidate,
                phase: p,
                ref_failed: r_bad,
                cand_failed: k_bad,
            })
        })
        .collect();
    Some(data)
}

/// (reference, candidate) values of `phase` on `case` for every repetition both sides measured
/// successfully; `None` when a side has two samples of one repetition (runs merged from several
/// measurements), so that no pairing is guessed.
fn pairs(r: &Side, k: &Side, case: &Case, phase: &str) -> Option<Vec<(f64, f64)>> {
    let by_rep = |side: &Side| -> Option<std::collections::BTreeMap<usize, Option<f64>>> {
        let mut m = std::collections::BTreeMap::new();
        let mine = side
            .run
            .samples
            .iter()
            .filter(|s| !s.warmup && s.variant == side.variant && &s.case == case);
        for s in mine {
            let v = if s.ok { s.phases.get(phase).copied() } else { None };
            if m.insert(s.rep, v).is_some() {
                return None;
            }
        }
        Some(m)
    };
    let (a, b) = (by_rep(r)?, by_rep(k)?);
    Some(a.iter().filter_map(|(rep, x)| Some(((*x)?, (*b.get(rep)?)?))).collect())
}

/// Variant names of a run: its built variants, then any only seen in samples.
fn variant_names(run: &Run) -> Vec<String> {
    let mut out = run.variant_names();
    for s in &run.samples {
        if !out.contains(&s.variant) {
            out.push(s.variant.clone());
        }
    }
    out
}

/// Cases of a run: its declared cases, then any only seen in samples.
fn case_list(run: &Run) -> Vec<Case> {
    let mut out = run.cases.clone();
    for s in &run.samples {
        if !out.contains(&s.case) {
            out.push(s.case.clone());
        }
    }
    out
}
