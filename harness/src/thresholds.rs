//! Noise thresholds: how large a change must be before it counts (the config's `[thresholds]`).
//!
//! ```toml
//! [thresholds]
//! default = 0.03      # 3% for any phase not listed below
//! floor_ms = 0.5      # changes smaller than this many milliseconds never count
//! [thresholds.phases]
//! synthesize = 0.05
//! ```
//!
//! The threshold applied to a phase is `max(phases[name] or default, floor_ms / reference median)`:
//! the absolute floor keeps the jitter of a sub-millisecond phase from reading as a 20% change.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::error::HarnessError;

pub const DEFAULT_THRESHOLD: f64 = 0.03;
pub const DEFAULT_FLOOR_MS: f64 = 0.5;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// Relative threshold of phases without their own entry (0.03 = 3%).
    #[serde(default = "default_threshold")]
    pub default: f64,
    /// Absolute floor in milliseconds.
    #[serde(default = "default_floor_ms")]
    pub floor_ms: f64,
    /// Per-phase relative thresholds.
    #[serde(default)]
    pub phases: BTreeMap<String, f64>,
    /// Floors of suites that set their own (suite name -> milliseconds).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub suite_floor_ms: BTreeMap<String, f64>,
    /// Relative thresholds of suites that set their own (suite name -> phase
    /// or `default` -> fraction), over the ones above.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub suite_phases: BTreeMap<String, BTreeMap<String, f64>>,
    /// Relative thresholds of suites for one GPU model (suite name -> GPU
    /// model as the testbed names it -> phase or `default` -> fraction), over
    /// the suite's own on runs measured with that GPU ([`Thresholds::for_gpu`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub suite_gpu_phases: BTreeMap<String, BTreeMap<String, BTreeMap<String, f64>>>,
}

fn default_threshold() -> f64 {
    DEFAULT_THRESHOLD
}

fn default_floor_ms() -> f64 {
    DEFAULT_FLOOR_MS
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            default: DEFAULT_THRESHOLD,
            floor_ms: DEFAULT_FLOOR_MS,
            phases: BTreeMap::new(),
            suite_floor_ms: BTreeMap::new(),
            suite_phases: BTreeMap::new(),
            suite_gpu_phases: BTreeMap::new(),
        }
    }
}

impl Thresholds {
    /// Relative threshold configured for `phase` (without the floor).
    pub fn relative(&self, phase: &str) -> f64 {
        self.phases.get(phase).copied().unwrap_or(self.default)
    }

    /// Threshold applied to `phase` whose reference median is `ref_median_ms`.
    pub fn effective(&self, phase: &str, ref_median_ms: f64) -> f64 {
        let rel = self.relative(phase);
        if ref_median_ms > 0.0 && self.floor_ms > 0.0 {
            rel.max(self.floor_ms / ref_median_ms)
        } else {
            rel
        }
    }

    /// These thresholds with `suite`'s own floor and relative thresholds,
    /// when it has either; `None` when it has neither.
    pub fn for_suite(&self, suite: &str) -> Option<Thresholds> {
        let floor = self.suite_floor_ms.get(suite);
        let own = self.suite_phases.get(suite);
        if floor.is_none() && own.is_none() {
            return None;
        }
        let mut t = Thresholds {
            suite_floor_ms: BTreeMap::new(),
            suite_phases: BTreeMap::new(),
            suite_gpu_phases: BTreeMap::new(),
            ..self.clone()
        };
        if let Some(f) = floor {
            t.floor_ms = *f;
        }
        for (k, v) in own.into_iter().flatten() {
            if k == "default" {
                t.default = *v;
            } else {
                t.phases.insert(k.clone(), *v);
            }
        }
        Some(t)
    }

    /// These thresholds as a run measured with GPU `gpu_model` sees them: each
    /// suite's table for that model (matched without regard to case) laid over
    /// the suite's own, entry by entry. Unchanged for a run without a GPU or a
    /// model no suite names.
    pub fn for_gpu(&self, gpu_model: Option<&str>) -> Thresholds {
        let mut t = self.clone();
        let Some(model) = gpu_model else {
            return t;
        };
        for (suite, by_model) in &self.suite_gpu_phases {
            let Some((_, table)) = by_model.iter().find(|(m, _)| m.eq_ignore_ascii_case(model)) else {
                continue;
            };
            let own = t.suite_phases.entry(suite.clone()).or_default();
            for (k, v) in table {
                own.insert(k.clone(), *v);
            }
        }
        t
    }

    /// Checks every value is finite and non-negative; names the bad key.
    pub fn validate(&self) -> Result<(), HarnessError> {
        let bad =
            |key: &str, v: f64| HarnessError::Config(format!("thresholds.{key} = {v}: must be a finite number >= 0"));
        for (key, v) in [("default", self.default), ("floor_ms", self.floor_ms)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(bad(key, v));
            }
        }
        for (name, &v) in &self.phases {
            if !(v.is_finite() && v >= 0.0) {
                return Err(bad(&format!("phases.{}", toml_key(name)), v));
            }
        }
        Ok(())
    }

    /// The `[thresholds]` table as TOML text, ready to paste into the config.
    pub fn to_toml(&self) -> String {
        let mut s = String::from("[thresholds]\n");
        let _ = writeln!(s, "default = {}", fmt_num(self.default));
        let _ = writeln!(s, "floor_ms = {}", fmt_num(self.floor_ms));
        if !self.phases.is_empty() {
            s.push_str("\n[thresholds.phases]\n");
            for (k, v) in &self.phases {
                let _ = writeln!(s, "{} = {}", toml_key(k), fmt_num(*v));
            }
        }
        s
    }
}

