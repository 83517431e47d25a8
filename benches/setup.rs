//! Criterion microbenches of the setup's fixed-base path: table build, the
//! windowed multiplication per scalar, batch normalization, against blst's
//! variable-base multiplication (what a wNAF-per-point setup pays). Single
//! thread: `mul_batch` (mixed Jacobian additions) and `mul_batch_affine`
//! (affine additions with batched inversions).

use blstrs::{G1Affine, G1Projective, G2Projective, Scalar as Fr};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ff::Field;
use group::Group;
use phaseline_prover::setup::normalize::Normalize;
use phaseline_prover::setup::table::Table;
use rand_core::SeedableRng;

const N: usize = 1 << 14;

fn fixed_base(c: &mut Criterion) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let (g1, g2) = (G1Projective::random(&mut rng), G2Projective::random(&mut rng));
    let sc: Vec<Fr> = (0..N).map(|_| Fr::random(&mut rng)).collect();
    let mut g = c.benchmark_group("fixed_base");
    g.sample_size(10);
    g.bench_function("g1_table_build_w12", |b| b.iter(|| Table::new(g1, 12)));
    for w in [12, 16] {
        let t = Table::new(g1, w);
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function(format!("g1_mul_w{w}_2^14"), |b| {
            let mut out = vec![G1Projective::identity(); N];
            b.iter(|| t.mul_batch(&sc, &mut out))
        });
        g.bench_function(format!("g1_mul_affine_w{w}_2^14"), |b| {
            let mut out = vec![G1Affine::default(); N];
            b.iter(|| {
                out.chunks_mut(2048)
                    .zip(sc.chunks(2048))
                    .for_each(|(o, s)| t.mul_batch_affine(s, o))
            })
        });
    }
    let t2 = Table::new(g2, 12);
    g.bench_function("g2_mul_w12_2^14", |b| {
        let mut out = vec![G2Projective::identity(); N];
        b.iter(|| t2.mul_batch(&sc, &mut out))
    });
    g.throughput(Throughput::Elements(1024));
    g.bench_function("g1_variable_base_2^10", |b| {
        b.iter(|| {
            sc[..1024]
                .iter()
                .map(|s| g1 * s)
                .fold(G1Projective::identity(), |a, x| a + x)
        })
    });
    let proj: Vec<G1Projective> = sc.iter().map(|s| g1 * s).collect();
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("g1_normalize_2^14", |b| {
        let mut out = vec![G1Affine::default(); N];
        b.iter(|| G1Projective::normalize_par(&proj, &mut out))
    });
    g.finish();
}

criterion_group!(benches, fixed_base);
criterion_main!(benches);
