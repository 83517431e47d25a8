//! Build script of the supraseal anchor: embeds a fingerprint of its sources,
//! the circuits crate's sources, the lock file and the nvcc version, plus the
//! git commit; and points the linker at the CUDA runtime next to nvcc.

use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Inputs of the fingerprint, relative to this crate.
const ROOTS: &[&str] = &[
    "src",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "../../circuits/src",
    "../../circuits/Cargo.toml",
    "../../record/src",
    "../../record/Cargo.toml",
    "../../real/src",
    "../../real/Cargo.toml",
];

fn walk(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_file() {
        out.push(p.to_path_buf());
    } else if let Ok(rd) = fs::read_dir(p) {
        for e in rd.flatten() {
            walk(&e.path(), out);
        }
    }
}

fn run(cmd: &str, args: &[&str], dir: &Path) -> Option<String> {
    Command::new(cmd)
        .args(args)
        .current_dir(dir)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn nvcc() -> String {
    std::env::var("NVCC").unwrap_or_else(|_| "nvcc".into())
}

/// nvcc as `NVCC` names it, else the first `nvcc` on PATH.
fn find_nvcc() -> Option<PathBuf> {
    let n = nvcc();
    if n.contains('/') {
        return Some(PathBuf::from(n));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(&n)).find(|p| p.is_file())
}

/// Adds the directory holding `libcudart_static.a` next to nvcc to the link search path.
fn cudart_search() {
    let Some(bin) = find_nvcc() else { return };
    let Some(top) = bin.parent().and_then(Path::parent) else {
        return;
    };
    for sub in ["lib64", "lib", "targets/x86_64-linux/lib"] {
        let d = top.join(sub);
        if d.join("libcudart_static.a").is_file() {
            println!("cargo:rustc-link-search=native={}", d.display());
            return;
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for r in ROOTS {
        walk(&root.join(r), &mut files);
        println!("cargo:rerun-if-changed={r}");
    }
    files.sort();
    let nvcc_version = run(&nvcc(), &["--version"], &root)
        .and_then(|v| v.lines().find(|l| l.contains("release")).map(String::from))
        .unwrap_or_else(|| "unknown".into());
    let profile = std::env::var("PROFILE").unwrap_or_default();
    let mut h = Sha256::new();
    for f in &files {
        let name = f.strip_prefix(&root).unwrap_or(f).to_string_lossy().replace('\\', "/");
        let bytes = fs::read(f).unwrap_or_default();
        h.update((name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    h.update(format!("profile={profile}\nnvcc={nvcc_version}\n").as_bytes());
    let commit = run("git", &["rev-parse", "HEAD"], &root).unwrap_or_else(|| "unknown".into());
    // Re-embed the commit when HEAD moves (HEAD itself, or the branch it names).
    for name in [
        "HEAD".to_string(),
        run("git", &["symbolic-ref", "-q", "HEAD"], &root).unwrap_or_default(),
    ] {
        if name.is_empty() {
            continue;
        }
        if let Some(p) = run(
            "git",
            &["rev-parse", "--path-format=absolute", "--git-path", &name],
            &root,
        ) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    println!(
        "cargo:rustc-env=ANCHOR_FINGERPRINT={}",
        hex::encode(&h.finalize()[..16])
    );
    println!("cargo:rustc-env=ANCHOR_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=ANCHOR_NVCC={nvcc_version}");
    println!("cargo:rerun-if-env-changed=NVCC");
    println!("cargo:rerun-if-env-changed=PATH");
    cudart_search();
}
