//! Settings of a comparison.

use crate::config::Config;
use crate::error::HarnessError;
use crate::model::PairedTest;
use crate::thresholds::Thresholds;
use std::collections::BTreeMap;

/// Seed used when none is given, so that a stored comparison can be reproduced.
pub const DEFAULT_SEED: u64 = 0x5eed_0f9a_5e00;

#[derive(Clone, Debug, PartialEq)]
pub struct CompareOptions {
    /// Level of the Benjamini-Hochberg adjusted p-value (q) below which a change is significant.
    pub alpha: f64,
    /// Default, per-phase and absolute-floor noise thresholds.
    pub thresholds: Thresholds,
    /// Base seed of the bootstrap; each row derives its own stream from it.
    pub bootstrap_seed: u64,
    /// Bootstrap resamples per row.
    pub resamples: usize,
    /// Confidence level of the interval (0.95).
    pub confidence: f64,
    /// Fewest successful samples per side for a row to be tested.
    pub min_samples: usize,
    /// Compare runs from different testbeds (flagged in every output) instead of refusing.
    pub allow_cross_testbed: bool,
    /// Compare variants of one name built with different cargo features instead of refusing.
    pub allow_feature_mismatch: bool,
    /// Labels of the two sides in outputs (defaults: `run <id>`).
    pub reference_label: Option<String>,
    pub candidate_label: Option<String>,
    /// Within one run ([`super::compare_variants`]): test each phase on the
    /// per-repetition pairs (the reference and the candidate sample of the same
    /// case and repetition, measured next to each other when the suite
    /// interleaves) with the suite's paired test (signed-rank unless
    /// [`Self::suite_paired_test`] says otherwise) and a paired bootstrap, instead
    /// of as two independent samples. Rows whose pairs are not one-to-one, or
    /// too few, are tested unpaired.
    pub paired: bool,
    /// Suites whose paired rows take another test than the signed-rank test
    /// (their `paired_test`).
    pub suite_paired_test: BTreeMap<String, PairedTest>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            alpha: 0.05,
            thresholds: Thresholds::default(),
            bootstrap_seed: DEFAULT_SEED,
            resamples: 2000,
            confidence: 0.95,
            min_samples: 3,
            allow_cross_testbed: false,
            allow_feature_mismatch: false,
            reference_label: None,
            candidate_label: None,
            paired: false,
            suite_paired_test: BTreeMap::new(),
        }
    }
}

/// Each suite's own setting `own`, for the suites that have one.
fn per_suite<T>(cfg: &Config, own: impl Fn(&crate::config::Suite) -> Option<T>) -> BTreeMap<String, T> {
    cfg.suites
        .iter()
        .filter_map(|(n, s)| Some((n.clone(), own(s)?)))
        .collect()
}

impl CompareOptions {
    /// The config's comparison settings: alpha, thresholds (with each suite's
    /// own floor), bootstrap seed and resamples.
    pub fn from_config(cfg: &Config, allow_cross_testbed: bool) -> CompareOptions {
        let suite_floor_ms = per_suite(cfg, |s| s.floor_ms);
        let suite_paired_test = per_suite(cfg, |s| {
            (s.paired_test != PairedTest::default()).then_some(s.paired_test)
        });
        let suite_phases = per_suite(cfg, |s| (!s.thresholds.is_empty()).then(|| s.thresholds.clone()));
        let suite_gpu_phases = per_suite(cfg, |s| {
            (!s.gpu_thresholds.is_empty()).then(|| s.gpu_thresholds.clone())
        });
        CompareOptions {
            alpha: cfg.alpha,
            thresholds: Thresholds {
                suite_floor_ms,
                suite_phases,
                suite_gpu_phases,
                ..cfg.thresholds.clone()
            },
            bootstrap_seed: cfg.bootstrap_seed,
            resamples: cfg.resamples,
            allow_cross_testbed,
            suite_paired_test,
            ..CompareOptions::default()
        }
    }

    /// The test of `suite`'s paired rows.
    pub fn paired_test(&self, suite: &str) -> PairedTest {
        self.suite_paired_test.get(suite).copied().unwrap_or_default()
    }

    /// These settings as one suite's comparisons see them: its own floor and
    /// thresholds in place of the global ones (a bisect judges one suite).
    pub fn for_suite(mut self, suite: &str) -> CompareOptions {
        if let Some(t) = self.thresholds.for_suite(suite) {
            self.thresholds = t;
        }
        self
    }

    /// These settings for runs measured with GPU `gpu_model`: each suite's
    /// table for that model over its own ([`Thresholds::for_gpu`]).
    pub fn for_gpu(&self, gpu_model: Option<&str>) -> CompareOptions {
        CompareOptions {
            thresholds: self.thresholds.for_gpu(gpu_model),
            ..self.clone()
        }
    }

    /// These settings with `threshold` as the default and as `metric`'s own
    /// (a bisect's `--threshold`); unchanged without one.
    pub fn with_threshold(mut self, metric: &str, threshold: Option<f64>) -> CompareOptions {
        if let Some(t) = threshold {
            self.thresholds.default = t;
            self.thresholds.phases.insert(metric.to_string(), t);
        }
        self
    }

    /// Rejects settings under which the statistics are meaningless.
    pub fn validate(&self) -> Result<(), HarnessError> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(HarnessError::Config(format!(
                "alpha = {}: must lie in (0, 1)",
                self.alpha
            )));
        }
        if !(self.confidence > 0.0 && self.confidence < 1.0) {
            return Err(HarnessError::Config(format!(
                "confidence = {}: must lie in (0, 1)",
                self.confidence
            )));
        }
        if self.resamples < 100 {
            return Err(HarnessError::Config(format!(
                "resamples = {}: use at least 100 bootstrap resamples",
                self.resamples
            )));
        }
        if self.min_samples < 2 {
            return Err(HarnessError::Config(format!(
                "min_samples = {}: at least 2 samples per side are needed",
                self.min_samples
            )));
        }
        self.thresholds.validate()
    }
}
