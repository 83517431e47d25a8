//! The build fingerprint: one hash over every source a `phaseline-prover`
//! binary is built from, its enabled features, its profile and its CUDA
//! architectures. The prover's build script embeds it; the harness computes
//! the same value from a checkout to refuse a stale or foreign binary.

use sha2::{Digest, Sha256};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Source roots (relative to the workspace root) that the prover is built from.
pub const SOURCE_ROOTS: &[&str] = &[
    "prover",
    "circuits",
    "record",
    "real/src",
    "real/Cargo.toml",
    "cuda",
    "fingerprint/src",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
];

/// Every file under the source roots, sorted, relative to `root`.
pub fn source_files(root: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for r in SOURCE_ROOTS {
        let p = root.join(r);
        if p.is_file() {
            out.push(PathBuf::from(r));
        } else if p.is_dir() {
            walk(root, &p, &mut out)?;
        }
    }
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, out)?;
        } else if path.is_file() {
            let rel = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            out.push(rel);
        }
    }
    Ok(())
}

/// The CUDA architectures a `cuda` build compiles machine code for when
/// nothing else is asked (Hopper: H100, H200).
pub const DEFAULT_CUDA_ARCHS: &str = "sm_90";

/// Environment variable the prover's build script reads the architectures from.
pub const CUDA_ARCHS_ENV: &str = "CUDA_ARCHS";

/// The CUDA architectures a build uses, normalized (`sm_90,sm_100`): the one
/// rule shared by the build script and the harness, so the fingerprint the
/// harness expects is the one the build embeds. `requested` is the setting
/// (`CUDA_ARCHS`, or the harness config); empty or absent means the default.
pub fn cuda_archs(requested: Option<&str>) -> Result<Vec<String>, String> {
    let raw = requested
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .unwrap_or(DEFAULT_CUDA_ARCHS);
    let mut out = Vec::new();
    for a in raw.split(',').map(str::trim).filter(|a| !a.is_empty()) {
        let digits = a.strip_prefix("sm_").unwrap_or("");
        if digits.len() < 2 || !digits.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!("CUDA architecture `{a}` is not of the form sm_90"));
        }
        out.push(a.to_string());
    }
    if out.is_empty() {
        return Err(format!("no CUDA architecture in `{raw}`"));
    }
    Ok(out)
}

/// Inputs of a fingerprint besides the sources.
#[derive(Debug, Clone, Default)]
pub struct BuildKey {
    /// Enabled cargo features, any order.
    pub features: Vec<String>,
    /// Cargo profile name (`release`, `debug`).
    pub profile: String,
    /// CUDA architectures, empty without the `cuda` feature.
    pub cuda_archs: String,
}

