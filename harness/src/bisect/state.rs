//! The resumable state of a bisect: its parameters, every sample measured so
//! far (per variant) and the progress log. Saved atomically after each
//! measurement, so an interrupted bisect resumes by replaying its decisions
//! from stored samples and measuring only what is still missing.
//!
//! Each start or resume is a *sitting*; every banked sample records the sitting
//! that measured it, and samples a drift check refused to pool are kept under
//! `set_aside` (never deleted). Files written before sittings existed load
//! with every sample in sitting 0.
//!
//! Every banked sample also records the measure *call* that took it (one
//! [`super::Measurer::measure`], its variants interleaved): comparisons use only
//! samples of calls that measured both sides (see [`super::judge`]). Call ids
//! start at 1; 0 marks a sample of a file written before call marks existed,
//! whose call is unknown (such a sample is never paired with another variant).

use crate::model::{BuiltVariant, Provenance, Sample, Testbed};
use crate::HarnessError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub const STATE_SCHEMA_VERSION: u32 = 1;

/// What a bisect asks. A resumed bisect must measure the same thing (good,
/// bad, suite, circuit); metric, repetitions, threshold and seed may change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params {
    pub good: Vec<String>,
    pub bad: Vec<String>,
    pub suite: String,
    pub circuit: String,
    pub metric: String,
    pub reps: usize,
    pub max_reps: usize,
    pub threshold: f64,
    pub seed: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BisectState {
    pub schema_version: u32,
    pub params: Params,
    #[serde(default)]
    pub testbed: Option<Testbed>,
    #[serde(default)]
    pub provenance: Option<Provenance>,
    /// Variant name -> how it was built.
    #[serde(default)]
    pub built: BTreeMap<String, BuiltVariant>,
    /// Variant name -> measured samples.
    #[serde(default)]
    pub bank: BTreeMap<String, Vec<Sample>>,
    /// The current sitting: 0 for the first, incremented by each resume.
    #[serde(default)]
    pub sitting: u32,
    /// Variant name -> the sitting of each sample in `bank` (same order and
    /// length). A variant missing here has every sample in sitting 0.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sittings: BTreeMap<String, Vec<u32>>,
    /// Variant name -> the measure call of each sample in `bank` (same order and
    /// length; 0 = unknown call). A variant missing here has every sample in call 0.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub calls: BTreeMap<String, Vec<u64>>,
    /// The last call id given out (ids are never reused, across sittings too).
    #[serde(default)]
    pub last_call: u64,
    /// Repetitions of variants that already had samples, measured again beside
    /// the variant they are compared with (part of `runs`).
    #[serde(default)]
    pub repeat_runs: usize,
    /// Samples of earlier sittings that a drift check kept out of the bank.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set_aside: Vec<SetAside>,
    /// Repetitions run (successful or not).
    #[serde(default)]
    pub runs: usize,
    #[serde(default)]
    pub log: Vec<String>,
    /// The final answer, once reached.
    #[serde(default)]
    pub answer: Option<String>,
}

/// Samples taken out of the bank on resume, with why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetAside {
    /// The sitting that set them aside.
    pub sitting: u32,
    pub reason: String,
    /// Variant name -> the samples, as they were banked.
    pub bank: BTreeMap<String, Vec<Sample>>,
    /// Variant name -> the sitting of each of those samples.
    pub sittings: BTreeMap<String, Vec<u32>>,
    /// Variant name -> the measure call of each of those samples.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub calls: BTreeMap<String, Vec<u64>>,
}

impl SetAside {
    /// Successful measured samples set aside.
    pub fn ok_total(&self) -> usize {
        self.bank.values().flatten().filter(|s| s.ok && !s.warmup).count()
    }
}

impl BisectState {
    pub fn new(params: Params) -> Self {
        BisectState {
            schema_version: STATE_SCHEMA_VERSION,
            params,
            testbed: None,
            provenance: None,
            built: BTreeMap::new(),
            bank: BTreeMap::new(),
            sitting: 0,
            sittings: BTreeMap::new(),
            calls: BTreeMap::new(),
            last_call: 0,
            repeat_runs: 0,
            set_aside: Vec::new(),
            runs: 0,
            log: Vec::new(),
            answer: None,
        }
    }

