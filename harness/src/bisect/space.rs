//! The search space of a flag bisect: the flags that differ between the good
//! and the bad feature set, and the variant for each subset of them.

use crate::model::Variant;
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
        })
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
        Variant::new(name, feats)
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
