//! Criterion microbenches: synth-only per preset, one NTT, one MSM, and the
//! split MSMs against plain Pippenger on witness-shaped scalars.

use blstrs::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar as Fr};
use criterion::{criterion_group, criterion_main, Criterion};
use ff::Field;
use group::{Curve, Group};
use phaseline_prover::circuits::presets::preset;
use phaseline_prover::cpu::msm::{msm_g1, msm_g2, scalar_bytes};
use phaseline_prover::cpu::ntt::Domain;
use phaseline_prover::cpu::split::{split_msm_g1, split_msm_g2};
use phaseline_prover::synth::synthesize;
use rand_core::SeedableRng;

fn synth(c: &mut Criterion) {
    for name in ["tiny", "small"] {
        let circ = preset(name, 1).unwrap();
        c.bench_function(&format!("synth/{name}"), |b| {
            b.iter(|| synthesize(&circ, None).unwrap())
        });
    }
}

fn ntt(c: &mut Criterion) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let d = Domain::for_len(1 << 14).unwrap();
    let v: Vec<Fr> = (0..d.n).map(|_| Fr::random(&mut rng)).collect();
    c.bench_function("ntt/2^14", |b| {
        b.iter(|| {
            let mut x = v.clone();
            d.ntt(&mut x);
            x
        })
    });
}

fn msm(c: &mut Criterion) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    let n = 1 << 12;
    let pts: Vec<G1Affine> = (0..n).map(|_| G1Projective::random(&mut rng).to_affine()).collect();
    let sc: Vec<Fr> = (0..n).map(|_| Fr::random(&mut rng)).collect();
    let bytes = scalar_bytes(&sc);
    c.bench_function("msm_g1/2^12", |b| b.iter(|| msm_g1(&pts, &bytes)));
}

/// Scalars shaped like `small`'s witness: 48% zeros, 44% ones, 8% others.
fn witness_like(n: usize, rng: &mut rand_chacha::ChaCha8Rng) -> Vec<Fr> {
    (0..n)
        .map(|i| match i % 25 {
            0..=11 => Fr::ZERO,
            12..=22 => Fr::ONE,
            _ => Fr::random(&mut *rng),
        })
        .collect()
}

fn split(c: &mut Criterion) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let n = 1 << 13;
    let sc = witness_like(n, &mut rng);
    let g1: Vec<G1Affine> = (0..n).map(|_| G1Projective::random(&mut rng).to_affine()).collect();
    let g2: Vec<G2Affine> = (0..n).map(|_| G2Projective::random(&mut rng).to_affine()).collect();
    c.bench_function("witness_msm_g1/2^13/plain", |b| {
        b.iter(|| msm_g1(&g1, &scalar_bytes(&sc)))
    });
    c.bench_function("witness_msm_g1/2^13/split", |b| b.iter(|| split_msm_g1(&g1, &sc)));
    c.bench_function("witness_msm_g2/2^13/plain", |b| {
        b.iter(|| msm_g2(&g2, &scalar_bytes(&sc)))
    });
    c.bench_function("witness_msm_g2/2^13/split", |b| b.iter(|| split_msm_g2(&g2, &sc)));
}

/// `msm_prep` of one synthesized `medium-mix3` circuit (2^20 rows, about 3%
/// of aux neither 0 nor 1): the split straight from the witness against the
/// split of density-filtered copies, as `circuit_splits` did before.
fn msm_prep(c: &mut Criterion) {
    use phaseline_prover::prove::msm_prep::{a_scalars, b_scalars, circuit_splits, Split};
    let circ = preset("medium-mix3", 1).unwrap();
    let s = synthesize(&circ, None).unwrap();
    let mut g = c.benchmark_group("msm_prep/medium-mix3");
    g.bench_function("from the witness", |b| b.iter(|| circuit_splits(&s)));
    g.bench_function("filtered copies", |b| {
        b.iter(|| {
            rayon::join(
                || rayon::join(|| Split::of(&s.aux), || Split::of(&a_scalars(&s))),
                || Split::of(&b_scalars(&s)),
            )
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = synth, ntt, msm, split, msm_prep
}
criterion_main!(benches);
