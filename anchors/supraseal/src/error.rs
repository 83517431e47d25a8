//! The anchor's typed errors; `main` prints them and exits with status 2.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum AnchorError {
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    #[error("{0}")]
    UnknownPreset(String),
    #[error("synthesis failed: {0}")]
    Synthesis(String),
    #[error("parameter file {path}: {reason}")]
    Params { path: PathBuf, reason: String },
    #[error("supraseal-c2 could not load the parameter file {path}: {reason}")]
    SrsLoad { path: PathBuf, reason: String },
    #[error(
        "no usable CUDA GPU: supraseal-c2 needs an NVIDIA GPU of compute capability 7.0 or newer and its driver ({0})"
    )]
    NoGpu(String),
    #[error("real circuit: {0}")]
    Real(#[from] phaseline_real::RealError),
    #[error("supraseal-c2 proving failed: {0}")]
    Prove(String),
    #[error("verification: {0}")]
    Verify(String),
    #[error("record is missing the phase `{0}`")]
    MissingPhase(String),
    #[error("{what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
}

impl AnchorError {
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        AnchorError::Io {
            what: what.into(),
            source,
        }
    }
}
