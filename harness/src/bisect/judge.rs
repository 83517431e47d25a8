//! The tri-state measuring oracle of a bisect: compares two feature sets on the
//! metric phase and answers regressed / improved / unchanged / inconclusive.
//! Inconclusive asks for more repetitions (doubling, up to the cap) before it
//! is accepted. Samples are banked per variant (one name per feature set), so a
//! variant met twice is measured (and built) once, and the bank is saved after
//! every measurement.

use super::state::BisectState;
use super::Measurer;
use crate::compare::{compare_variants, CompareOptions};
use crate::model::{Comparison, PhaseComparison, Run, Variant, Verdict, RUN_SCHEMA_VERSION};
use crate::HarnessError;
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct JudgeOptions {
    /// Phase judged (`total` or a phase name).
    pub metric: String,
    pub reps: usize,
    pub max_reps: usize,
    /// Relative noise threshold of the metric phase (also the additivity tolerance).
    pub threshold: f64,
    /// Statistics of each comparison.
    pub compare: CompareOptions,
}

/// One judged pair.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Variant names of the two sides.
    pub reference: String,
    pub candidate: String,
    pub verdict: Verdict,
    /// The metric's row.
    pub metric: PhaseComparison,
    /// Every phase's row (reference vs candidate).
    pub comparison: Comparison,
}

pub struct Judge<'a> {
    measurer: &'a mut dyn Measurer,
    pub state: BisectState,
    state_path: Option<PathBuf>,
    pub opts: JudgeOptions,
    progress: &'a mut dyn FnMut(&str),
    /// Repetitions measured by this process (not restored from the state).
    pub fresh_runs: usize,
    /// Variants whose samples are fixed (a stored baseline): never measured.
    pub frozen: std::collections::BTreeSet<String>,
}

impl<'a> Judge<'a> {
    pub fn new(
        measurer: &'a mut dyn Measurer,
        state: BisectState,
        state_path: Option<PathBuf>,
        opts: JudgeOptions,
        progress: &'a mut dyn FnMut(&str),
    ) -> Self {
        Judge {
            measurer,
            state,
            state_path,
            opts,
            progress,
            fresh_runs: 0,
            frozen: Default::default(),
        }
    }

    /// Logs a progress line (shown now, kept in the state file).
    pub fn say(&mut self, line: String) {
        (self.progress)(&line);
        self.state.log.push(line);
    }

    pub fn save(&self) -> Result<(), HarnessError> {
        match &self.state_path {
            Some(p) => self.state.save(p),
            None => Ok(()),
        }
    }

    /// Makes sure each variant has at least `n` successful samples.
    pub fn ensure(&mut self, variants: &[&Variant], n: usize) -> Result<(), HarnessError> {
        let short: Vec<&Variant> = variants
            .iter()
            .copied()
            .filter(|v| !self.frozen.contains(&v.name) && self.state.ok_count(&v.name) < n)
            .collect();
        if short.is_empty() {
            return Ok(());
        }
        let need = short
            .iter()
            .map(|v| n - self.state.ok_count(&v.name))
            .max()
            .unwrap_or(0);
        let names: Vec<String> = short.iter().map(|v| v.name.clone()).collect();
        let owned: Vec<Variant> = short.iter().map(|v| (*v).clone()).collect();
        let before: Vec<usize> = owned.iter().map(|v| self.state.ok_count(&v.name)).collect();
        let run = self.measure_unbanked(&owned, need)?;
        for v in &owned {
            let got: Vec<_> = run.samples.iter().filter(|s| s.variant == v.name).cloned().collect();
            self.state.bank_samples(&v.name, got);
        }
        self.say(format!("  measured {} x{need} rep(s)", names.join(", ")));
        self.save()?;
        for (v, b) in owned.iter().zip(before) {
            if self.state.ok_count(&v.name) <= b {
                let why = last_error(&self.state.bank[&v.name]);
                return Err(HarnessError::Invalid(format!(
                    "variant `{}` produced no successful repetition: {why}",
                    v.name
                )));
            }
        }
        Ok(())
    }

