//! The search space of a flag bisect: the flags that differ between the good
//! and the bad feature set, and the variant for each subset of them.

use crate::model::Variant;
use crate::prebuilt::RunnerFolder;
use crate::HarnessError;
use std::collections::{BTreeMap, BTreeSet};

/// A subset of the differing flags, toggled from the good end.
pub type Toggle = BTreeSet<String>;

#[derive(Clone, Debug)]
pub struct Space {
    pub good: Vec<String>,
    pub bad: Vec<String>,
    /// Flags in exactly one of good and bad, sorted.
    pub flags: Vec<String>,
    /// Feature -> short id from the config (`pin` -> `B1`), for answers.
    pub labels: BTreeMap<String, String>,
    /// Prebuilt runners to take the variants from instead of building them
    /// (checked to hold every feature set of the space: [`Space::with_runners`]).
    pub runners: Option<RunnerFolder>,
}

/// Parses `a,b , c` into sorted, deduplicated feature names (empty string: none).
pub fn parse_features(s: &str) -> Result<Vec<String>, HarnessError> {
    let mut out = Vec::new();
    for f in s.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        let ok = f.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok {
            return Err(HarnessError::Invalid(format!(
                "`{f}` is not a cargo feature name (letters, digits, `-`, `_`)"
            )));
        }
        out.push(f.to_string());
    }
    out.sort();
    out.dedup();
    Ok(out)
}

impl Space {
    pub fn new(good: Vec<String>, bad: Vec<String>) -> Result<Self, HarnessError> {
        let g: BTreeSet<&String> = good.iter().collect();
        let b: BTreeSet<&String> = bad.iter().collect();
        let flags: Vec<String> = g.symmetric_difference(&b).map(|s| (*s).clone()).collect();
        if flags.is_empty() {
            return Err(HarnessError::Invalid(
                "--good and --bad name the same feature set: there is nothing to bisect".into(),
            ));
        }
        Ok(Space {
            good,
            bad,
            flags,
            labels: BTreeMap::new(),
            runners: None,
        })
    }

    /// Takes every variant's runner from `folder`, which must hold a runner of
    /// each of the 2^k feature sets between good and bad.
    pub fn with_runners(mut self, folder: RunnerFolder) -> Result<Self, HarnessError> {
        let k = self.flags.len();
        if k > 16 {
            return Err(HarnessError::Invalid(format!(
                "{k} differing flags: a runner folder cannot hold 2^{k} runners"
            )));
        }
        let mut missing = Vec::new();
        for mask in 0u32..(1 << k) {
            let t: Toggle = (0..k)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| self.flags[i].clone())
                .collect();
            let v = self.variant(&t);
            if folder.get(&v.features).is_none() {
                missing.push(format!("[{}]", v.feature_list()));
            }
        }
        if !missing.is_empty() {
            return Err(HarnessError::Invalid(format!(
                "runner folder {} lacks {} of the {} feature sets to bisect: {}",
                folder.dir.display(),
                missing.len(),
                1u32 << k,
                missing.join(" ")
            )));
        }
        self.runners = Some(folder);
        Ok(self)
    }

    pub fn all(&self) -> Toggle {
        self.flags.iter().cloned().collect()
    }

    /// `B1 pin` when the config names the flag, else `pin`.
    pub fn label(&self, flag: &str) -> String {
        match self.labels.get(flag) {
            Some(id) => format!("{id} {flag}"),
            None => flag.to_string(),
        }
    }

    pub fn label_set(&self, t: &Toggle) -> String {
        t.iter().map(|f| self.label(f)).collect::<Vec<_>>().join(" + ")
    }

    /// The variant with `t` toggled from good, named by its nearer end
    /// (`good`, `bad`, `good+pin`, `bad-smallvec`).
    pub fn variant(&self, t: &Toggle) -> Variant {
        let mut feats: BTreeSet<String> = self.good.iter().cloned().collect();
        for f in t {
            if !feats.remove(f) {
                feats.insert(f.clone());
            }
        }
        let k = self.flags.len();
        let name = if t.is_empty() {
            "good".to_string()
        } else if t.len() == k {
            "bad".to_string()
        } else if t.len() * 2 <= k {
            format!("good+{}", t.iter().cloned().collect::<Vec<_>>().join("+"))
        } else {
            let off: Vec<String> = self.flags.iter().filter(|f| !t.contains(*f)).cloned().collect();
            format!("bad-{}", off.join("-"))
        };
        let v = Variant::new(name, feats);
        match self.runners.as_ref().and_then(|r| r.get(&v.features)) {
            Some(p) => v.clone().with_runner(p),
            None => v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toggles_map_to_feature_sets_and_names() {
        let s = Space::new(vec!["presize".into()], parse_features("presize,pin,smallvec").unwrap()).unwrap();
        assert_eq!(s.flags, vec!["pin", "smallvec"]);
        let v = s.variant(&["pin".to_string()].into_iter().collect());
        assert_eq!(v.features, vec!["pin", "presize"]);
        assert_eq!(v.name, "good+pin");
        assert_eq!(s.variant(&s.all()).features, vec!["pin", "presize", "smallvec"]);
        assert_eq!(s.variant(&Toggle::new()).name, "good");
        assert!(Space::new(vec![], vec![]).is_err());
        assert!(parse_features("a b").is_err());
        assert_eq!(parse_features(" b, a,,a").unwrap(), vec!["a", "b"]);
    }
}