    /// Successful measured samples of a variant.
    pub fn ok_count(&self, key: &str) -> usize {
        self.bank
            .get(key)
            .map_or(0, |v| v.iter().filter(|s| s.ok && !s.warmup).count())
    }

    /// Sittings of the samples of `key`, one per banked sample (0 where unrecorded).
    pub fn sittings_of(&self, key: &str) -> Vec<u32> {
        aligned(self.sittings.get(key), self.bank.get(key).map_or(0, Vec::len))
    }

    /// Measure calls of the samples of `key`, one per banked sample (0 where unrecorded).
    pub fn calls_of(&self, key: &str) -> Vec<u64> {
        aligned(self.calls.get(key), self.bank.get(key).map_or(0, Vec::len))
    }

    /// A new measure call id.
    pub fn new_call(&mut self) -> u64 {
        self.last_call += 1;
        self.last_call
    }

    /// Banks samples measured in the current sitting by measure call `call`.
    pub fn bank_samples(&mut self, key: &str, samples: Vec<Sample>, call: u64) {
        let mut marks = self.sittings_of(key);
        marks.extend(std::iter::repeat_n(self.sitting, samples.len()));
        let mut calls = self.calls_of(key);
        calls.extend(std::iter::repeat_n(call, samples.len()));
        self.bank.entry(key.to_string()).or_default().extend(samples);
        self.sittings.insert(key.to_string(), marks);
        self.calls.insert(key.to_string(), calls);
    }

    /// Successful measured samples in the bank: (from earlier sittings, from the current one).
    pub fn ok_by_sitting(&self) -> (usize, usize) {
        let (mut old, mut now) = (0, 0);
        for (key, samples) in &self.bank {
            for (s, sit) in samples.iter().zip(self.sittings_of(key)) {
                if s.ok && !s.warmup {
                    if sit < self.sitting {
                        old += 1;
                    } else {
                        now += 1;
                    }
                }
            }
        }
        (old, now)
    }

    /// Moves every banked sample to `set_aside` (builds stay).
    pub fn set_aside_all(&mut self, reason: String) {
        let sittings = self.bank.keys().map(|k| (k.clone(), self.sittings_of(k))).collect();
        let calls = self.bank.keys().map(|k| (k.clone(), self.calls_of(k))).collect();
        let bank = std::mem::take(&mut self.bank);
        self.sittings.clear();
        self.calls.clear();
        self.set_aside.push(SetAside {
            sitting: self.sitting,
            reason,
            bank,
            sittings,
            calls,
        });
    }

