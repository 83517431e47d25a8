//! `calibrate`: learn per-phase noise thresholds from A/A data.
//!
//! A/A data is one build measured repeatedly: the samples of a single variant, or of several
//! variants with identical features (interleaved in one run, which also catches drift between
//! repetitions). For each case and phase the pooled samples go to
//! [`stats::split_noise`](crate::stats::split_noise); a phase's threshold is the largest over
//! the cases, raised to at least `min_threshold`. The default threshold becomes the largest
//! per-phase value, so a phase not seen during calibration is judged conservatively.

use std::collections::BTreeMap;

use super::options::DEFAULT_SEED;
use crate::error::HarnessError;
use crate::model::Run;
use crate::stats;
use crate::thresholds::{Thresholds, DEFAULT_FLOOR_MS};

#[derive(Clone, Debug, PartialEq)]
pub struct CalibrateOptions {
    /// The A/A variants. Empty: the run's only variant (an error if it has several).
    pub variants: Vec<String>,
    /// Quantile of the split log ratios taken as the noise level (0.95).
    pub quantile: f64,
    /// Smallest threshold returned (0.01 = 1%).
    pub min_threshold: f64,
    /// Random half splits per case and phase.
    pub splits: usize,
    pub seed: u64,
    /// Absolute floor written to the result.
    pub floor_ms: f64,
}

impl Default for CalibrateOptions {
    fn default() -> Self {
        CalibrateOptions {
            variants: Vec::new(),
            quantile: 0.95,
            min_threshold: 0.01,
            splits: 1000,
            seed: DEFAULT_SEED,
            floor_ms: DEFAULT_FLOOR_MS,
        }
    }
}

/// Learns thresholds from the A/A samples of `run` (see module docs).
pub fn calibrate(run: &Run, opts: &CalibrateOptions) -> Result<Thresholds, HarnessError> {
    if !(opts.quantile > 0.0 && opts.quantile < 1.0) || opts.splits == 0 {
        return Err(HarnessError::Invalid(format!(
            "calibrate: quantile {} must lie in (0, 1) and splits {} must be positive",
            opts.quantile, opts.splits
        )));
    }
    let variants = aa_variants(run, opts)?;
    let mut phases: BTreeMap<String, f64> = BTreeMap::new();
    for case in &run.cases {
        let mut names: Vec<String> = Vec::new();
        for v in &variants {
            for p in run.phase_names(v, case) {
                if !names.contains(&p) {
                    names.push(p);
                }
            }
        }
        for p in names {
            let pooled: Vec<f64> = variants.iter().flat_map(|v| run.values(v, case, &p)).collect();
            let seed = stats::derive_seed(opts.seed, &format!("{}|{p}", case.label()));
            if let Some(noise) = stats::split_noise(&pooled, opts.splits, opts.quantile, seed) {
                let e = phases.entry(p).or_insert(0.0);
                *e = e.max(noise.max(opts.min_threshold));
            }
        }
    }
    if phases.is_empty() {
        return Err(HarnessError::Data(format!(
            "calibrate: run {} has no phase with at least {} successful samples of variant(s) {}",
            run.id,
            stats::noise::MIN_POOLED,
            variants.join(", ")
        )));
    }
    let default = phases.values().copied().fold(opts.min_threshold, f64::max);
    Ok(Thresholds {
        default,
        floor_ms: opts.floor_ms,
        phases,
        ..Thresholds::default()
    })
}

/// Each of `variants` (every variant of `run` when empty) calibrated as A/A
/// data of its own (see [`calibrate`]), taken together by [`widest`]: a night's
/// `gpu` and `gpu-all` are each their own A/A data, not one group.
pub fn calibrate_each(run: &Run, variants: &[String], opts: &CalibrateOptions) -> Result<Thresholds, HarnessError> {
    let names = if variants.is_empty() {
        run.variant_names()
    } else {
        variants.to_vec()
    };
    let mut merged: Option<Thresholds> = None;
    for v in names {
        let one = calibrate(
            run,
            &CalibrateOptions {
                variants: vec![v],
                ..opts.clone()
            },
        )?;
        merged = Some(match merged {
            None => one,
            Some(m) => widest(m, &one),
        });
    }
    merged.ok_or_else(|| HarnessError::Data(format!("calibrate: run {} has no variant", run.id)))
}

/// Thresholds of two A/A groups taken together: each phase's wider one (a
/// phase only one group has keeps its own), the wider default.
fn widest(mut a: Thresholds, b: &Thresholds) -> Thresholds {
    for (p, t) in &b.phases {
        let e = a.phases.entry(p.clone()).or_insert(*t);
        *e = e.max(*t);
    }
    a.default = a.default.max(b.default);
    a
}

/// The A/A variants to pool, checked to share one feature set.
fn aa_variants(run: &Run, opts: &CalibrateOptions) -> Result<Vec<String>, HarnessError> {
    let names = run.variant_names();
    let chosen = if opts.variants.is_empty() {
        match names.as_slice() {
            [one] => vec![one.clone()],
            _ => {
                return Err(HarnessError::Invalid(format!(
                    "calibrate: run {} has variants {}; name the A/A variant(s) to use",
                    run.id,
                    names.join(", ")
                )))
            }
        }
    } else {
        opts.variants.clone()
    };
    let mut features = None;
    for v in &chosen {
        let Some(b) = run.variants.iter().find(|b| &b.variant.name == v) else {
            return Err(HarnessError::Invalid(format!(
                "calibrate: variant '{v}' is not in run {} (it has: {})",
                run.id,
                names.join(", ")
            )));
        };
        match &features {
            None => features = Some(b.variant.features.clone()),
            Some(f) if f != &b.variant.features => {
                return Err(HarnessError::Incomparable(format!(
                    "calibrate: variants {} do not share one feature set, so they are not A/A data",
                    chosen.join(", ")
                )))
            }
            Some(_) => {}
        }
    }
    Ok(chosen)
}
