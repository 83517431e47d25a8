//! What the charts read from a run: measured samples, top-level phases,
//! medians, a representative sample. Pure functions, no drawing.

use crate::model::{Case, Run, Sample, TOTAL};
use phaseline_record::names;

/// Samples that enter statistics: ok and not warm-up.
pub fn measured<'a>(run: &'a Run, variant: &str, case: &Case) -> Vec<&'a Sample> {
    run.samples
        .iter()
        .filter(|s| s.ok && !s.warmup && s.variant == variant && &s.case == case)
        .collect()
}

/// Non-warm-up samples of (variant, case) that failed.
pub fn failed<'a>(run: &'a Run, variant: &str, case: &Case) -> Vec<&'a Sample> {
    run.samples
        .iter()
        .filter(|s| !s.ok && !s.warmup && s.variant == variant && &s.case == case)
        .collect()
}

/// Variant names of a run: declared variants first, then any only seen in samples.
pub fn variants(run: &Run) -> Vec<String> {
    let mut out = run.variant_names();
    for s in &run.samples {
        if !out.contains(&s.variant) {
            out.push(s.variant.clone());
        }
    }
    out
}

/// Cases of a run: declared cases first, then any only seen in samples.
pub fn cases(run: &Run) -> Vec<Case> {
    let mut out = run.cases.clone();
    for s in &run.samples {
        if !out.contains(&s.case) {
            out.push(s.case.clone());
        }
    }
    out
}

/// File-name fragment of a case: `e2e-tiny-x1-cpu`.
pub fn case_slug(case: &Case) -> String {
    slug(&format!(
        "{}-{}-x{}-{}",
        case.suite, case.circuit, case.partitions, case.backend
    ))
}

/// Lower-case `[a-z0-9-]` form of any name (variant names go into file names).
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let t = out.trim_matches('-').to_string();
    if t.is_empty() {
        "x".into()
    } else {
        t
    }
}

/// Top-level phases of a case (spans with no parent), in order of their mean
/// start; when no sample has spans, every phase but `total`.
pub fn top_level_phases(run: &Run, case: &Case) -> Vec<String> {
    let mut starts: Vec<(String, f64, usize)> = Vec::new();
    for s in run.samples.iter().filter(|s| s.ok && &s.case == case) {
        for sp in s.spans.iter().filter(|sp| sp.parent.is_none() && sp.name != TOTAL) {
            match starts.iter_mut().find(|(n, _, _)| *n == sp.name) {
                Some(e) => {
                    e.1 += sp.start_ms;
                    e.2 += 1;
                }
                None => starts.push((sp.name.clone(), sp.start_ms, 1)),
            }
        }
    }
    if starts.is_empty() {
        let mut names: Vec<String> = Vec::new();
        for s in run.samples.iter().filter(|s| s.ok && &s.case == case) {
            for k in s.phases.keys().filter(|k| k.as_str() != TOTAL) {
                if !names.contains(k) {
                    names.push(k.clone());
                }
            }
        }
        return names;
    }
    starts.sort_by(|a, b| (a.1 / a.2 as f64).total_cmp(&(b.1 / b.2 as f64)));
    starts.into_iter().map(|(n, _, _)| n).collect()
}

/// Every phase of a case: `total`, the top-level phases, then nested ones.
pub fn all_phases(run: &Run, case: &Case) -> Vec<String> {
    let mut out = vec![TOTAL.to_string()];
    out.extend(top_level_phases(run, case));
    for s in run.samples.iter().filter(|s| s.ok && &s.case == case) {
        for k in s.phases.keys() {
            if !out.contains(k) {
                out.push(k.clone());
            }
        }
    }
    out
}

/// Median of finite values; `None` when there are none.
pub fn median(values: &[f64]) -> Option<f64> {
    quantile(values, 0.5)
}

/// Linear-interpolated quantile `q` in [0, 1] of the finite values.
pub fn quantile(values: &[f64], q: f64) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let pos = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    Some(v[lo] + (v[hi] - v[lo]) * (pos - lo as f64))
}

/// Values of `phase` over the measured samples of (variant, case).
pub fn values(run: &Run, variant: &str, case: &Case, phase: &str) -> Vec<f64> {
    run.values(variant, case, phase)
        .into_iter()
        .filter(|v| v.is_finite())
        .collect()
}

/// Phases that are not proving: what "prove part" leaves out of end to end.
const NOT_PROVING: &[&str] = &[names::SYNTHESIS, names::VERIFY, names::VERIFY_FILECOIN];

/// "Prove part" of each measured sample: end to end minus synthesis and
/// verification (the part a GPU prover speeds up; supraseal-c2's synthesis is
/// bellperson's, so end to end alone mixes two provers' work).
pub fn prove_part_values(run: &Run, variant: &str, case: &Case) -> Vec<f64> {
    measured(run, variant, case)
        .iter()
        .filter(|s| s.phases.contains_key(names::SYNTHESIS))
        .map(|s| total_of(s) - NOT_PROVING.iter().filter_map(|p| s.phases.get(*p)).sum::<f64>())
        .filter(|v| v.is_finite())
        .collect()
}

/// The measured sample whose total is nearest the median total (first on ties):
/// the one proof a timeline or memory chart shows.
pub fn representative<'a>(run: &'a Run, variant: &str, case: &Case) -> Option<&'a Sample> {
    let ms = measured(run, variant, case);
    let totals: Vec<f64> = ms.iter().map(|s| total_of(s)).collect();
    let med = median(&totals)?;
    ms.into_iter()
        .zip(totals)
        .min_by(|a, b| (a.1 - med).abs().total_cmp(&(b.1 - med).abs()))
        .map(|(s, _)| s)
}

/// A sample's end-to-end time: its `total` phase, else its wall time.
pub fn total_of(s: &Sample) -> f64 {
    s.phases.get(TOTAL).copied().unwrap_or(s.wall_ms)
}

/// A one-line reason for failed samples: count and first error.
pub fn failure_note(failed: &[&Sample]) -> Option<String> {
    let first = failed.first()?;
    let err = first
        .error
        .as_deref()
        .unwrap_or("no error text")
        .lines()
        .next()
        .unwrap_or("");
    let err: String = err.chars().take(80).collect();
    Some(format!("{} failed sample(s), first: {err}", failed.len()))
}
