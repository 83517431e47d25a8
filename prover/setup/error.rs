//! Why a setup failed ([`SetupError`]); it becomes [`ProverError::Setup`]
//! at the runner's boundary.

use crate::error::ProverError;
use crate::shape::ShapeError;

/// Why a setup failed.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("{0}")]
    BackendNotBuilt(String),
    #[error("circuit too large for a radix-2 domain: {0} rows")]
    TooLarge(usize),
    #[error("aux variable {0} is unconstrained (its L point would be the point at infinity)")]
    Unconstrained(usize),
    #[error("degenerate toxic waste: {0} is zero")]
    Degenerate(&'static str),
    #[error("synthesis in shape mode failed: {0}")]
    Record(String),
    #[error(transparent)]
    Shape(#[from] ShapeError),
    #[error("{0}; delete the cached shape file to record it again")]
    CachedShape(ShapeError),
    #[error("i/o error on {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("setup backend returned malformed output: {0}")]
    Backend(String),
    #[error("GPU setup failed: {0}")]
    Gpu(String),
    #[error("bellperson's generator failed: {0}")]
    Bellperson(String),
}

impl From<SetupError> for ProverError {
    fn from(e: SetupError) -> Self {
        ProverError::Setup(e.to_string())
    }
}
