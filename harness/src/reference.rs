//! A nightly's reference, measured in the same sitting: for each variant of
//! tonight's that a stored baseline also holds, the runner the baseline was
//! measured with (its fingerprint), found in the fingerprint-keyed runner
//! cache or, where cargo is available, rebuilt from the baseline's commit.
//! Measured interleaved with tonight's runner, it makes drift between nights
//! (another host, another hour, a busier machine) cancel, as Pinpoint measures
//! both ends in one job. Where no reference runner can be had, the baseline's
//! stored samples are the reference, and every output says so.

use crate::builder::{self, BuildSettings};
use crate::model::{Baseline, Variant};
use crate::runner::Prebuilt;
use serde::Serialize;
use std::path::PathBuf;

/// Suffix of the name under which a variant's reference runner is measured.
pub const REF_SUFFIX: &str = "@ref";

/// The name of `variant`'s reference in tonight's run (`gpu` -> `gpu@ref`).
pub fn ref_name(variant: &str) -> String {
    format!("{variant}{REF_SUFFIX}")
}

/// Whether a run's variant name is a reference runner's.
pub fn is_ref(name: &str) -> bool {
    name.ends_with(REF_SUFFIX)
}

/// What one variant of tonight is judged against.
#[derive(Clone, Debug, Serialize)]
pub struct RefChoice {
    /// Tonight's variant.
    pub variant: String,
    /// `runner` (the baseline's runner, measured tonight) or `stored` (the baseline's samples).
    pub kind: &'static str,
    /// The baseline runner's fingerprint.
    pub fingerprint: String,
    /// The baseline's commit.
    pub commit: String,
    /// The reference runner's binary (kind `runner`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<String>,
    /// How the runner was had (`cached`, `built from COMMIT`), or why none could be.
    pub how: String,
    /// The reference's variant (the baseline's features) under [`ref_name`].
    #[serde(skip)]
    pub ref_variant: Option<Variant>,
}

impl RefChoice {
    pub fn measured(&self) -> bool {
        self.kind == "runner"
    }

    /// One line for the terminal and `compare.md`.
    pub fn describe(&self) -> String {
        match self.kind {
            "runner" => format!(
                "`{}` against the baseline's runner {} (commit {}, {}), measured tonight, interleaved",
                self.variant,
                short(&self.fingerprint),
                short(&self.commit),
                self.how
            ),
            _ => format!(
                "`{}` against the baseline's stored samples (commit {}): {}",
                self.variant,
                short(&self.commit),
                self.how
            ),
        }
    }

    /// The prebuilt-runner entry for the measurement.
    pub fn prebuilt(&self) -> Option<(String, Prebuilt)> {
        let v = self.ref_variant.as_ref()?;
        Some((
            v.name.clone(),
            Prebuilt {
                binary: PathBuf::from(self.binary.as_ref()?),
                fingerprint: self.fingerprint.clone(),
                origin: format!("reference runner of `{}` ({})", self.variant, self.how),
            },
        ))
    }
}

fn short(s: &str) -> &str {
    &s[..s.len().min(12)]
}

/// The reference of each of `tonight`'s variants that `b` holds. With
/// `measure_refs` false (or nothing found) the stored samples are the
/// reference. `say` reports progress (a rebuild takes minutes).
pub fn choose(
    build: &BuildSettings,
    b: &Baseline,
    tonight: &[Variant],
    measure_refs: bool,
    say: &mut dyn FnMut(String),
) -> Vec<RefChoice> {
    let commit = b.run.provenance.git_commit.clone();
    let mut out = Vec::new();
    for v in tonight {
        let Some(bv) = b.run.variants.iter().find(|bv| bv.variant.name == v.name) else {
            continue;
        };
        let ref_variant = Variant::new(ref_name(&v.name), bv.variant.features.iter().cloned());
        let mut choice = RefChoice {
            variant: v.name.clone(),
            kind: "stored",
            fingerprint: bv.fingerprint.clone(),
            commit: commit.clone(),
            binary: None,
            how: String::new(),
            ref_variant: Some(ref_variant.clone()),
        };
        if !measure_refs {
            choice.how = "same-sitting reference turned off (--stored-reference)".into();
            out.push(choice);
            continue;
        }
        match find_runner(build, b, &ref_variant, &bv.fingerprint, say) {
            Ok((bin, how)) => {
                choice.kind = "runner";
                choice.binary = Some(bin.display().to_string());
                choice.how = how;
            }
            Err(why) => choice.how = format!("no reference runner ({why})"),
        }
        out.push(choice);
    }
    out
}

