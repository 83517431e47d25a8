//! The prover's typed error.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum ProverError {
    #[error("unknown circuit preset: {0}")]
    UnknownPreset(String),
    #[error("synthesis failed: {0}")]
    Synthesis(String),
    /// Synthesis from the recorded shape (`shape-synth`) refused a cached
    /// shape that is not the circuit's.
    #[error("shape mismatch: {0}")]
    ShapeMismatch(String),
    #[error("parameter file {path}: {reason}")]
    Params { path: String, reason: String },
    #[error("parameter generation failed: {0}")]
    Setup(String),
    #[error("proving failed: {0}")]
    Prove(String),
    #[error("proof {index} failed verification")]
    VerifyFailed { index: usize },
    #[error("verification error: {0}")]
    Verify(String),
    #[error("record is missing the required phase `{0}`")]
    MissingPhase(String),
    /// `--mem-budget` cannot hold even one synthesized partition.
    #[error("memory budget of {budget} bytes is smaller than one synthesized partition ({partition} bytes measured)")]
    OverBudget { budget: u64, partition: u64 },
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    #[error("backend `{0}` is not available in this build")]
    BackendUnavailable(String),
    /// An upload the device has no room for, refused before it starts.
    #[error("the GPU has {free} bytes free, {what} need {need}")]
    DeviceMemory { what: DeviceUpload, need: u64, free: u64 },
    #[error("CUDA error {code}: {message}")]
    Gpu { code: i32, message: String },
    #[error("real circuit: {0}")]
    Real(String),
    #[error("internal error: {0}")]
    Internal(String),
    #[error("i/o error on {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

impl ProverError {
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Self {
        ProverError::Io {
            path: path.into(),
            source,
        }
    }
}

/// What a device upload carries (`ProverError::DeviceMemory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceUpload {
    /// The proving parameters: H, L, A, B_G1 and B_G2's points.
    Srs,
    /// The a, b, c buffers H of a batch's partitions is computed in.
    HBuffers,
}

impl std::fmt::Display for DeviceUpload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DeviceUpload::Srs => "the parameters' points (SRS)",
            DeviceUpload::HBuffers => "the a, b, c buffers of H",
        })
    }
}
