//! The measurer of real builds: each call is one `runner::measure` of the
//! configured suite, restricted to one circuit, with the requested number of
//! repetitions. Runners are built once per feature set and reused from the
//! fingerprint-keyed cache afterwards.

use super::Measurer;
use crate::builder::BuildSettings;
use crate::config::{Config, Suite};
use crate::model::{Run, Variant};
use crate::progress;
use crate::runner::{measure, MeasureSpec};
use crate::HarnessError;
use std::collections::BTreeMap;
use std::path::PathBuf;

pub struct RunnerMeasurer {
    pub build: BuildSettings,
    pub suite: (String, Suite),
    pub params_dir: PathBuf,
    /// Warm-ups run before the repetitions of each call.
    pub warmup: usize,
    pub settings: BTreeMap<String, String>,
}

impl RunnerMeasurer {
    /// From the config: suite `suite_name` on `circuit` (one partition unless the suite says otherwise).
    pub fn from_config(
        cfg: &Config,
        suite_name: &str,
        circuit: &str,
        runner_override: Option<PathBuf>,
    ) -> Result<Self, HarnessError> {
        let (name, mut suite) = cfg
            .select_suites(&[suite_name.to_string()])?
            .into_iter()
            .next()
            .ok_or_else(|| HarnessError::Invalid(format!("unknown suite `{suite_name}`")))?;
        suite.circuits = vec![circuit.to_string()];
        let warmup = suite.warmup;
        let mut settings = BTreeMap::new();
        settings.insert("config".into(), cfg.path.display().to_string());
        settings.insert("command".into(), "bisect".into());
        Ok(RunnerMeasurer {
            build: BuildSettings::from_config(cfg, runner_override),
            suite: (name, suite),
            params_dir: cfg.resolve(&cfg.params_dir),
            warmup,
            settings,
        })
    }
}

impl Measurer for RunnerMeasurer {
    fn measure(&mut self, variants: &[Variant], reps: usize) -> Result<Run, HarnessError> {
        let mut suite = self.suite.1.clone();
        suite.reps = reps;
        suite.warmup = self.warmup;
        let spec = MeasureSpec {
            build: self.build.clone(),
            variants: variants.to_vec(),
            suites: vec![(self.suite.0.clone(), suite)],
            params_dir: self.params_dir.clone(),
            inject_delay: Vec::new(),
            sample_every: None,
            progress: progress::Mode::Lines,
            settings: self.settings.clone(),
            prebuilt: Default::default(),
            regenerate_params: false,
        };
        measure(&spec)
    }
}
