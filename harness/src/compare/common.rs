//! What two sides of a comparison must share before anything is judged: at least one
//! (variant, case) family, the same cargo features under each shared variant name, and the
//! same kind of runner (the mock runner's records never meet a real prover's).
//!
//! A comparison that judges nothing is an error, never a pass: `compare`, `diff`,
//! `run --baseline` and `nightly` all refuse it through [`require_common`].

use crate::error::HarnessError;
use crate::model::Run;

/// The (variant, case) families one side measured, as `variant @ case` keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coverage {
    pub families: Vec<(String, String)>,
}

impl Coverage {
    /// Every pairing of `variants` with `cases` (a selection about to be measured).
    pub fn product(variants: &[String], cases: &[String]) -> Coverage {
        let families = variants
            .iter()
            .flat_map(|v| cases.iter().map(move |c| (v.clone(), c.clone())))
            .collect();
        Coverage { families }
    }

    /// The families `run` holds measured samples of (failed ones included), cases by `case_key`.
    pub fn of_run(run: &Run, case_key: impl Fn(&crate::model::Case) -> String) -> Coverage {
        let mut families: Vec<(String, String)> = Vec::new();
        for s in run.samples.iter().filter(|s| !s.warmup) {
            let f = (s.variant.clone(), case_key(&s.case));
            if !families.contains(&f) {
                families.push(f);
            }
        }
        Coverage { families }
    }

    fn describe(&self) -> String {
        if self.families.is_empty() {
            return "no measured samples".into();
        }
        let list: Vec<String> = self.families.iter().map(|(v, c)| format!("{v} @ {c}")).collect();
        list.join(", ")
    }
}

/// Refuses two sides that share no (variant, case) family: nothing could be judged.
/// `hint` says what to do instead; it ends the message.
pub fn require_common(
    reference: (&str, &Coverage),
    candidate: (&str, &Coverage),
    hint: &str,
) -> Result<(), HarnessError> {
    let shared = candidate.1.families.iter().any(|f| reference.1.families.contains(f));
    if shared {
        return Ok(());
    }
    Err(HarnessError::Incomparable(format!(
        "nothing in common, so nothing could be judged: {} holds [{}] and {} holds [{}] \
         (variant @ case); {hint}",
        reference.0,
        reference.1.describe(),
        candidate.0,
        candidate.1.describe()
    )))
}

/// Refuses variants of one name built with different cargo features (a different commit, with
/// the same features, is what a comparison is for), unless `allow` (`--allow-feature-mismatch`).
pub fn require_same_features(reference: &Run, candidate: &Run, allow: bool) -> Result<(), HarnessError> {
    let mut mismatches = Vec::new();
    for k in &candidate.variants {
        let Some(r) = reference.variants.iter().find(|r| r.variant.name == k.variant.name) else {
            continue;
        };
        if r.variant.features != k.variant.features {
            mismatches.push(format!(
                "`{}` is [{}] in {} but [{}] in {}",
                k.variant.name,
                r.variant.feature_list(),
                reference.id,
                k.variant.feature_list(),
                candidate.id
            ));
        }
    }
    if mismatches.is_empty() || allow {
        return Ok(());
    }
    Err(HarnessError::Incomparable(format!(
        "variants of one name built with different features: {}; their timings measure different code \
         (pass --allow-feature-mismatch to compare anyway)",
        mismatches.join("; ")
    )))
}

/// Refuses runs whose samples of one suite were made differently: a different
/// number of in-process warm-ups or of measured proofs a sample is the median
/// of (`inner_warmup`, `inner_reps` in the run's settings; runs from before
/// `inner_reps` made one). A cold single proof and a warm median of three
/// differ by more than any change under test.
pub fn require_same_sampling(reference: &Run, candidate: &Run) -> Result<(), HarnessError> {
    let suites: std::collections::BTreeSet<&str> = reference
        .cases
        .iter()
        .filter(|c| candidate.cases.iter().any(|k| k.suite == c.suite))
        .map(|c| c.suite.as_str())
        .collect();
    let get = |r: &Run, suite: &str, key: &str, default: &str| {
        r.provenance
            .settings
            .get(&crate::model::suite_setting(suite, key))
            .cloned()
            .unwrap_or_else(|| default.to_string())
    };
    let mut diffs = Vec::new();
    for s in suites {
        for (key, default) in [("inner_warmup", "0"), ("inner_reps", "1")] {
            let (a, b) = (get(reference, s, key, default), get(candidate, s, key, default));
            if a != b {
                diffs.push(format!(
                    "suite `{s}` {key} is {a} in {} but {b} in {}",
                    reference.id, candidate.id
                ));
            }
        }
    }
    if diffs.is_empty() {
        return Ok(());
    }
    Err(HarnessError::Incomparable(format!(
        "samples made differently: {}; measure both sides alike (or store the baseline again)",
        diffs.join("; ")
    )))
}

/// Refuses a comparison of the mock runner's samples with a real prover's.
pub fn require_same_runner_kind(reference: &Run, candidate: &Run) -> Result<(), HarnessError> {
    let (r, k) = (reference.has_mock_samples(), candidate.has_mock_samples());
    if r == k {
        return Ok(());
    }
    let (mock, real) = if r {
        (reference, candidate)
    } else {
        (candidate, reference)
    };
    Err(HarnessError::Incomparable(format!(
        "run {} was measured with the harness's mock runner and run {} with a real prover: \
         mock timings are never compared with real ones",
        mock.id, real.id
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cov(f: &[(&str, &str)]) -> Coverage {
        Coverage {
            families: f.iter().map(|(v, c)| (v.to_string(), c.to_string())).collect(),
        }
    }

    #[test]
    fn disjoint_sides_are_refused_naming_both() {
        let a = cov(&[("baseline", "synth/tiny")]);
        let b = cov(&[("A1", "synth/tiny"), ("baseline", "e2e/tiny")]);
        let e = require_common(("ref", &a), ("cand", &b), "pick another")
            .unwrap_err()
            .to_string();
        for needle in [
            "nothing in common",
            "baseline @ synth/tiny",
            "A1 @ synth/tiny",
            "pick another",
        ] {
            assert!(e.contains(needle), "{e}");
        }
        let c = cov(&[("baseline", "synth/tiny")]);
        assert!(require_common(("ref", &a), ("cand", &c), "").is_ok());
        assert!(require_common(("ref", &Coverage::default()), ("cand", &c), "").is_err());
    }

    #[test]
    fn product_pairs_every_variant_with_every_case() {
        let p = Coverage::product(&["a".into(), "b".into()], &["x".into()]);
        assert_eq!(p, cov(&[("a", "x"), ("b", "x")]));
    }
}
