//! Variants from the command line (`NAME=feat,feat`, empty for none; `NAME@PATH`
//! for a given runner binary) or by name from the config (`[variants]`,
//! `[runners]`), checked against the prover's declared cargo features.

use crate::config::Config;
use crate::error::HarnessError;
use crate::model::Variant;
use std::collections::BTreeSet;
use std::path::Path;

/// Features the prover package declares in `<root>/Cargo.toml` (`[features]`, minus `default`).
pub fn declared_features(root: &Path) -> Result<BTreeSet<String>, HarnessError> {
    let path = root.join("Cargo.toml");
    let text =
        std::fs::read_to_string(&path).map_err(|e| HarnessError::io(format!("cannot read {}", path.display()), e))?;
    let doc: toml::Table = toml::from_str(&text)
        .map_err(|e| HarnessError::Invalid(format!("{}: {}", path.display(), e.to_string().trim_end())))?;
    let feats = doc
        .get("features")
        .and_then(|f| f.as_table())
        .map(|t| t.keys().filter(|k| *k != "default").cloned().collect())
        .unwrap_or_default();
    Ok(feats)
}

/// Parses one `--variant` value: `NAME=feat,feat`, `NAME=` (no features),
/// `NAME@PATH` (a given runner binary: a prebuilt prover or an anchor), or a
/// bare `NAME` defined in the config (`baseline`, `all`, a flag id such as
/// `A1`, a `[runners]` entry such as `supraseal`).
pub fn parse(spec: &str, cfg: &Config) -> Result<Variant, HarnessError> {
    if let Some((n, path)) = spec.split_once('@').filter(|(n, _)| !n.contains('=')) {
        let name = checked_name(n.trim(), spec)?;
        if path.trim().is_empty() {
            return Err(HarnessError::Invalid(format!(
                "variant `{spec}`: NAME@PATH needs a runner path"
            )));
        }
        return Ok(Variant::new(name, Vec::<String>::new()).with_runner(path.trim()));
    }
    if let Some(r) = cfg.runners.get(spec.trim()) {
        let mut v = Variant::new(spec.trim(), r.features.clone());
        if let Some(p) = &r.path {
            v = v.with_runner(cfg.resolve(&p.display().to_string()));
        }
        if let Some(b) = r.backend {
            v = v.with_backend(b);
        }
        return Ok(v);
    }
    let (name, feats): (&str, Vec<String>) = match spec.split_once('=') {
        Some((n, f)) => (
            n.trim(),
            f.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
        ),
        None => {
            let n = spec.trim();
            if let Some(f) = cfg.variants.get(n) {
                (n, f.clone())
            } else if let Some(flag) = cfg.flags.iter().find(|f| f.id == n) {
                (n, vec![flag.feature.clone()])
            } else {
                let mut known: Vec<String> = cfg.variants.keys().cloned().collect();
                known.extend(cfg.runners.keys().cloned());
                known.extend(cfg.flags.iter().map(|f| f.id.clone()));
                return Err(HarnessError::Invalid(format!(
                    "unknown variant `{n}`: use NAME=feat,feat, NAME@RUNNER or one of: {}",
                    known.join(", ")
                )));
            }
        }
    };
    Ok(Variant::new(checked_name(name, spec)?, feats))
}

fn checked_name<'a>(name: &'a str, spec: &str) -> Result<&'a str, HarnessError> {
    if !crate::config::valid_name(name) {
        return Err(HarnessError::Invalid(format!(
            "variant `{spec}`: the name must be letters, digits, `-` or `_`"
        )));
    }
    Ok(name)
}

/// Parses every spec, refusing repeated names and features the prover does not
/// declare (its manifest is read only when a variant names features, so a
/// folder with a config and prebuilt runners needs no checkout).
pub fn parse_all(specs: &[String], cfg: &Config) -> Result<Vec<Variant>, HarnessError> {
    let mut declared = None;
    let mut out: Vec<Variant> = Vec::new();
    for s in specs {
        let v = parse(s, cfg)?;
        if declared.is_none() && !v.features.is_empty() {
            declared = Some(declared_features(&cfg.root)?);
        }
        if let Some(d) = &declared {
            check_features(&v, d)?;
        }
        if out.iter().any(|o| o.name == v.name) {
            return Err(HarnessError::Invalid(format!("variant `{}` is given twice", v.name)));
        }
        out.push(v);
    }
    if out.is_empty() {
        return Err(HarnessError::Invalid("no variants to run".into()));
    }
    Ok(out)
}

/// Fails naming the first feature of `v` that the prover does not declare.
pub fn check_features(v: &Variant, declared: &BTreeSet<String>) -> Result<(), HarnessError> {
    for f in &v.features {
        if !declared.contains(f) {
            let known: Vec<&str> = declared.iter().map(String::as_str).collect();
            return Err(HarnessError::Invalid(format!(
                "variant `{}`: unknown feature `{f}` (the prover declares: {})",
                v.name,
                known.join(", ")
            )));
        }
    }
    Ok(())
}