    /// Measures `variants` for `reps` repetitions without banking the samples
    /// (builds, testbed and repetition counts are recorded).
    pub fn measure_unbanked(&mut self, variants: &[Variant], reps: usize) -> Result<Run, HarnessError> {
        let run = self.measurer.measure(variants, reps)?;
        self.state.testbed.get_or_insert_with(|| run.testbed.clone());
        self.state.provenance.get_or_insert_with(|| run.provenance.clone());
        for bv in &run.variants {
            self.state
                .built
                .entry(bv.variant.name.clone())
                .or_insert_with(|| bv.clone());
        }
        let got = run
            .samples
            .iter()
            .filter(|s| variants.iter().any(|v| v.name == s.variant))
            .count();
        self.state.runs += got;
        self.fresh_runs += got;
        Ok(run)
    }

    /// A run holding every banked sample of `variants`, named as given.
    pub fn run_of(&self, variants: &[&Variant]) -> Run {
        let mut samples = Vec::new();
        let mut cases = Vec::new();
        let mut built = Vec::new();
        for v in variants {
            let key = &v.name;
            if let Some(b) = self.state.built.get(key) {
                let mut b = b.clone();
                b.variant = (*v).clone();
                built.push(b);
            }
            for s in self.state.bank.get(key).into_iter().flatten() {
                let mut s = s.clone();
                s.variant = v.name.clone();
                if !cases.contains(&s.case) {
                    cases.push(s.case.clone());
                }
                samples.push(s);
            }
        }
        Run {
            schema_version: RUN_SCHEMA_VERSION,
            id: "bisect".into(),
            testbed: self.state.testbed.clone().unwrap_or_else(|| crate::model::Testbed {
                key: "unknown".into(),
                cpu_model: String::new(),
                cpu_cores: 0,
                gpu_model: None,
                gpu_driver: None,
            }),
            provenance: self.state.provenance.clone().unwrap_or_default(),
            variants: built,
            cases,
            samples,
        }
    }

    /// Compares two banked variants without measuring.
    pub fn compare_now(&self, reference: &Variant, candidate: &Variant) -> Result<Outcome, HarnessError> {
        let run = self.run_of(&[reference, candidate]);
        let comparison = compare_variants(&run, &reference.name, &candidate.name, &self.opts.compare)?;
        let metric = comparison
            .rows
            .iter()
            .find(|r| r.phase == self.opts.metric)
            .cloned()
            .ok_or_else(|| {
                let seen: Vec<&str> = comparison.rows.iter().map(|r| r.phase.as_str()).collect();
                HarnessError::Invalid(format!(
                    "metric phase `{}` is not in the records of `{}` vs `{}` (phases: {})",
                    self.opts.metric,
                    reference.name,
                    candidate.name,
                    seen.join(", ")
                ))
            })?;
        Ok(Outcome {
            reference: reference.name.clone(),
            candidate: candidate.name.clone(),
            verdict: metric.verdict,
            metric,
            comparison,
        })
    }

    /// Measures as needed and judges `candidate` against `reference` on the metric.
    pub fn compare(&mut self, reference: &Variant, candidate: &Variant) -> Result<Outcome, HarnessError> {
        let have = |j: &Self| {
            [reference, candidate]
                .iter()
                .filter(|v| !j.frozen.contains(&v.name))
                .map(|v| j.state.ok_count(&v.name))
                .min()
                .unwrap_or(usize::MAX)
        };
        let mut n = self.opts.reps.max(have(self));
        loop {
            self.ensure(&[reference, candidate], n)?;
            let out = self.compare_now(reference, candidate)?;
            let n_now = have(self);
            if out.verdict != Verdict::Inconclusive || n_now >= self.opts.max_reps {
                return Ok(out);
            }
            let next = (n_now * 2)
                .max(out.metric.reps_needed.unwrap_or(0))
                .min(self.opts.max_reps);
            self.say(format!(
                "  inconclusive at n={n_now} ({}), taking more repetitions: n={next}",
                describe(&out.metric)
            ));
            n = next;
        }
    }
}

/// Why the latest failed sample failed, for an error message.
pub(crate) fn last_error(samples: &[crate::model::Sample]) -> String {
    samples
        .iter()
        .rev()
        .find_map(|s| s.error.clone())
        .unwrap_or_else(|| "no sample came back".into())
}

/// `+5.1% (95% CI +4.0 .. +6.2%)`.
pub fn describe(r: &PhaseComparison) -> String {
    let pct = |x: f64| format!("{:+.1}", (x - 1.0) * 100.0);
    format!(
        "{}% (95% CI {} .. {}%), {:.1} -> {:.1} ms",
        pct(r.ratio),
        pct(r.ci_low),
        pct(r.ci_high),
        r.ref_median_ms,
        r.cand_median_ms
    )
}
