//! The parameter cache: one file per circuit shape under a parameter
//! directory (or one file given explicitly), loaded and checked against the
//! circuit (a mismatched or corrupt file is an error), or, when absent, made
//! by the generator the caller hands in, checked, and written there. The
//! cache knows no generator itself: our setup (`crate::setup`) depends on
//! `groth16`, never the reverse.

use super::params::{check, read_with_digest, write_atomic, Expected};
use super::Params;
use crate::error::ProverError;
use std::path::{Path, PathBuf};

pub use phaseline_record::{ParamsFile, ParamsSource, ParamsStore};

/// The cache file for a circuit shape.
pub fn cache_path(dir: &Path, shape_id: &str) -> PathBuf {
    dir.join(format!("{shape_id}.params"))
}

/// Where a run's parameters come from: `explicit` when given, else the file
/// of the circuit's shape under `dir`.
#[derive(Clone, Copy, Debug)]
pub struct ParamsCache<'a> {
    pub dir: &'a Path,
    pub explicit: Option<&'a Path>,
}

impl<'a> ParamsCache<'a> {
    pub fn new(dir: &'a Path, explicit: Option<&'a Path>) -> Self {
        ParamsCache { dir, explicit }
    }

    /// The cache file of a circuit shape under this cache's directory.
    pub fn path(&self, shape_id: &str) -> PathBuf {
        cache_path(self.dir, shape_id)
    }

    /// The parameters of the shape `shape_id` with sizes `expected`, with
    /// the file they came from: the explicit file, else the cached one, else
    /// `generate`'s, written to the cache ([`ParamsStore::Cache`]) or kept in
    /// memory only ([`ParamsStore::Memory`]).
    pub fn load_or_generate(
        &self,
        shape_id: &str,
        expected: &Expected,
        store: ParamsStore,
        generate: impl FnOnce() -> Result<Params, ProverError>,
    ) -> Result<(Params, ParamsFile), ProverError> {
        let file = |path: &Path, sha256, source| ParamsFile {
            path: path.display().to_string(),
            sha256,
            source,
        };
        if let Some(path) = self.explicit {
            let (p, digest) = read_with_digest(path)?;
            check(&p, expected, &path.display().to_string())?;
            return Ok((p, file(path, digest, ParamsSource::GivenFile)));
        }
        let path = self.path(shape_id);
        if path.exists() {
            let (p, digest) = read_with_digest(&path)?;
            check(&p, expected, &path.display().to_string())?;
            return Ok((p, file(&path, digest, ParamsSource::Loaded)));
        }
        let p = generate()?;
        check(&p, expected, &path.display().to_string())?;
        match store {
            ParamsStore::Cache => {
                let digest = write_atomic(&p, &path)?;
                Ok((p, file(&path, digest, ParamsSource::Generated)))
            }
            ParamsStore::Memory => Ok((p, file(Path::new(""), String::new(), ParamsSource::Memory))),
        }
    }
}
