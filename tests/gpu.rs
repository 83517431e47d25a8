//! GPU backend checks against the CPU backend on fresh random inputs: NTT,
//! the H polynomial, each split-MSM kind, whole proofs (verified with
//! bellperson's verifier), and CUDA errors surfacing as errors.
//!
//! Every test is `#[ignore]`d with its reason, so a machine without a GPU
//! reports them as ignored, never as passed. On a GPU host run them with
//! `--include-ignored` (the GPU bundle does, with PHASELINE_REQUIRE_GPU=1 so
//! a missing or unusable device fails instead of printing
//! `SKIPPED: no CUDA device`).
#![cfg(feature = "cuda")]

mod gpu_common;
use gpu_common::{gpu_or_skip, proving_alone};

use blstrs::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar as Fr};
use ff::Field;
use group::{Curve, Group};
use phaseline_prover::cpu::msm::{msm_g1, msm_g2, scalar_bytes};
use phaseline_prover::cpu::ntt::Domain;
use phaseline_prover::cpu::prove::h_coeffs as cpu_h_coeffs;
use phaseline_prover::gpu::device::{self, DevicePoints};
use phaseline_prover::gpu::ffi::PlOpts;
use phaseline_prover::gpu::ops;
use phaseline_prover::phases::Recorder;
use phaseline_prover::record::Record;
use phaseline_prover::run::{run_prove, RunOpts};
use phaseline_prover::synth::Synthesized;
use phaseline_prover::ProverError;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use rayon::prelude::*;

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::from_entropy()
}

fn random_fr(n: usize, seed: u64) -> Vec<Fr> {
    (0..n)
        .into_par_iter()
        .map(|i| {
            let mut r = ChaCha20Rng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            Fr::random(&mut r)
        })
        .collect()
}

fn random_points(n: usize, seed: u64) -> Vec<G1Affine> {
    let proj: Vec<G1Projective> = random_fr(n, seed)
        .par_iter()
        .map(|s| G1Projective::generator() * s)
        .collect();
    let mut aff = vec![G1Affine::default(); n];
    G1Projective::batch_normalize(&proj, &mut aff);
    aff
}