/// The fingerprint of the sources under `root` built with `key`: hex SHA-256 (first 16 bytes).
pub fn fingerprint(root: &Path, key: &BuildKey) -> io::Result<String> {
    let mut h = Sha256::new();
    for rel in source_files(root)? {
        let bytes = fs::read(root.join(&rel))?;
        let name = rel.to_string_lossy().replace('\\', "/");
        h.update((name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    let mut feats: Vec<String> = key
        .features
        .iter()
        .map(|f| f.replace('_', "-").to_lowercase())
        .collect();
    feats.sort();
    feats.dedup();
    h.update(format!("features={}\n", feats.join(",")).as_bytes());
    h.update(format!("profile={}\n", key.profile).as_bytes());
    h.update(format!("cuda_archs={}\n", key.cuda_archs).as_bytes());
    Ok(hex::encode(&h.finalize()[..16]))
}

/// A content key: a hash over named texts and over the contents of files and
/// folders, for a build cache whose entries can never go stale (every input
/// of the cached output is part of its key, so a changed input is a miss).
#[derive(Clone, Default)]
pub struct ContentKey(Sha256);

impl ContentKey {
    /// An empty key.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a named text (a flag, a tool's version).
    pub fn text(&mut self, name: &str, value: &str) -> &mut Self {
        for part in [name, value] {
            self.0.update((part.len() as u64).to_le_bytes());
            self.0.update(part.as_bytes());
        }
        self
    }

    /// Adds every file under `dir` (or `dir` itself, a file): its path
    /// relative to `dir` and its contents, in sorted order.
    pub fn tree(&mut self, dir: &Path) -> io::Result<&mut Self> {
        let mut files = Vec::new();
        if dir.is_file() {
            files.push(PathBuf::new());
        } else {
            walk(dir, dir, &mut files)?;
        }
        files.sort();
        self.text("tree", &dir.to_string_lossy());
        for rel in files {
            let bytes = fs::read(if rel.as_os_str().is_empty() {
                dir.to_path_buf()
            } else {
                dir.join(&rel)
            })?;
            self.text("file", &rel.to_string_lossy().replace('\\', "/"));
            self.0.update((bytes.len() as u64).to_le_bytes());
            self.0.update(&bytes);
        }
        Ok(self)
    }

    /// The key: hex SHA-256 (first 16 bytes).
    pub fn finish(&self) -> String {
        hex::encode(&self.0.clone().finalize()[..16])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_with_source_and_features() {
        let dir = std::env::temp_dir().join(format!("plfp-{}", std::process::id()));
        fs::create_dir_all(dir.join("prover")).unwrap();
        fs::write(dir.join("prover/a.rs"), "fn a() {}").unwrap();
        let k = BuildKey {
            features: vec!["smallvec".into()],
            profile: "release".into(),
            cuda_archs: String::new(),
        };
        let f1 = fingerprint(&dir, &k).unwrap();
        assert_eq!(f1, fingerprint(&dir, &k).unwrap());
        fs::write(dir.join("prover/a.rs"), "fn a() { }").unwrap();
        let f2 = fingerprint(&dir, &k).unwrap();
        assert_ne!(f1, f2);
        let k2 = BuildKey {
            features: vec![],
            ..k.clone()
        };
        assert_ne!(f2, fingerprint(&dir, &k2).unwrap());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn cuda_archs_default_and_normalize() {
        assert_eq!(cuda_archs(None).unwrap(), vec!["sm_90"]);
        assert_eq!(cuda_archs(Some("")).unwrap(), vec!["sm_90"]);
        assert_eq!(cuda_archs(Some("  ")).unwrap(), vec!["sm_90"]);
        assert_eq!(cuda_archs(Some(" sm_90 , sm_100a,")).unwrap(), vec!["sm_90", "sm_100a"]);
        assert!(cuda_archs(Some("compute_80")).unwrap_err().contains("compute_80"));
        assert!(cuda_archs(Some(",")).is_err());
    }

    #[test]
    fn circuits_crate_is_covered() {
        let dir = std::env::temp_dir().join(format!("plfp-c-{}", std::process::id()));
        fs::create_dir_all(dir.join("circuits/src")).unwrap();
        fs::write(dir.join("circuits/src/lib.rs"), "pub mod cs;").unwrap();
        let files = source_files(&dir).unwrap();
        assert!(files.contains(&PathBuf::from("circuits/src/lib.rs")), "{files:?}");
        let k = BuildKey::default();
        let f1 = fingerprint(&dir, &k).unwrap();
        fs::write(dir.join("circuits/src/lib.rs"), "pub mod cs; ").unwrap();
        assert_ne!(f1, fingerprint(&dir, &k).unwrap());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn content_key_follows_every_file_and_text() {
        let dir = std::env::temp_dir().join(format!("plfp-k-{}", std::process::id()));
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("a.cu"), "a").unwrap();
        fs::write(dir.join("sub/b.cuh"), "b").unwrap();
        let key = |flag: &str| ContentKey::new().text("flag", flag).tree(&dir).unwrap().finish();
        let k1 = key("-O3");
        assert_eq!(k1, key("-O3"));
        assert_ne!(k1, key("-O2"));
        fs::write(dir.join("sub/b.cuh"), "b2").unwrap();
        let k2 = key("-O3");
        assert_ne!(k1, k2);
        fs::write(dir.join("sub/c.cuh"), "").unwrap();
        assert_ne!(k2, key("-O3"), "a new empty file changes the key");
        fs::remove_dir_all(&dir).unwrap();
    }
}
