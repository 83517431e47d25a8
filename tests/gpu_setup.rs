//! The GPU fixed-base backend of the setup against the CPU backend on fresh
//! random inputs (edge scalars included, several window sizes, more than
//! one device chunk), and `setup --backend cuda` against `--backend cpu`:
//! byte-identical parameter files for the same toxic waste, and a proof made
//! with them verifies.
//!
//! Every test is `#[ignore]`d with its reason, so a machine without a GPU
//! reports them as ignored, never as passed. On a GPU host run them with
//! `--include-ignored` and PHASELINE_REQUIRE_GPU=1, so a missing or unusable
//! device fails instead of printing `SKIPPED: no CUDA device`.
#![cfg(feature = "cuda")]

mod fixed_base_common;
mod gpu_common;
use fixed_base_common::{compare, prove_verifies, scalars, setup_equals_cpu, DEVICE_SPANS};
use gpu_common::{gpu_or_skip, proving_alone};

use phaseline_prover::setup::backend;
use phaseline_prover::ProverError;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host"]
fn gpu_fixed_base_matches_cpu_for_edge_and_random_scalars() {
    if !gpu_or_skip("gpu_fixed_base_matches_cpu_for_edge_and_random_scalars") {
        return;
    }
    let seed = ChaCha20Rng::from_entropy().next_u64();
    eprintln!("seed {seed}");
    let small = scalars(3000, seed);
    for w in [8, 11, 12, 13, 16] {
        let fb = backend(&format!("cuda:{w}")).unwrap();
        compare(fb.as_ref(), &small, &small[..1500], seed ^ w, DEVICE_SPANS);
    }
    // More than one device chunk in each group (2^22 G1, 2^21 G2 scalars per chunk).
    let big = scalars((1 << 22) + 4099, seed.rotate_left(17));
    let fb = backend("cuda").unwrap();
    compare(fb.as_ref(), &big, &big[..(1 << 21) + 77], seed ^ 99, DEVICE_SPANS);
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host"]
fn gpu_setup_files_equal_cpu_and_proofs_verify() {
    if !gpu_or_skip("gpu_setup_files_equal_cpu_and_proofs_verify") {
        return;
    }
    let _alone = proving_alone();
    let seed = ChaCha20Rng::from_entropy().next_u64() >> 16;
    for circuit in ["tiny", "small"] {
        let dir = setup_equals_cpu(circuit, "cuda", seed);
        for prover in [
            phaseline_prover::record::Backend::Cuda,
            phaseline_prover::record::Backend::Cpu,
        ] {
            prove_verifies(circuit, prover, dir.path(), seed ^ 5);
        }
    }
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host"]
fn gpu_fixed_base_rejects_bad_windows_with_an_error() {
    if !gpu_or_skip("gpu_fixed_base_rejects_bad_windows_with_an_error") {
        return;
    }
    use phaseline_prover::gpu::ffi;
    for (wbits, windows) in [(1u32, 256u32), (17, 16), (12, 21)] {
        let mut buf = ffi::PhaseBuf::new(4);
        // SAFETY: n = 0, so no pointer is read or written; the window check
        // comes first and must fail.
        let e = unsafe {
            ffi::pl_fixed_base_g1(
                std::ptr::null(),
                wbits,
                windows,
                std::ptr::null(),
                0,
                1 << 22,
                std::ptr::null_mut(),
                &mut buf.raw,
            )
        };
        match ffi::check(e) {
            Err(ProverError::Gpu { code: 22, message }) => assert!(message.contains("window"), "{message}"),
            other => panic!("w={wbits} windows={windows}: expected a window error, got {other:?}"),
        }
    }
    // The device is still usable afterwards.
    let s = scalars(100, 1);
    compare(backend("cuda").unwrap().as_ref(), &s, &s[..50], 2, DEVICE_SPANS);
}
