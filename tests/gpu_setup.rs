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

mod gpu_common;
use gpu_common::gpu_or_skip;

use blstrs::{G1Projective, G2Projective, Scalar as Fr};
use ff::Field;
use group::Group;
use phaseline_prover::phases::Recorder;
use phaseline_prover::record::Record;
use phaseline_prover::run::{run_prove, RunOpts};
use phaseline_prover::setup::runner::{run_setup, vk_path, Generator, SetupOpts};
use phaseline_prover::setup::{backend, CpuFixedBase, FixedBase, FixedBaseJob};
use phaseline_prover::ProverError;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use rayon::prelude::*;

/// Edge scalars, then `n` fresh random ones (every 101st zero, every 103rd one).
fn scalars(n: usize, seed: u64) -> Vec<Fr> {
    let two = Fr::from(2u64);
    let mut v = vec![
        Fr::ZERO,
        Fr::ONE,
        -Fr::ONE,
        two,
        -two,
        Fr::from(u64::MAX),
        Fr::from(1u64 << 15) + Fr::from(1u64 << 31),
        // With several window sizes the top window meets an equal point (doubling).
        Fr::from(14u64) * two.pow_vartime([252]),
        two.pow_vartime([254]),
        -two.pow_vartime([254]),
    ];
    v.extend(
        (0..n)
            .into_par_iter()
            .map(|i| {
                if i % 101 == 0 {
                    Fr::ZERO
                } else if i % 103 == 0 {
                    Fr::ONE
                } else {
                    let mut r = ChaCha20Rng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                    Fr::random(&mut r)
                }
            })
            .collect::<Vec<_>>(),
    );
    v
}

fn compare(fb: &dyn FixedBase, g1: &[Fr], g2: &[Fr], seed: u64) {
    let mut r = ChaCha20Rng::seed_from_u64(seed);
    let (b1, b2) = (G1Projective::random(&mut r), G2Projective::random(&mut r));
    let cut = g1.len() / 3;
    let job = FixedBaseJob {
        g1: b1,
        g1_scalars: vec![&g1[..cut], &[], &g1[cut..]],
        g2: b2,
        g2_scalars: vec![g2],
    };
    let rec = Recorder::new();
    let got = fb.run(&job, &rec).unwrap_or_else(|e| panic!("{}: {e}", fb.name()));
    let want = CpuFixedBase.run(&job, &Recorder::new()).unwrap();
    for (s, (a, b)) in got.g1.iter().zip(&want.g1).enumerate() {
        assert_eq!(a.len(), b.len(), "G1 segment {s} length");
        if let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) {
            panic!("G1 segment {s} point {i} differs (scalar {:?})", job.g1_scalars[s][i]);
        }
    }
    if let Some(i) = got.g2[0].iter().zip(&want.g2[0]).position(|(x, y)| x != y) {
        panic!("G2 point {i} differs (scalar {:?})", g2[i]);
    }
    assert_eq!(got.g2[0].len(), g2.len());
    let ph = rec.into_phases();
    for name in [
        "fixed_base_g1",
        "fixed_base_g2",
        "normalize",
        "fb_mul",
        "fb_norm",
        "fb_d2h",
    ] {
        assert!(ph.iter().any(|p| p.name == name), "phase {name} missing");
    }
    let g1p = ph.iter().find(|p| p.name == "fixed_base_g1").unwrap();
    assert_eq!(g1p.extra["points"], g1.len());
}

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
        compare(fb.as_ref(), &small, &small[..1500], seed ^ w);
    }
    // More than one device chunk in each group (2^22 G1, 2^21 G2 scalars per chunk).
    let big = scalars((1 << 22) + 4099, seed.rotate_left(17));
    let fb = backend("cuda").unwrap();
    compare(fb.as_ref(), &big, &big[..(1 << 21) + 77], seed ^ 99);
}

fn setup_record(circuit: &str, backend: &str, dir: &std::path::Path, seed: u64) -> Record {
    let o = SetupOpts {
        circuit: circuit.into(),
        backend: backend.into(),
        generator: Generator::Phaseline,
        params_dir: dir.to_path_buf(),
        toxic_seed: Some(seed),
    };
    let mut recs = vec![];
    run_setup(&o, &mut |r| {
        recs.push(r);
        Ok(())
    })
    .unwrap_or_else(|e| panic!("setup {circuit} --backend {backend}: {e}"));
    recs.pop().unwrap()
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host"]
fn gpu_setup_files_equal_cpu_and_proofs_verify() {
    if !gpu_or_skip("gpu_setup_files_equal_cpu_and_proofs_verify") {
        return;
    }
    let seed = ChaCha20Rng::from_entropy().next_u64() >> 16;
    for circuit in ["tiny", "small"] {
        let (gd, cd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let g = setup_record(circuit, "cuda", gd.path(), seed);
        let c = setup_record(circuit, "cpu", cd.path(), seed);
        assert_eq!(g.backend, "cuda");
        g.check_phases().unwrap();
        let id = &g.circuit.shape_id;
        let file = |d: &std::path::Path| std::fs::read(phaseline_prover::groth16::params::cache_path(d, id)).unwrap();
        let (gp, cp) = (file(gd.path()), file(cd.path()));
        assert!(gp.len() > 1000 && gp == cp, "{circuit}: parameter files differ");
        let vk = |d: &std::path::Path| std::fs::read(vk_path(d, id)).unwrap();
        assert_eq!(vk(gd.path()), vk(cd.path()), "{circuit}: verifying keys differ");
        drop(c);
        for prover in ["cuda", "cpu"] {
            let o = RunOpts {
                circuit: circuit.into(),
                partitions: 1,
                reps: 1,
                warmup: 0,
                backend: prover.into(),
                params_dir: gd.path().to_path_buf(),
                params_file: None,
                verify: true,
                seed: seed ^ 5,
                delays: Default::default(),
                inject_gpu_alloc: 0,
            };
            let mut n = 0;
            run_prove(&o, &mut |r| {
                assert_eq!(r.verified, Some(true), "{circuit} proof ({prover}) did not verify");
                n += 1;
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{circuit} prove ({prover}): {e}"));
            assert_eq!(n, 1);
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
    compare(backend("cuda").unwrap().as_ref(), &s, &s[..50], 2);
}
