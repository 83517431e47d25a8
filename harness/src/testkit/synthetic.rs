//! Synthetic runs: a test and mocking utility that builds [`Run`] values with chosen timings,
//! so statistics, comparisons, bisection and charts can be tested without measuring anything.
//!
//! Every phase of every sample is `median_ms * effect * (1 + cv * z)` with `z` a standard normal
//! draw from a seeded stream (clamped so timings stay positive); `total` is the sum of the phases.
//! Variants are interleaved (A B A B ...) and phases are laid out back to back as spans.
//!
//! ```
//! use phaseline::testkit::SyntheticRun;
//! let run = SyntheticRun::new("r1", 7)
//!     .variant("baseline", &[])
//!     .variant("A1", &["smallvec"])
//!     .phase("synthesize", 100.0, 0.01)
//!     .phase("msm", 50.0, 0.01)
//!     .effect("A1", "synthesize", 1.10) // A1 is 10% slower in synthesis
//!     .reps(10)
//!     .build();
//! assert_eq!(run.values("A1", &run.cases[0], "synthesize").len(), 10);
//! ```

use std::collections::BTreeMap;

use crate::model::{BuiltVariant, Case, Provenance, Run, Sample, Span, Testbed, Variant, RUN_SCHEMA_VERSION, TOTAL};
use crate::stats::SeededRng;

/// One phase's typical duration and relative spread.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseSpec {
    pub name: String,
    pub median_ms: f64,
    /// Coefficient of variation (0.02 = 2% noise).
    pub cv: f64,
}

/// Builder of a synthetic [`Run`].
#[derive(Clone, Debug)]
pub struct SyntheticRun {
    id: String,
    seed: u64,
    testbed: String,
    variants: Vec<Variant>,
    cases: Vec<Case>,
    phases: Vec<PhaseSpec>,
    reps: usize,
    warmups: usize,
    /// (variant, phase) -> multiplicative effect.
    effects: BTreeMap<(String, String), f64>,
    /// (variant, rep) pairs whose sample fails.
    failures: Vec<(String, usize)>,
    /// (variant, phase) pairs the variant never reports.
    dropped: Vec<(String, String)>,
}

/// The testbed of synthetic runs unless [`SyntheticRun::testbed`] says otherwise.
pub const SYNTHETIC_TESTBED: &str = "synthetic-2c-nogpu";

/// A testbed value with the given key.
pub fn testbed(key: &str) -> Testbed {
    Testbed {
        key: key.to_string(),
        cpu_model: "synthetic cpu".into(),
        cpu_cores: 2,
        gpu_model: None,
        gpu_driver: None,
        cpus_allowed: None,
    }
}

/// A case on the CPU backend with one partition.
pub fn case(suite: &str, circuit: &str) -> Case {
    Case {
        suite: suite.into(),
        circuit: circuit.into(),
        partitions: 1,
        backend: crate::model::Backend::Cpu,
        clock: Default::default(),
    }
}

impl SyntheticRun {
    /// A run with id `id` and noise seed `seed`; defaults: testbed [`SYNTHETIC_TESTBED`], case
    /// `synth/tiny`, 5 reps, no warm-ups. Add at least one variant and one phase.
    pub fn new(id: &str, seed: u64) -> Self {
        SyntheticRun {
            id: id.into(),
            seed,
            testbed: SYNTHETIC_TESTBED.into(),
            variants: Vec::new(),
            cases: Vec::new(),
            phases: Vec::new(),
            reps: 5,
            warmups: 0,
            effects: BTreeMap::new(),
            failures: Vec::new(),
            dropped: Vec::new(),
        }
    }

    pub fn testbed(mut self, key: &str) -> Self {
        self.testbed = key.into();
        self
    }

    pub fn variant(mut self, name: &str, features: &[&str]) -> Self {
        self.variants.push(Variant::new(name, features.iter().copied()));
        self
    }

    pub fn case(mut self, case: Case) -> Self {
        self.cases.push(case);
        self
    }

    pub fn phase(mut self, name: &str, median_ms: f64, cv: f64) -> Self {
        self.phases.push(PhaseSpec {
            name: name.into(),
            median_ms,
            cv,
        });
        self
    }

    pub fn reps(mut self, n: usize) -> Self {
        self.reps = n;
        self
    }

    pub fn warmups(mut self, n: usize) -> Self {
        self.warmups = n;
        self
    }

