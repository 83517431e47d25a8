//! What a bisect measures: one suite of the config on one circuit.

use crate::config::{Config, Suite};
use crate::HarnessError;

/// A suite narrowed to the one circuit a bisect measures.
#[derive(Clone, Debug)]
pub struct Target {
    pub suite_name: String,
    /// The suite, its circuits reduced to [`Target::circuit`].
    pub suite: Suite,
    pub circuit: String,
}

impl Target {
    /// Suite `suite` of `cfg` on `circuit` (default: the suite's first circuit).
    pub fn resolve(cfg: &Config, suite: &str, circuit: Option<&str>) -> Result<Target, HarnessError> {
        let mut s = cfg.suites.get(suite).cloned().ok_or_else(|| {
            let known: Vec<&str> = cfg.suites.keys().map(String::as_str).collect();
            HarnessError::Invalid(format!("unknown suite `{suite}` (known: {})", known.join(", ")))
        })?;
        let circuit = match circuit {
            Some(c) => c.to_string(),
            None => s
                .circuits
                .first()
                .cloned()
                .ok_or_else(|| HarnessError::Config(format!("suite `{suite}` names no circuit")))?,
        };
        s.circuits = vec![circuit.clone()];
        Ok(Target {
            suite_name: suite.to_string(),
            suite: s,
            circuit,
        })
    }
}
