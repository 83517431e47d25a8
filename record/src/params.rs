//! Which parameter file a proof was made with: recorded so that two runs proved with different
//! parameters (another setup's toxic waste, or a file given by hand) can be told apart.

use serde::{Deserialize, Serialize};

/// Where the parameters of a run came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamsSource {
    /// Loaded from the runner's cache.
    Loaded,
    /// Made by this process's setup and cached.
    Generated,
    /// The file named on the command line (`--params`).
    GivenFile,
    /// Made by this process's setup and kept in memory only (`--params-store
    /// memory`): no file was written, so `path` and `sha256` are empty.
    Memory,
}

/// The parameter file a record's proofs were made with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamsFile {
    pub path: String,
    /// SHA-256 of the file's bytes, lower-case hex.
    pub sha256: String,
    pub source: ParamsSource,
}