/// The baseline runner of fingerprint `fp`: the override when it is that
/// runner, else the cache, else a build from the baseline's commit.
fn find_runner(
    build: &BuildSettings,
    b: &Baseline,
    v: &Variant,
    fp: &str,
    say: &mut dyn FnMut(String),
) -> Result<(PathBuf, String), String> {
    if let Some(bin) = &build.runner_override {
        return match builder::verify(bin, v, Some(fp)) {
            Ok(_) => Ok((bin.clone(), "the runner override, same fingerprint".into())),
            Err(_) => Err(format!(
                "the runner override is not the baseline's runner {fp}, and an override run builds nothing"
            )),
        };
    }
    let cached = build.cached_runner(fp);
    if cached.is_file() {
        return match builder::verify(&cached, v, Some(fp)) {
            Ok(_) => Ok((cached, "cached".into())),
            Err(e) => Err(format!("cached runner unusable: {e}")),
        };
    }
    let commit = &b.run.provenance.git_commit;
    if b.run.provenance.git_dirty {
        return Err(format!(
            "not in the runner cache, and the baseline was measured on a dirty checkout of {commit}, \
             which cannot be rebuilt"
        ));
    }
    if !(commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit())) {
        return Err(format!(
            "not in the runner cache, and the baseline's commit `{commit}` is unknown"
        ));
    }
    say(format!(
        "reference `{}`: runner {fp} not cached; building it from commit {commit}",
        v.name
    ));
    build_at_commit(build, commit, v, fp).map(|bin| (bin, format!("built from {commit}")))
}

/// Builds `v` from `commit` in a worktree of its own (never sharing a target
/// directory with another checkout) and installs it in the runner cache.
fn build_at_commit(build: &BuildSettings, commit: &str, v: &Variant, fp: &str) -> Result<PathBuf, String> {
    let base = build.target_dir.join("phaseline-ref");
    let src = base.join("src");
    let repo = crate::git::Git::at(&build.root);
    let git = |args: &[&str]| repo.run(args).map(drop);
    if src.exists() {
        let _ = git(&["worktree", "remove", "--force", &src.display().to_string()]);
        let _ = std::fs::remove_dir_all(&src);
        let _ = git(&["worktree", "prune"]);
    }
    std::fs::create_dir_all(&base).map_err(|e| format!("cannot create {}: {e}", base.display()))?;
    git(&[
        "worktree",
        "add",
        "--detach",
        "--quiet",
        &src.display().to_string(),
        commit,
    ])?;
    let settings = BuildSettings {
        root: src.clone(),
        target_dir: base.join("target"),
        runner_override: None,
        ..build.clone()
    };
    let result = builder::prepare(&settings, v, &mut |m| eprintln!("{m}"))
        .map_err(|e| e.to_string())
        .and_then(|bv| {
            if bv.fingerprint == fp {
                Ok(PathBuf::from(bv.binary))
            } else {
                Err(format!(
                    "commit {commit} builds `{}` as {} here, not the baseline's {fp} \
                     (another profile, CUDA architectures or toolchain setting)",
                    v.name, bv.fingerprint
                ))
            }
        });
    let _ = git(&["worktree", "remove", "--force", &src.display().to_string()]);
    result
}