fn random_points_g2(n: usize, seed: u64) -> Vec<G2Affine> {
    let proj: Vec<G2Projective> = random_fr(n, seed)
        .par_iter()
        .map(|s| G2Projective::generator() * s)
        .collect();
    let mut aff = vec![G2Affine::default(); n];
    G2Projective::batch_normalize(&proj, &mut aff);
    aff
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host (the GPU bundle does)"]
fn gpu_ntt_matches_cpu() {
    if !gpu_or_skip("gpu_ntt_matches_cpu") {
        return;
    }
    let seed = rng().next_u64();
    for lg in [1u32, 4, 10, 13, 17] {
        let d = Domain::for_len(1 << lg).unwrap();
        for (inverse, coset) in [(false, false), (true, false), (false, true), (true, true)] {
            let v = random_fr(d.n, seed + lg as u64);
            let mut want = v.clone();
            match (inverse, coset) {
                (false, false) => d.ntt(&mut want),
                (true, false) => d.intt(&mut want),
                (false, true) => d.coset_ntt(&mut want),
                (true, true) => d.coset_intt(&mut want),
            }
            let mut got = v.clone();
            ops::ntt(&mut got, inverse, coset).unwrap();
            assert!(
                got == want,
                "NTT 2^{lg} inverse={inverse} coset={coset} differs from the CPU"
            );
        }
    }
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host (the GPU bundle does)"]
fn gpu_h_matches_cpu_including_padding() {
    if !gpu_or_skip("gpu_h_matches_cpu_including_padding") {
        return;
    }
    let seed = rng().next_u64();
    for (len, i) in [(1000usize, 0u64), (4096, 1), (40_000, 2)] {
        let d = Domain::for_len(len).unwrap();
        let s = Synthesized {
            a: random_fr(len, seed + 3 * i),
            b: random_fr(len, seed + 3 * i + 1),
            c: random_fr(len, seed + 3 * i + 2),
            ..Default::default()
        };
        let rec = Recorder::new();
        let want = cpu_h_coeffs(&s, &d, &rec);
        for pin in [0, 1] {
            let o = PlOpts {
                pin,
                ..Default::default()
            };
            let got = ops::h_coeffs(&s, &d, &o, &rec).unwrap();
            assert!(got == want, "H for {len} rows (pin={pin}) differs from the CPU");
        }
    }
}

fn kinds(n: usize, seed: u64) -> Vec<(&'static str, Vec<Fr>)> {
    let r = random_fr(n, seed);
    let mut g = ChaCha20Rng::seed_from_u64(seed ^ 1);
    let sparse: Vec<Fr> = r
        .iter()
        .map(|x| match g.next_u32() % 20 {
            0 => *x,
            1 => Fr::ONE,
            _ => Fr::ZERO,
        })
        .collect();
    let mixed: Vec<Fr> = r
        .iter()
        .map(|x| match g.next_u32() % 3 {
            0 => *x,
            1 => Fr::ONE,
            _ => Fr::ZERO,
        })
        .collect();
    vec![
        ("all-zero", vec![Fr::ZERO; n]),
        ("all-one", vec![Fr::ONE; n]),
        ("sparse", sparse),
        ("mixed", mixed),
        ("random", r),
    ]
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host (the GPU bundle does)"]
fn gpu_split_msm_matches_cpu_for_every_scalar_kind() {
    if !gpu_or_skip("gpu_split_msm_matches_cpu_for_every_scalar_kind") {
        return;
    }
    let seed = rng().next_u64();
    let rec = Recorder::new();
    for n in [1usize, 31, 1000, 4097, 50_001] {
        let pts = random_points(n, seed + n as u64);
        let dev = DevicePoints::upload(&pts, &PlOpts::default(), &rec, "test").unwrap();
        for (kind, sc) in kinds(n, seed ^ n as u64) {
            let want = msm_g1(&pts, &scalar_bytes(&sc));
            for (pin, window_tune) in [(0, 0), (1, 1), (0, 1)] {
                let o = PlOpts {
                    pin,
                    window_tune,
                    ..Default::default()
                };
                let got = ops::split_msm_g1(&dev, &sc, &o, &rec).unwrap();
                assert!(
                    got.to_affine() == want.to_affine(),
                    "{kind} MSM of {n} points (pin={pin} window_tune={window_tune}) differs from the CPU"
                );
            }
        }
    }
    // A large random MSM that sppark processes in several batches.
    let n = (1 << 18) + 5;
    let pts = random_points(n, seed);
    let sc = random_fr(n, seed ^ 7);
    let dev = DevicePoints::upload(&pts, &PlOpts::default(), &rec, "test").unwrap();
    let want = msm_g1(&pts, &scalar_bytes(&sc));
    let got = ops::split_msm_g1(&dev, &sc, &ops::feature_opts(), &rec).unwrap();
    assert!(got.to_affine() == want.to_affine(), "random MSM of {n} points differs");
    let spans: Vec<_> = rec.into_phases();
    assert!(spans
        .iter()
        .any(|p| p.name == "tail_msm" && p.extra.contains_key("window")));
    assert!(spans.iter().any(|p| p.name == "batch_add"));
}

/// B_G2's device path: the same split MSM in G2 (sppark's Fp2 kernels, two
/// threads per element), against blst's G2 Pippenger on the CPU.
#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host (the GPU bundle does)"]
fn gpu_split_msm_g2_matches_cpu_for_every_scalar_kind() {
    if !gpu_or_skip("gpu_split_msm_g2_matches_cpu_for_every_scalar_kind") {
        return;
    }
    let seed = rng().next_u64();
    let rec = Recorder::new();
    for n in [1usize, 31, 1000, 4097, 50_001] {
        let pts = random_points_g2(n, seed + n as u64);
        let dev = DevicePoints::upload(&pts, &PlOpts::default(), &rec, "test").unwrap();
        for (kind, sc) in kinds(n, seed ^ n as u64) {
            let want = msm_g2(&pts, &scalar_bytes(&sc));
            for (pin, window_tune) in [(0, 0), (1, 1)] {
                let o = PlOpts {
                    pin,
                    window_tune,
                    ..Default::default()
                };
                let got = ops::split_msm_g2(&dev, &sc, &o, &rec).unwrap();
                assert!(
                    got.to_affine() == want.to_affine(),
                    "G2 {kind} MSM of {n} points (pin={pin} window_tune={window_tune}) differs from the CPU"
                );
            }
        }
        // A G2 point set is refused for a G1 MSM, and the other way round.
        assert!(ops::split_msm_g1(&dev, &[Fr::ONE], &PlOpts::default(), &rec).is_err());
    }
    let n = (1 << 17) + 3;
    let pts = random_points_g2(n, seed);
    let sc = random_fr(n, seed ^ 9);
    let dev = DevicePoints::upload(&pts, &PlOpts::default(), &rec, "test").unwrap();
    let want = msm_g2(&pts, &scalar_bytes(&sc));
    let got = ops::split_msm_g2(&dev, &sc, &ops::feature_opts(), &rec).unwrap();
    assert!(
        got.to_affine() == want.to_affine(),
        "random G2 MSM of {n} points differs"
    );
    let g1 = DevicePoints::upload(&random_points(8, seed), &PlOpts::default(), &rec, "test").unwrap();
    assert!(ops::split_msm_g2(&g1, &[Fr::ONE], &PlOpts::default(), &rec).is_err());
}

fn opts(circuit: &str, partitions: usize, dir: &std::path::Path) -> RunOpts {
    RunOpts {
        partitions,
        reps: 2,
        seed: rng().next_u64() >> 20,
        ..RunOpts::new(circuit, phaseline_prover::record::Backend::Cuda, dir)
    }
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host (the GPU bundle does)"]
fn gpu_proofs_verify_tiny_and_small_one_and_several_partitions() {
    if !gpu_or_skip("gpu_proofs_verify_tiny_and_small_one_and_several_partitions") {
        return;
    }
    let _alone = proving_alone();
    let dir = tempfile::tempdir().unwrap();
    for (circuit, parts) in [("tiny", 1), ("tiny", 3), ("small", 1), ("small", 2)] {
        let mut recs: Vec<Record> = Vec::new();
        run_prove(&opts(circuit, parts, dir.path()), &mut |r| {
            recs.push(r);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{circuit} x{parts}: {e}"));
        assert_eq!(recs.len(), 2);
        for r in &recs {
            assert_eq!(r.verified, Some(true), "{circuit} x{parts} not verified");
            assert_eq!(r.backend, phaseline_prover::record::Backend::Cuda);
            r.check_phases().unwrap();
            for name in ["msm_h", "msm_l", "tail_msm", "batch_add", "msm_b_g2", "coset_intt"] {
                let n = r.phases.iter().filter(|p| p.name == name).count();
                assert!(n >= parts, "{name}: {n} spans for {parts} partitions");
            }
            // B_G2 ran on the device: one span per partition on a GPU stream,
            // with its batch addition and tail MSM under it.
            let b_g2: Vec<_> = r.phases.iter().filter(|p| p.name == "msm_b_g2").collect();
            assert_eq!(b_g2.len(), parts, "one msm_b_g2 span per partition");
            assert!(b_g2.iter().all(|p| p.thread.starts_with("gpu-stream")));
            for child in ["batch_add", "tail_msm"] {
                let n = r
                    .phases
                    .iter()
                    .filter(|p| p.name == child && p.parent.as_deref() == Some("msm_b_g2"))
                    .count();
                assert_eq!(n, parts, "{child} under msm_b_g2");
            }
        }
    }
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host (the GPU bundle does)"]
fn injected_device_allocation_failure_is_a_typed_error() {
    if !gpu_or_skip("injected_device_allocation_failure_is_a_typed_error") {
        return;
    }
    let _alone = proving_alone();
    let dir = tempfile::tempdir().unwrap();
    let mut o = opts("tiny", 1, dir.path());
    o.inject_gpu_alloc = 1 << 50;
    match run_prove(&o, &mut |_| Ok(())) {
        Err(ProverError::Gpu { code, message }) => {
            assert_eq!(code, 2, "cudaErrorMemoryAllocation expected, got {code}: {message}");
            assert!(message.contains("out of memory"), "{message}");
        }
        Err(e) => panic!("expected a CUDA error, got {e}"),
        Ok(()) => panic!("an impossible allocation succeeded"),
    }
    // The device stays usable after the failure.
    o.inject_gpu_alloc = 0;
    run_prove(&o, &mut |r| {
        assert_eq!(r.verified, Some(true));
        Ok(())
    })
    .unwrap();
}

fn runner() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("PHASELINE_PROVER_BIN") {
        return p.into();
    }
    let built = std::path::PathBuf::from(env!("CARGO_BIN_EXE_phaseline-prover"));
    if built.is_file() {
        return built;
    }
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().join("phaseline-prover")
}

/// Runs everywhere: with no device the CUDA backend must fail (no silent CPU
/// fallback); with one, an impossible allocation must fail the runner.
#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host (the GPU bundle does)"]
fn runner_exits_non_zero_with_the_cuda_message() {
    let dir = tempfile::tempdir().unwrap();
    let has_gpu = device::init().is_ok();
    let bin = runner();
    let out = std::process::Command::new(&bin)
        .args(["prove", "--backend", "cuda", "--circuit", "tiny", "--inject-gpu-alloc"])
        .arg((1u64 << 50).to_string())
        .arg("--params-dir")
        .arg(dir.path())
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start the cuda runner {}: {e} (copy it beside this test binary or set PHASELINE_PROVER_BIN)",
                bin.display()
            )
        });
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "runner succeeded: {err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    if has_gpu {
        assert!(err.contains("CUDA error 2") && err.contains("out of memory"), "{err}");
    } else {
        assert!(err.contains("CUDA error 100: no CUDA device"), "{err}");
    }
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host (the GPU bundle does)"]
fn pipelined_gpu_proofs_verify_one_partition_per_driver_call() {
    if !gpu_or_skip("pipelined_gpu_proofs_verify_one_partition_per_driver_call") {
        return;
    }
    let _alone = proving_alone();
    let dir = tempfile::tempdir().unwrap();
    let mut o = opts("small", 3, dir.path());
    o.pipeline = Some(phaseline_prover::pipeline::Depth::Fixed(2));
    let mut recs: Vec<Record> = Vec::new();
    run_prove(&o, &mut |r| {
        recs.push(r);
        Ok(())
    })
    .unwrap();
    for r in &recs {
        assert_eq!(r.verified, Some(true));
        r.check_phases().unwrap();
        assert_eq!(r.pipeline.pipeline_depth, Some(2));
        assert!(matches!(r.pipeline.pipeline_max_in_flight, Some(1..=2)));
        let msm_h: Vec<_> = r.phases.iter().filter(|p| p.name == "msm_h").collect();
        assert_eq!(msm_h.len(), 3, "one H MSM per partition");
        // The SRS stays on the device: uploaded at most once per process.
        assert!(r.phases.iter().filter(|p| p.name == "srs_upload").count() <= 1);
    }
}

#[test]
#[ignore = "needs a CUDA device: run with --include-ignored on a GPU host (the GPU bundle does)"]
fn uploads_larger_than_the_free_device_memory_are_refused_before_they_start() {
    if !gpu_or_skip("uploads_larger_than_the_free_device_memory_are_refused_before_they_start") {
        return;
    }
    let (free, total) = device::mem_info().unwrap();
    assert!(free > 0 && free <= total, "free {free}, total {total}");
    device::ensure_free(phaseline_prover::error::DeviceUpload::Srs, 1).unwrap();
    match device::ensure_free(phaseline_prover::error::DeviceUpload::Srs, u64::MAX) {
        Err(ProverError::DeviceMemory { need, free, .. }) => assert!(need == u64::MAX && free > 0),
        other => panic!("{other:?}"),
    }
}
