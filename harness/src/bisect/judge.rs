//! The tri-state measuring oracle of a bisect: compares two feature sets on the
//! metric phase and answers regressed / improved / unchanged / inconclusive.
//! Inconclusive asks for more repetitions (doubling, up to the cap) before it
//! is accepted. Samples are banked per variant (one name per feature set) with
//! the measure call that took them, and the bank is saved after every
//! measurement; a variant is built once.
//!
//! Drift policy: a comparison uses only samples of calls that measured BOTH of
//! its variants (interleaved in one [`Measurer::measure`]), as many of each
//! from each call. A probe is therefore always measured together with the end
//! (or base) it is compared with, and the end's samples from other calls
//! (an earlier sitting, the whole-change comparison, another probe's call) are
//! never set against it: load drift between calls shifts both sides alike
//! instead of reading as an effect. Several probes compared with one end may
//! share one call ([`Judge::ensure_with`]).

use super::measurer::Measurer;
use super::state::BisectState;
use crate::compare::{compare_variants, CompareOptions};
use crate::model::{Comparison, PhaseComparison, Run, Variant, Verdict, RUN_SCHEMA_VERSION};
use crate::HarnessError;
use std::collections::BTreeMap;
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

    /// Calls in which every (non-frozen) variant of `variants` was measured,
    /// with how many samples each variant contributes from that call: the
    /// fewest successful ones among them, so both sides of a comparison get as
    /// many samples from each call. Call 0 (unknown call, an old state file)
    /// never counts.
    pub fn joint_calls(&self, variants: &[&Variant]) -> BTreeMap<u64, usize> {
        let mut names: Vec<&str> = variants
            .iter()
            .map(|v| v.name.as_str())
            .filter(|n| !self.frozen.contains(*n))
            .collect();
        names.sort_unstable();
        names.dedup();
        let mut out: Option<BTreeMap<u64, usize>> = None;
        for n in names {
            let mut mine: BTreeMap<u64, usize> = BTreeMap::new();
            let samples = self.state.bank.get(n).map(Vec::as_slice).unwrap_or(&[]);
            for (s, c) in samples.iter().zip(self.state.calls_of(n)) {
                if c != 0 {
                    *mine.entry(c).or_default() += usize::from(s.ok && !s.warmup);
                }
            }
            out = Some(match out {
                None => mine,
                Some(acc) => acc
                    .into_iter()
                    .filter_map(|(c, k)| mine.get(&c).map(|m| (c, k.min(*m))))
                    .collect(),
            });
        }
        out.unwrap_or_default()
    }

    /// Successful samples per variant that `variants` have from calls that
    /// measured them all (`usize::MAX` when every one is frozen).
    pub fn joint_count(&self, variants: &[&Variant]) -> usize {
        if variants.iter().all(|v| self.frozen.contains(&v.name)) {
            return usize::MAX;
        }
        self.joint_calls(variants).values().sum()
    }

    /// Makes sure `variants` have at least `n` successful samples each from
    /// calls that measured them all: if not, measures them all in one call.
    pub fn ensure_joint(&mut self, variants: &[&Variant], n: usize) -> Result<(), HarnessError> {
        let have = self.joint_count(variants);
        if have >= n {
            return Ok(());
        }
        self.measure_banked(variants, n - have)
    }

    /// Makes sure each of `probes` has at least `n` successful samples from
    /// calls that also measured `end`; the probes short of that are measured in
    /// ONE call together with `end` (interleaved), so the end's samples of that
    /// call serve every probe of it.
    pub fn ensure_with(&mut self, end: &Variant, probes: &[&Variant], n: usize) -> Result<(), HarnessError> {
        let mut need = 0;
        let mut group: Vec<&Variant> = vec![end];
        for p in probes {
            let have = self.joint_count(&[end, p]);
            if have < n && !group.iter().any(|g| g.name == p.name) {
                need = need.max(n - have);
                group.push(p);
            }
        }
        if group.len() == 1 {
            return Ok(());
        }
        self.measure_banked(&group, need)
    }

    /// Measures the non-frozen `variants` in one call for `reps` repetitions
    /// and banks the samples under that call.
    fn measure_banked(&mut self, variants: &[&Variant], reps: usize) -> Result<(), HarnessError> {
        let mut owned: Vec<Variant> = Vec::new();
        for v in variants {
            if !self.frozen.contains(&v.name) && !owned.iter().any(|o| o.name == v.name) {
                owned.push((*v).clone());
            }
        }
        if owned.is_empty() || reps == 0 {
            return Ok(());
        }
        let had: Vec<bool> = owned.iter().map(|v| self.state.bank.contains_key(&v.name)).collect();
        let (run, call) = self.measure_unbanked(&owned, reps)?;
        let mut empty = Vec::new();
        for (v, had) in owned.iter().zip(had) {
            let got: Vec<_> = run.samples.iter().filter(|s| s.variant == v.name).cloned().collect();
            if had {
                self.state.repeat_runs += got.len();
            }
            if !got.iter().any(|s| s.ok && !s.warmup) {
                empty.push((v.name.clone(), last_error(&got)));
            }
            self.state.bank_samples(&v.name, got, call);
        }
        let names: Vec<&str> = owned.iter().map(|v| v.name.as_str()).collect();
        let what = if names.len() > 1 { ", interleaved" } else { "" };
        self.say(format!("  measured {} x{reps} rep(s){what}", names.join(", ")));
        self.save()?;
        if let Some((name, why)) = empty.into_iter().next() {
            return Err(HarnessError::Failed(format!(
                "variant `{name}` produced no successful repetition: {why}"
            )));
        }
        Ok(())
    }

    /// Measures `variants` for `reps` repetitions in one call without banking
    /// the samples (builds, testbed and repetition counts are recorded);
    /// returns the run and the id of the call.
    pub fn measure_unbanked(&mut self, variants: &[Variant], reps: usize) -> Result<(Run, u64), HarnessError> {
        let run = self.measurer.measure(variants, reps)?;
        let call = self.state.new_call();
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
        Ok((run, call))
    }

    /// A run holding every banked sample of `variants`, named as given.
    pub fn run_of(&self, variants: &[&Variant]) -> Run {
        self.run_with(variants, |_, _, _| true)
    }

    /// A run holding the samples of `variants` from the calls that measured
    /// them all, as many successful samples of each variant from each call
    /// (the first ones); failed samples of those calls come along. A frozen
    /// variant (a stored baseline) contributes every sample.
    pub fn run_joint(&self, variants: &[&Variant]) -> Run {
        let joint = self.joint_calls(variants);
        let mut taken: BTreeMap<(String, u64), usize> = BTreeMap::new();
        self.run_with(variants, |key, s, call| {
            if self.frozen.contains(key) {
                return true;
            }
            let Some(m) = joint.get(&call) else {
                return false;
            };
            if !s.ok || s.warmup {
                return true;
            }
            let t = taken.entry((key.to_string(), call)).or_default();
            *t += 1;
            *t <= *m
        })
    }

    /// A run of the banked samples of `variants` that `keep(variant, sample, call)` accepts.
    fn run_with(&self, variants: &[&Variant], mut keep: impl FnMut(&str, &crate::model::Sample, u64) -> bool) -> Run {
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
            let bank = self.state.bank.get(key).map(Vec::as_slice).unwrap_or(&[]);
            for (s, call) in bank.iter().zip(self.state.calls_of(key)) {
                if !keep(key, s, call) {
                    continue;
                }
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
                cpus_allowed: None,
            }),
            provenance: self.state.provenance.clone().unwrap_or_default(),
            variants: built,
            cases,
            samples,
            incomplete: None,
        }
    }

    /// Compares two banked variants without measuring, on their samples from
    /// the calls that measured both.
    pub fn compare_now(&self, reference: &Variant, candidate: &Variant) -> Result<Outcome, HarnessError> {
        let run = self.run_joint(&[reference, candidate]);
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

    /// Measures as needed and judges `candidate` against `reference` on the
    /// metric. Both are measured in the same call (interleaved), and only
    /// samples of calls that measured both are compared, so drift between
    /// calls (load, clocks, another sitting) shifts both sides alike.
    pub fn compare(&mut self, reference: &Variant, candidate: &Variant) -> Result<Outcome, HarnessError> {
        let have = |j: &Self| j.joint_count(&[reference, candidate]);
        let mut n = self.opts.reps.max(have(self));
        loop {
            self.ensure_joint(&[reference, candidate], n)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::bisect_mock::{mock_params, MockMeasurer, MockScenario};

    /// One phase of 100 ms, 1% noise; every call after the first 40% slower.
    fn mock() -> MockMeasurer {
        MockMeasurer::new(MockScenario {
            base_ms: [("work".to_string(), 100.0)].into_iter().collect(),
            effects: Vec::new(),
            noise: 0.01,
            noisy_flags: Default::default(),
            seed: 3,
            call_scale: vec![1.0, 1.4],
        })
        .unwrap()
    }

    fn state() -> BisectState {
        BisectState::new(mock_params())
    }

    fn opts() -> JudgeOptions {
        JudgeOptions {
            metric: "total".into(),
            reps: 5,
            max_reps: 20,
            threshold: 0.03,
            compare: CompareOptions::default(),
        }
    }

    #[test]
    fn a_comparison_uses_only_calls_that_measured_both_sides() {
        let mut m = mock();
        let mut say = |_: &str| {};
        let mut j = Judge::new(&mut m, state(), None, opts(), &mut say);
        let (a, b) = (Variant::new("a", Vec::<String>::new()), Variant::new("b", ["x"]));
        // `a` alone first (call 1, the quiet machine), then the comparison (call 2, 40% slower).
        j.ensure_joint(&[&a], 15).unwrap();
        assert_eq!(j.joint_count(&[&a, &b]), 0);
        let o = j.compare(&a, &b).unwrap();
        assert_eq!(o.verdict, Verdict::Unchanged, "{}", describe(&o.metric));
        assert_eq!(j.joint_calls(&[&a, &b]), BTreeMap::from([(2, 5)]));
        assert_eq!(j.state.calls_of("a"), [vec![1; 15], vec![2; 5]].concat());
        assert_eq!(j.state.repeat_runs, 5, "a's second measurement");
        let joint = j.run_joint(&[&a, &b]);
        assert_eq!(joint.samples.iter().filter(|s| s.variant == "a").count(), 5);
        // Pooling a's samples of both calls would have read the drift as an effect.
        let pooled = compare_variants(&j.run_of(&[&a, &b]), "a", "b", &j.opts.compare).unwrap();
        let row = pooled.rows.iter().find(|r| r.phase == "total").unwrap();
        assert_eq!(row.verdict, Verdict::Regressed, "{}", describe(row));
    }

    #[test]
    fn joint_samples_are_balanced_per_call_and_unknown_calls_never_pair() {
        let mut m = mock();
        let mut say = |_: &str| {};
        let mut j = Judge::new(&mut m, state(), None, opts(), &mut say);
        let (a, b, c) = (
            Variant::new("a", Vec::<String>::new()),
            Variant::new("b", ["x"]),
            Variant::new("c", ["y"]),
        );
        j.ensure_joint(&[&a, &b], 5).unwrap();
        j.ensure_with(&a, &[&b, &c], 5).unwrap();
        // b already had 5 beside a: only c joins a in the second call.
        assert_eq!(j.joint_calls(&[&a, &c]), BTreeMap::from([(2, 5)]));
        assert_eq!(j.joint_calls(&[&a, &b]), BTreeMap::from([(1, 5)]));
        assert_eq!(j.joint_count(&[&b, &c]), 0);
        // Two of b's samples of call 1 failed: a contributes as many as b from that call.
        for s in j.state.bank.get_mut("b").unwrap().iter_mut().take(2) {
            s.ok = false;
        }
        assert_eq!(j.joint_calls(&[&a, &b]), BTreeMap::from([(1, 3)]));
        let run = j.run_joint(&[&a, &b]);
        let ok = |v: &str| run.samples.iter().filter(|s| s.variant == v && s.ok).count();
        assert_eq!((ok("a"), ok("b")), (3, 3));
        // Samples of an unknown call (a state file older than call marks) pair with nothing.
        j.state.calls.clear();
        assert_eq!(j.joint_count(&[&a, &b]), 0);
        assert_eq!(j.state.calls_of("a"), vec![0; 10]);
    }
}
