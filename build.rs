//! Build script of `phaseline-prover`: embeds the build fingerprint (a hash over
//! every source, the enabled features and the profile) so a stale binary can
//! never run unnoticed. With the `cuda` feature it also compiles `cuda/`
//! (see `cuda/build.rs`) and records the CUDA architectures in the fingerprint.

#[path = "cuda/build.rs"]
mod cuda_build;

use phaseline_fingerprint::{fingerprint, source_files, BuildKey};
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let features: Vec<String> = std::env::vars()
        .filter_map(|(k, _)| {
            k.strip_prefix("CARGO_FEATURE_")
                .map(|f| f.to_lowercase().replace('_', "-"))
        })
        .filter(|f| f != "default")
        .collect();
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".into());
    let cuda = std::env::var_os("CARGO_FEATURE_CUDA").is_some();
    let archs = if cuda {
        cuda_build::archs().unwrap_or_else(|e| panic!("{e}"))
    } else {
        Vec::new()
    };
    let key = BuildKey {
        features: features.clone(),
        profile: profile.clone(),
        cuda_archs: archs.join(","),
    };
    if cuda {
        if let Err(e) = cuda_build::build(&root, &archs) {
            panic!("building the CUDA sources: {e}");
        }
    }
    let fp = match fingerprint(&root, &key) {
        Ok(fp) => fp,
        Err(e) => panic!("cannot compute the build fingerprint: {e}"),
    };
    for rel in source_files(&root).unwrap_or_default() {
        println!("cargo:rerun-if-changed={}", rel.display());
    }
    for r in phaseline_fingerprint::SOURCE_ROOTS {
        println!("cargo:rerun-if-changed={r}");
    }
    let mut sorted = features;
    sorted.sort();
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(&root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
        .map(|s| !s.is_empty())
        .unwrap_or(false);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=PHASELINE_FINGERPRINT={fp}");
    println!("cargo:rustc-env=PHASELINE_FEATURES={}", sorted.join(","));
    println!("cargo:rustc-env=PHASELINE_PROFILE={profile}");
    println!("cargo:rustc-env=PHASELINE_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=PHASELINE_GIT_DIRTY={dirty}");
    println!("cargo:rustc-env=PHASELINE_RUSTC={rustc_version}");
    println!("cargo:rustc-env=PHASELINE_CUDA_ARCHS={}", archs.join(","));
}
