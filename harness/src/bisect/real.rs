//! The measurer of real builds: each call is one `runner::measure` of the
//! bisect's target (one suite on one circuit), with the requested number of
//! repetitions. Runners are built once per feature set and reused from the
//! fingerprint-keyed cache afterwards.

use super::measurer::Measurer;
use super::target::Target;
use crate::builder::BuildSettings;
use crate::config::Config;
use crate::model::{Run, Variant};
use crate::runner::{measure, MeasureSpec};
use crate::HarnessError;
use std::path::PathBuf;

pub struct RunnerMeasurer {
    /// Every call's measurement; its suite's repetitions are set per call.
    spec: MeasureSpec,
    /// Warm-ups run before the repetitions of each call.
    pub warmup: usize,
}

impl RunnerMeasurer {
    /// From the config: `target` (one partition unless the suite says otherwise).
    pub fn from_config(cfg: &Config, target: &Target, runner_override: Option<PathBuf>) -> Self {
        let mut spec = MeasureSpec::new(
            BuildSettings::from_config(cfg, runner_override),
            Vec::new(),
            vec![(target.suite_name.clone(), target.suite.clone())],
            cfg.resolve(&cfg.params_dir),
        );
        spec.settings.insert("config".into(), cfg.path.display().to_string());
        spec.settings.insert("command".into(), "bisect".into());
        RunnerMeasurer {
            spec,
            warmup: target.suite.warmup,
        }
    }
}

impl Measurer for RunnerMeasurer {
    fn measure(&mut self, variants: &[Variant], reps: usize) -> Result<Run, HarnessError> {
        let mut spec = self.spec.clone();
        spec.variants = variants.to_vec();
        for (_, suite) in spec.suites.iter_mut() {
            suite.reps = reps;
            suite.warmup = self.warmup;
        }
        measure(&spec)
    }
}
