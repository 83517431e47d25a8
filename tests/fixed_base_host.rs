//! The GPU fixed-base code of the setup (`cuda/pl_fb_math.cuh`: signed-window
//! recoding, XYZZ mixed additions (the doubling case included; the opposite-
//! point case is unreachable for scalars below r), zero scalars,
//! strided batch inversion to affine) built for the host and run against the
//! CPU backend, so a machine without a GPU checks that code. These tests
//! need no device and are not ignored; what they cannot check (sppark's
//! device arithmetic, launches, streams, transfers) is left to
//! `tests/gpu_setup.rs` on a GPU host.
#![cfg(feature = "cuda")]

mod fixed_base_common;
use fixed_base_common::{compare, prove_verifies, scalars, setup_equals_cpu};

use phaseline_prover::gpu::ffi;
use phaseline_prover::setup::gpu::{CudaFixedBase, Exec};
use phaseline_prover::ProverError;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

#[test]
fn device_code_on_the_host_matches_cpu_for_edge_and_random_scalars() {
    let seed = ChaCha20Rng::from_entropy().next_u64();
    eprintln!("seed {seed}");
    let s = scalars(2000, seed);
    for (w, chunk, threads) in [
        (2, 700, 5),
        (8, 1000, 37),
        (11, 333, 64),
        (12, 2048, 1),
        (13, 1000, 37),
        (16, 997, 129),
    ] {
        let fb = CudaFixedBase {
            wbits: w,
            exec: Exec::Host {
                chunk,
                threads,
                piece: 1500,
            },
        };
        compare(&fb, &s, &s[..700], seed ^ w as u64, &[]);
    }
}

#[test]
fn setup_with_the_device_code_on_the_host_equals_cpu_and_proofs_verify() {
    let seed = ChaCha20Rng::from_entropy().next_u64() >> 16;
    eprintln!("seed {seed}");
    for circuit in ["tiny", "small"] {
        let dir = setup_equals_cpu(circuit, "cuda-host", seed);
        prove_verifies(circuit, phaseline_prover::record::Backend::Cpu, dir.path(), seed ^ 5);
    }
}

#[test]
fn bad_windows_chunk_or_threads_are_errors() {
    for (wbits, windows, chunk, threads, what) in [
        (1u32, 256u32, 10usize, 1usize, "window"),
        (17, 16, 10, 1, "window"),
        (12, 21, 10, 1, "windows do not cover"),
        (12, 22, 0, 1, "chunk"),
        (12, 22, 10, 0, "threads"),
    ] {
        // SAFETY: n = 0, so no pointer is read or written; the checks come
        // first and must fail.
        let e = unsafe {
            ffi::pl_fixed_base_host_g2(
                std::ptr::null(),
                wbits,
                windows,
                std::ptr::null(),
                0,
                chunk,
                threads,
                std::ptr::null_mut(),
            )
        };
        match ffi::check(e) {
            Err(ProverError::Gpu { code: 22, message }) => assert!(message.contains(what), "{message}"),
            other => panic!("w={wbits} windows={windows} chunk={chunk} threads={threads}: got {other:?}"),
        }
    }
}