    /// Multiplies `phase` of `variant` by `factor` (1.10 = 10% slower).
    pub fn effect(mut self, variant: &str, phase: &str, factor: f64) -> Self {
        self.effects.insert((variant.into(), phase.into()), factor);
        self
    }

    /// Makes repetition `rep` of `variant` a failed sample (on every case).
    pub fn fail(mut self, variant: &str, rep: usize) -> Self {
        self.failures.push((variant.into(), rep));
        self
    }

    /// `variant` never reports `phase`.
    pub fn drop_phase(mut self, variant: &str, phase: &str) -> Self {
        self.dropped.push((variant.into(), phase.into()));
        self
    }

    pub fn build(&self) -> Run {
        let mut rng = SeededRng::new(self.seed);
        let cases = if self.cases.is_empty() {
            vec![case("synth", "tiny")]
        } else {
            self.cases.clone()
        };
        let mut samples = Vec::new();
        let mut order = 0;
        for c in &cases {
            for i in 0..self.warmups + self.reps {
                for v in &self.variants {
                    let warmup = i < self.warmups;
                    let rep = if warmup { i } else { i - self.warmups };
                    let failed = !warmup && self.failures.contains(&(v.name.clone(), rep));
                    samples.push(self.sample(&mut rng, v, c, rep, order, warmup, failed));
                    order += 1;
                }
            }
        }
        Run {
            schema_version: RUN_SCHEMA_VERSION,
            id: self.id.clone(),
            testbed: testbed(&self.testbed),
            provenance: Provenance {
                harness_version: "synthetic".into(),
                ..Provenance::default()
            },
            variants: self
                .variants
                .iter()
                .map(|v| BuiltVariant {
                    variant: v.clone(),
                    fingerprint: format!("synthetic-{}", v.feature_list()),
                    binary: String::new(),
                    cached: true,
                })
                .collect(),
            cases,
            samples,
            incomplete: None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn sample(
        &self,
        rng: &mut SeededRng,
        v: &Variant,
        c: &Case,
        rep: usize,
        order: usize,
        warmup: bool,
        failed: bool,
    ) -> Sample {
        let mut phases = BTreeMap::new();
        let mut spans = Vec::new();
        let mut t = 0.0;
        for p in &self.phases {
            let noise = (1.0 + p.cv * rng.normal()).max(0.05);
            if self.dropped.contains(&(v.name.clone(), p.name.clone())) {
                continue;
            }
            let effect = self
                .effects
                .get(&(v.name.clone(), p.name.clone()))
                .copied()
                .unwrap_or(1.0);
            let ms = p.median_ms * effect * noise;
            spans.push(Span {
                name: p.name.clone(),
                parent: None,
                start_ms: t,
                ms,
                thread: "main".into(),
            });
            phases.insert(p.name.clone(), ms);
            t += ms;
        }
        if failed {
            phases.clear();
            spans.clear();
        } else {
            phases.insert(TOTAL.to_string(), t);
        }
        Sample {
            variant: v.name.clone(),
            case: c.clone(),
            rep,
            order,
            warmup,
            ok: !failed,
            error: failed.then(|| "synthetic failure".to_string()),
            wall_ms: t + 1.0,
            phases,
            spans,
            counters: BTreeMap::new(),
            verified: Some(!failed),
            fingerprint: format!("synthetic-{}", v.feature_list()),
            memory: Vec::new(),
            mock: false,
            params: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_interleaved_reproducible_samples() {
        let b = SyntheticRun::new("r", 1)
            .variant("a", &[])
            .variant("b", &["x"])
            .phase("p", 10.0, 0.0)
            .phase("q", 5.0, 0.0)
            .effect("b", "p", 2.0)
            .reps(3)
            .warmups(1)
            .fail("a", 2);
        let run = b.build();
        assert_eq!(run, b.build());
        assert_eq!(run.samples.len(), 8);
        assert_eq!(run.samples[0].variant, "a");
        assert_eq!(run.samples[1].variant, "b");
        let c = &run.cases[0];
        assert_eq!(run.values("a", c, "p"), vec![10.0, 10.0]);
        assert_eq!(run.values("b", c, "p"), vec![20.0; 3]);
        assert_eq!(run.values("b", c, TOTAL), vec![25.0; 3]);
        assert_eq!(run.phase_names("a", c), vec!["total", "p", "q"]);
    }
}