    /// Loads a state file, checking its schema and that its samples answer `params`.
    pub fn load(path: &Path, params: &Params) -> Result<Self, HarnessError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| HarnessError::io(format!("reading bisect state {}", path.display()), e))?;
        let st: BisectState = serde_json::from_str(&text).map_err(|e| {
            HarnessError::Data(format!(
                "bisect state {} is not a valid state file: {e}",
                path.display()
            ))
        })?;
        if st.schema_version != STATE_SCHEMA_VERSION {
            return Err(HarnessError::Data(format!(
                "bisect state {} has schema {} (this phaseline reads {STATE_SCHEMA_VERSION})",
                path.display(),
                st.schema_version
            )));
        }
        let p = &st.params;
        let same_samples =
            (&p.good, &p.bad, &p.suite, &p.circuit) == (&params.good, &params.bad, &params.suite, &params.circuit);
        if !same_samples {
            return Err(HarnessError::Invalid(format!(
                "bisect state {} was made for other parameters (good [{}], bad [{}], suite {}, circuit {}); \
                 rerun with those, or use another --state",
                path.display(),
                p.good.join(","),
                p.bad.join(","),
                p.suite,
                p.circuit
            )));
        }
        for (key, marks) in &st.sittings {
            let n = st.bank.get(key).map_or(0, Vec::len);
            if marks.len() != n {
                return Err(HarnessError::Data(format!(
                    "bisect state {} is not a valid state file: {} sitting mark(s) for {n} sample(s) of `{key}`",
                    path.display(),
                    marks.len()
                )));
            }
        }
        for (key, marks) in &st.calls {
            let n = st.bank.get(key).map_or(0, Vec::len);
            if marks.len() != n {
                return Err(HarnessError::Data(format!(
                    "bisect state {} is not a valid state file: {} call mark(s) for {n} sample(s) of `{key}`",
                    path.display(),
                    marks.len()
                )));
            }
        }
        // The samples stay valid under another metric, repetition cap, threshold or seed:
        // the decisions are replayed from them with the new settings.
        let mut st = st;
        // Never hand out a call id that a stored sample already carries.
        let top = st
            .calls
            .values()
            .chain(st.set_aside.iter().flat_map(|a| a.calls.values()))
            .flatten()
            .copied()
            .max()
            .unwrap_or(0);
        st.last_call = st.last_call.max(top);
        st.params = params.clone();
        Ok(st)
    }

    /// Writes the state atomically (temp file in the same directory, then rename).
    pub fn save(&self, path: &Path) -> Result<(), HarnessError> {
        let json = serde_json::to_vec_pretty(self)
            .map_err(|e| HarnessError::Data(format!("serializing bisect state: {e}")))?;
        crate::fsutil::write_atomic(path, &json)
    }
}

/// Per-sample marks (sitting, call) aligned with `n` banked samples: samples
/// banked before marks were kept (older state files) are marked 0, at the front.
fn aligned<T: Copy + Default>(marks: Option<&Vec<T>>, n: usize) -> Vec<T> {
    match marks {
        Some(v) if v.len() == n => v.clone(),
        Some(v) => {
            let mut out = vec![T::default(); n.saturating_sub(v.len())];
            out.extend(v.iter().take(n));
            out
        }
        None => vec![T::default(); n],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testkit::bisect_mock::mock_params as params;

    fn sample() -> Sample {
        serde_json::from_value(serde_json::json!({
            "variant": "good",
            "case": {"suite": "e2e", "circuit": "mock", "partitions": 1, "backend": "cpu"},
            "rep": 0, "order": 0, "ok": true, "wall_ms": 1.0
        }))
        .unwrap()
    }

    #[test]
    fn call_marks_survive_a_round_trip_and_old_files_load_without_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let mut st = BisectState::new(params());
        let c1 = st.new_call();
        st.bank_samples("good", vec![sample(); 2], c1);
        let c2 = st.new_call();
        st.bank_samples("good", vec![sample()], c2);
        assert_eq!(st.calls_of("good"), vec![1, 1, 2]);
        st.save(&path).unwrap();
        let back = BisectState::load(&path, &params()).unwrap();
        assert_eq!(back, st);
        // A file written before call marks: every sample in the unknown call 0,
        // and new ids still start above any stored one.
        let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let obj = v.as_object_mut().unwrap();
        assert!(obj.remove("calls").is_some() && obj.remove("last_call").is_some());
        obj.remove("repeat_runs");
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        let mut old = BisectState::load(&path, &params()).unwrap();
        assert_eq!((old.calls_of("good"), old.last_call), (vec![0, 0, 0], 0));
        let c = old.new_call();
        old.bank_samples("good", vec![sample()], c);
        assert_eq!(old.calls_of("good"), vec![0, 0, 0, 1]);
        // Set aside with their marks; a stored mark is never handed out again.
        old.set_aside_all("test".into());
        assert_eq!(old.set_aside[0].calls["good"], vec![0, 0, 0, 1]);
        old.last_call = 0;
        old.save(&path).unwrap();
        let mut again = BisectState::load(&path, &params()).unwrap();
        assert_eq!(again.new_call(), 2);
        // Marks that do not match the samples: a broken file.
        let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        v["calls"] = serde_json::json!({"good": [1]});
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        let e = BisectState::load(&path, &params()).unwrap_err().to_string();
        assert!(e.contains("call mark(s)"), "{e}");
    }
}
