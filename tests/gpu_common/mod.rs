//! Shared by the GPU test files: whether a CUDA device answers.

use phaseline_prover::gpu::device;
use phaseline_prover::ProverError;

/// True when a device answers. Without one, prints the skip and returns
/// false, unless PHASELINE_REQUIRE_GPU is set: then a missing or unusable
/// device fails the test.
pub fn gpu_or_skip(test: &str) -> bool {
    match device::init() {
        Ok(_) => true,
        Err(ProverError::Gpu { code: 100, message }) if std::env::var_os("PHASELINE_REQUIRE_GPU").is_none() => {
            eprintln!("SKIPPED: no CUDA device ({test}: {message})");
            false
        }
        Err(e) => panic!("{test}: CUDA device required but unusable: {e}"),
    }
}
