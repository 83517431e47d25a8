//! The adapter's typed error.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum RealError {
    #[error("unsupported sector size `{0}` (want 2KiB, 8MiB or 512MiB)")]
    SectorSize(String),
    #[error("C1 file {path}: {reason}")]
    C1File { path: String, reason: String },
    #[error("sealing failed: {0}")]
    Seal(String),
    #[error("filecoin-proofs: {0}")]
    Filecoin(String),
    #[error("filecoin-proofs' verification rejected the proofs")]
    FilecoinVerifyFailed,
    #[error("i/o error on {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

impl RealError {
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Self {
        RealError::Io {
            path: path.into(),
            source,
        }
    }
}
