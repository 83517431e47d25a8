//! Shared by the GPU test files: whether a CUDA device answers.

use phaseline_prover::gpu::device;
use phaseline_prover::ProverError;
use std::sync::{Mutex, MutexGuard};

/// The device copy of the parameters is one per process (`device::srs_for`),
/// and the test harness runs tests on parallel threads: a test that proves
/// holds this lock, so another test's parameters cannot replace the copy
/// between its partitions (which reads as a second upload).
pub fn proving_alone() -> MutexGuard<'static, ()> {
    static PROVING: Mutex<()> = Mutex::new(());
    PROVING.lock().unwrap_or_else(|e| e.into_inner())
}

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