impl Thresholds {
    /// The relative thresholds as suite `suite`'s own table
    /// (`[suites.SUITE.thresholds]`, its `default` and phases; floors stay
    /// the suite's `floor_ms`).
    pub fn to_suite_toml(&self, suite: &str) -> String {
        self.table_toml(format!("[suites.{}.thresholds]\n", toml_key(suite)))
    }

    /// The relative thresholds as suite `suite`'s table for GPU model `gpu_model`
    /// (`[suites.SUITE.gpu_thresholds."MODEL"]`).
    pub fn to_suite_gpu_toml(&self, suite: &str, gpu_model: &str) -> String {
        self.table_toml(format!(
            "[suites.{}.gpu_thresholds.{}]\n",
            toml_key(suite),
            toml_key(gpu_model)
        ))
    }

    fn table_toml(&self, header: String) -> String {
        let mut s = header;
        let _ = writeln!(s, "default = {}", fmt_num(self.default));
        for (k, v) in &self.phases {
            let _ = writeln!(s, "{} = {}", toml_key(k), fmt_num(*v));
        }
        s
    }
}

/// A TOML number: four significant decimals, always with a decimal point.
fn fmt_num(v: f64) -> String {
    let s = format!("{v:.4}");
    let t = s.trim_end_matches('0');
    if t.ends_with('.') {
        format!("{t}0")
    } else {
        t.to_string()
    }
}

/// A bare TOML key when possible, otherwise a quoted one.
fn toml_key(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        k.to_string()
    } else {
        let mut q = String::from("\"");
        for c in k.chars() {
            match c {
                '"' => q.push_str("\\\""),
                '\\' => q.push_str("\\\\"),
                c if c.is_control() => {
                    let _ = write!(q, "\\u{:04X}", c as u32);
                }
                c => q.push(c),
            }
        }
        q.push('"');
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effective_threshold_uses_phase_entry_and_floor() {
        let mut t = Thresholds::default();
        t.phases.insert("ntt".into(), 0.05);
        assert_eq!(t.effective("ntt", 1000.0), 0.05);
        assert_eq!(t.effective("msm", 1000.0), 0.03);
        // 0.5 ms floor on a 2 ms phase: 25%.
        assert_eq!(t.effective("msm", 2.0), 0.25);
        assert_eq!(t.effective("msm", 0.0), 0.03);
    }

    #[test]
    fn a_suite_floor_replaces_the_global_floor_in_that_suite_only() {
        let mut t = Thresholds::default();
        t.suite_floor_ms.insert("gpu-e2e".into(), 0.05);
        let g = t.for_suite("gpu-e2e").unwrap();
        assert_eq!(g.effective("msm_l", 5.0), 0.03);
        assert_eq!(t.effective("msm_l", 5.0), 0.1);
        assert!(t.for_suite("e2e").is_none());
    }

    #[test]
    fn a_suites_own_thresholds_replace_the_global_ones_in_that_suite_only() {
        let mut t = Thresholds::default();
        t.phases.insert("synthesis".into(), 0.04);
        t.phases.insert("verify".into(), 0.10);
        let own = [("synthesis", 0.2), ("default", 0.05)].map(|(k, v)| (k.to_string(), v));
        t.suite_phases.insert("gpu-e2e".into(), own.into_iter().collect());
        let g = t.for_suite("gpu-e2e").unwrap();
        assert_eq!(g.relative("synthesis"), 0.2);
        assert_eq!(g.relative("msm_l"), 0.05, "the suite's default");
        assert_eq!(
            g.relative("verify"),
            0.10,
            "a global phase entry the suite does not name"
        );
        assert_eq!(g.floor_ms, t.floor_ms);
        assert_eq!(t.relative("synthesis"), 0.04);
        assert!(t.for_suite("synth").is_none());
    }

    #[test]
    fn toml_rendering_and_json_round_trip() {
        let mut t = Thresholds::default();
        t.phases.insert("a_phase".into(), 0.0412345);
        t.phases.insert("b.c d".into(), 0.1);
        let s = t.to_toml();
        assert!(s.starts_with("[thresholds]\ndefault = 0.03\nfloor_ms = 0.5\n"), "{s}");
        assert!(s.contains("a_phase = 0.0412\n"), "{s}");
        assert!(s.contains("\"b.c d\" = 0.1\n"), "{s}");
        let back: Thresholds = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
        assert!(serde_json::from_str::<Thresholds>(r#"{"defualt": 0.1}"#).is_err());
    }

    #[test]
    fn toml_text_parses_back_into_a_config_table() {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Config {
            thresholds: Thresholds,
        }
        let mut t = Thresholds {
            default: 0.045,
            floor_ms: 0.25,
            phases: BTreeMap::new(),
            ..Thresholds::default()
        };
        t.phases.insert("msm_g1".into(), 0.0312);
        t.phases.insert("odd \"name\"\\x".into(), 0.2);
        let back: Config = toml::from_str(&t.to_toml()).unwrap();
        assert_eq!(back.thresholds, t);
        let none = Thresholds::default();
        assert_eq!(toml::from_str::<Config>(&none.to_toml()).unwrap().thresholds, none);
    }

    #[test]
    fn validation_names_the_key() {
        let mut t = Thresholds::default();
        t.phases.insert("ntt".into(), -1.0);
        let e = t.validate().unwrap_err().to_string();
        assert!(e.contains("thresholds.phases.ntt"), "{e}");
        t.phases.clear();
        t.default = f64::NAN;
        assert!(t.validate().unwrap_err().to_string().contains("thresholds.default"));
    }
}
