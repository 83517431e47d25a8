//! A mock measurer for tests and self-tests: synthetic per-phase timings where
//! chosen flags (alone or only in combination) add time to chosen phases, with
//! seeded relative noise, and optionally a load drift between measure calls
//! (every phase of every variant scaled alike, per call). No build, no child process.

use crate::bisect::measurer::Measurer;
use crate::model::{BuiltVariant, Case, Provenance, Run, Sample, Testbed, Variant, RUN_SCHEMA_VERSION, TOTAL};
use crate::stats::SeededRng as Rng;
use crate::HarnessError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// `delta_ms` is added to `phase` when every flag in `flags` is on (one flag: a
/// main effect; two or more: an interaction that none of them shows alone).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MockEffect {
    pub flags: Vec<String>,
    pub phase: String,
    pub delta_ms: f64,
}

/// What the mock measures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MockScenario {
    /// Phase name -> time in ms with no flag on.
    pub base_ms: BTreeMap<String, f64>,
    #[serde(default)]
    pub effects: Vec<MockEffect>,
    /// Relative standard deviation of every phase (0.01 = 1%).
    #[serde(default)]
    pub noise: f64,
    /// Flags that, when on, add this much relative standard deviation to every phase.
    #[serde(default)]
    pub noisy_flags: BTreeMap<String, f64>,
    #[serde(default)]
    pub seed: u64,
    /// Load drift between measure calls: every phase of every variant measured
    /// by the i-th call (from 0) is multiplied by entry i; the last entry holds
    /// for later calls; empty: no drift. `[1.0, 1.4]`: every call after the
    /// first runs 40% slower (the ends measured in one sitting, the probes later).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub call_scale: Vec<f64>,
}

/// Measures a [`MockScenario`]; counts builds (distinct feature sets) and runs.
pub struct MockMeasurer {
    scenario: MockScenario,
    rng: Rng,
    case: Case,
    order: usize,
    /// Feature sets "built" so far (the cache key of a real builder).
    pub built: BTreeSet<String>,
    /// Repetitions run so far.
    pub runs: usize,
    /// Measure calls so far.
    pub calls: usize,
}

impl MockMeasurer {
    pub fn new(scenario: MockScenario) -> Result<Self, HarnessError> {
        if scenario.base_ms.is_empty() {
            return Err(HarnessError::Invalid("mock scenario: `base_ms` names no phase".into()));
        }
        let bad_base = scenario.base_ms.iter().find(|(_, v)| !(v.is_finite() && **v > 0.0));
        if let Some((p, v)) = bad_base {
            return Err(HarnessError::Invalid(format!(
                "mock scenario: base_ms.{p} = {v} is not a positive time"
            )));
        }
        if !(scenario.noise.is_finite() && scenario.noise >= 0.0) {
            return Err(HarnessError::Invalid(format!(
                "mock scenario: noise = {} is not >= 0",
                scenario.noise
            )));
        }
        if let Some(e) = scenario
            .effects
            .iter()
            .find(|e| !scenario.base_ms.contains_key(&e.phase))
        {
            return Err(HarnessError::Invalid(format!(
                "mock scenario: effect on unknown phase `{}` (base_ms has no such phase)",
                e.phase
            )));
        }
        if let Some(x) = scenario.call_scale.iter().find(|x| !(x.is_finite() && **x > 0.0)) {
            return Err(HarnessError::Invalid(format!(
                "mock scenario: call_scale entry {x} is not a positive factor"
            )));
        }
        let rng = Rng::new(scenario.seed);
        Ok(MockMeasurer {
            scenario,
            rng,
            case: Case {
                suite: "e2e".into(),
                circuit: "mock".into(),
                partitions: 1,
                backend: crate::model::Backend::Cpu,
                clock: Default::default(),
            },
            order: 0,
            built: BTreeSet::new(),
            runs: 0,
            calls: 0,
        })
    }

    /// Reads a scenario from a JSON file (`bisect flags --mock FILE`).
    pub fn from_file(path: &std::path::Path) -> Result<Self, HarnessError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| HarnessError::io(format!("reading mock scenario {}", path.display()), e))?;
        let scenario: MockScenario = serde_json::from_str(&text)
            .map_err(|e| HarnessError::Invalid(format!("mock scenario {}: {e}", path.display())))?;
        Self::new(scenario)
    }

    /// The drift factor of the current measure call.
    fn scale(&self) -> f64 {
        let s = &self.scenario.call_scale;
        s.get(self.calls).or(s.last()).copied().unwrap_or(1.0)
    }

    fn one_sample(&mut self, v: &Variant, rep: usize, scale: f64) -> Sample {
        let on: BTreeSet<&str> = v.features.iter().map(String::as_str).collect();
        let mut sd = self.scenario.noise;
        for (f, extra) in &self.scenario.noisy_flags {
            if on.contains(f.as_str()) {
                sd = (sd * sd + extra * extra).sqrt();
            }
        }
        let mut phases = BTreeMap::new();
        let mut total = 0.0;
        for (phase, base) in &self.scenario.base_ms {
            let mut ms = *base;
            for e in &self.scenario.effects {
                if &e.phase == phase && e.flags.iter().all(|f| on.contains(f.as_str())) {
                    ms += e.delta_ms;
                }
            }
            let ms = ms * scale;
            let ms = (ms * (1.0 + sd * self.rng.normal())).max(ms * 0.05);
            total += ms;
            phases.insert(phase.clone(), ms);
        }
        phases.insert(TOTAL.to_string(), total);
        self.order += 1;
        Sample {
            variant: v.name.clone(),
            case: self.case.clone(),
            rep,
            order: self.order,
            warmup: false,
            ok: true,
            error: None,
            wall_ms: total,
            phases,
            spans: Vec::new(),
            counters: BTreeMap::new(),
            verified: None,
            fingerprint: format!("mock-{}", v.feature_list()),
            memory: Vec::new(),
            mock: false,
            params: None,
        }
    }
}

impl Measurer for MockMeasurer {
    fn measure(&mut self, variants: &[Variant], reps: usize) -> Result<Run, HarnessError> {
        let mut built = Vec::new();
        for v in variants {
            let cached = !self.built.insert(v.feature_list());
            built.push(BuiltVariant {
                variant: v.clone(),
                fingerprint: format!("mock-{}", v.feature_list()),
                binary: "mock".into(),
                cached,
            });
        }
        let scale = self.scale();
        self.calls += 1;
        let mut samples = Vec::new();
        for rep in 0..reps {
            for v in variants {
                samples.push(self.one_sample(v, rep, scale));
                self.runs += 1;
            }
        }
        Ok(Run {
            schema_version: RUN_SCHEMA_VERSION,
            id: format!("mock-{}", self.order),
            testbed: Testbed {
                key: "mock".into(),
                cpu_model: "mock".into(),
                cpu_cores: 1,
                gpu_model: None,
                gpu_driver: None,
                cpus_allowed: None,
            },
            provenance: Provenance::default(),
            variants: built,
            cases: vec![self.case.clone()],
            samples,
            incomplete: None,
        })
    }
}

/// Bisect state parameters of a one-flag mock bisect (`x` between the ends, metric `total`).
pub fn mock_params() -> crate::bisect::state::Params {
    crate::bisect::state::Params {
        good: Vec::new(),
        bad: vec!["x".into()],
        suite: "e2e".into(),
        circuit: "mock".into(),
        metric: "total".into(),
        reps: 5,
        max_reps: 20,
        threshold: 0.03,
        seed: 1,
    }
}
