//! The resumable state of a bisect: its parameters, every sample measured so
//! far (per variant) and the progress log. Saved atomically after each
//! measurement, so an interrupted bisect resumes by replaying its decisions
//! from stored samples and measuring only what is still missing.

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
    /// Repetitions run (successful or not).
    #[serde(default)]
    pub runs: usize,
    #[serde(default)]
    pub log: Vec<String>,
    /// The final answer, once reached.
    #[serde(default)]
    pub answer: Option<String>,
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

    /// Loads a state file, checking its schema and that its samples answer `params`.
    pub fn load(path: &Path, params: &Params) -> Result<Self, HarnessError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| HarnessError::io(format!("reading bisect state {}", path.display()), e))?;
        let st: BisectState = serde_json::from_str(&text).map_err(|e| {
            HarnessError::Invalid(format!(
                "bisect state {} is not a valid state file: {e}",
                path.display()
            ))
        })?;
        if st.schema_version != STATE_SCHEMA_VERSION {
            return Err(HarnessError::Invalid(format!(
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
        // The samples stay valid under another metric, repetition cap, threshold or seed:
        // the decisions are replayed from them with the new settings.
        let mut st = st;
        st.params = params.clone();
        Ok(st)
    }

    /// Writes the state atomically (temp file in the same directory, then rename).
    pub fn save(&self, path: &Path) -> Result<(), HarnessError> {
        let json = serde_json::to_vec_pretty(self)
            .map_err(|e| HarnessError::Invalid(format!("serializing bisect state: {e}")))?;
        crate::fsutil::write_atomic(path, &json)
    }
}
