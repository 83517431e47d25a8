//! Shared by the fixed-base tests of the GPU backend (on a device, and its
//! code built for the host): edge and random scalars, and the comparison
//! against the CPU backend.

use blstrs::{G1Projective, G2Projective, Scalar as Fr};
use ff::Field;
use group::Group;
use phaseline_prover::phases::Recorder;
use phaseline_prover::record::Record;
use phaseline_prover::run::{run_prove, RunOpts};
use phaseline_prover::setup::runner::{run_setup, vk_path, Generator, SetupOpts};
use phaseline_prover::setup::{CpuFixedBase, FixedBase, FixedBaseJob};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use rayon::prelude::*;
use std::path::Path;

/// Device spans the device backend records inside the fixed-base phases
/// (`gpu_setup.rs`; the host build records none).
#[allow(dead_code)]
pub const DEVICE_SPANS: &[&str] = &["fb_mul", "fb_norm", "fb_d2h"];

/// Edge scalars, then `n` fresh random ones (every 101st zero, every 103rd one).
pub fn scalars(n: usize, seed: u64) -> Vec<Fr> {
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

/// Runs `fb` and the CPU backend on the same job (G1 in three segments, one
/// empty; G2 in one) and requires equal points, the fixed-base phases, and
/// the named device spans (`&[]` where none are recorded).
pub fn compare(fb: &dyn FixedBase, g1: &[Fr], g2: &[Fr], seed: u64, spans: &[&str]) {
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
    for name in ["fixed_base_g1", "fixed_base_g2", "normalize"].iter().chain(spans) {
        assert!(ph.iter().any(|p| p.name == **name), "phase {name} missing");
    }
    let g1p = ph.iter().find(|p| p.name == "fixed_base_g1").unwrap();
    assert_eq!(g1p.extra["points"], g1.len());
}

fn setup_record(circuit: &str, backend: &str, dir: &Path, seed: u64) -> Record {
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

/// `setup --backend BACKEND` and `--backend cpu` with the same toxic seed:
/// the record names the backend and has every setup phase, and both the
/// parameter files and the verifying keys are byte-identical. Returns the
/// directory holding BACKEND's files.
pub fn setup_equals_cpu(circuit: &str, backend: &str, seed: u64) -> tempfile::TempDir {
    let (gd, cd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let g = setup_record(circuit, backend, gd.path(), seed);
    setup_record(circuit, "cpu", cd.path(), seed);
    assert_eq!(
        g.fixed_base.as_deref(),
        Some(backend),
        "the record names the fixed-base engine"
    );
    g.check_phases().unwrap();
    let id = &g.circuit.shape_id;
    let file = |d: &Path| std::fs::read(phaseline_prover::groth16::cache::cache_path(d, id)).unwrap();
    let (gp, cp) = (file(gd.path()), file(cd.path()));
    assert!(gp.len() > 1000 && gp == cp, "{circuit}: parameter files differ");
    let vk = |d: &Path| std::fs::read(vk_path(d, id)).unwrap();
    assert_eq!(vk(gd.path()), vk(cd.path()), "{circuit}: verifying keys differ");
    gd
}

/// One proof of `circuit` by `prover` with the parameters in `dir`, verified.
pub fn prove_verifies(circuit: &str, prover: phaseline_prover::record::Backend, dir: &Path, seed: u64) {
    let o = RunOpts {
        seed,
        ..RunOpts::new(circuit, prover, dir)
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
