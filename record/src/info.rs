//! `info --json`: what a runner says of itself before the harness trusts it
//! with a measurement (its features, fingerprint and the backends it runs).

use crate::mode::Backend;
use serde::{Deserialize, Serialize};

/// A runner's self-description.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunnerInfo {
    /// [`crate::SCHEMA_VERSION`] of the records it writes.
    pub schema_version: u32,
    pub package_version: String,
    /// Cargo features it was built with, sorted.
    pub features: Vec<String>,
    pub fingerprint: String,
    #[serde(default)]
    pub profile: String,
    #[serde(default)]
    pub git_commit: String,
    /// CUDA architectures it was compiled for (empty without a GPU backend).
    #[serde(default)]
    pub cuda_archs: String,
    /// The `prove --backend` values it accepts; the first is its default.
    pub backends: Vec<Backend>,
    /// Whether it answers `setup` (makes parameter files); anchors read ours.
    #[serde(default = "yes")]
    pub makes_params: bool,
}

fn yes() -> bool {
    true
}
