//! MSMs over witness-shaped scalars, split by value: zero scalars are
//! skipped, the points of scalars equal to one are summed by additions, and
//! only the rest (the tail) goes through Pippenger over the gathered points.
//! Filecoin-shaped witnesses are mostly zeros and ones (`small`: 27,806 zeros,
//! 25,409 ones and 4,653 others of 57,868 aux values), so the tail is small.
//! Both proving engines split this way, once per circuit (`prove::msm_prep`).

use super::msm::{msm_g1_spread, msm_g2_spread, scalar_bytes, Spread};
use crate::prove::msm_prep::Split;
use blstrs::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar as Fr};
use group::Group;
use rayon::prelude::*;
use std::ops::Add;

/// sum over `split` of scalar * point, with `msm` doing the tail; `spread`
/// sets how finely both the ones sum and the tail's MSM are cut.
pub fn split_sum<A, P>(points: &[A], split: &Split, spread: Spread, msm: impl Fn(&[A], &[[u8; 32]], Spread) -> P) -> P
where
    A: Copy + Send + Sync,
    P: Group + Add<A, Output = P> + Send,
{
    let ones = split
        .ones
        .par_chunks(spread.ones_chunk(split.ones.len()))
        .map(|c| c.iter().fold(P::identity(), |acc, i| acc + points[*i as usize]))
        .reduce(P::identity, |a, b| a + b);
    let tail_pts: Vec<A> = split.tail_idx.par_iter().map(|i| points[*i as usize]).collect();
    ones + msm(&tail_pts, &scalar_bytes(&split.tail), spread)
}

/// sum_i scalars[i] * points[i] in G1, split by value (lengths must match).
pub fn split_msm_g1(points: &[G1Affine], scalars: &[Fr]) -> G1Projective {
    assert_eq!(points.len(), scalars.len(), "G1 MSM length mismatch");
    split_sum(points, &Split::of(scalars), Spread::Shared, msm_g1_spread)
}

/// sum_i scalars[i] * points[i] in G2, split by value (lengths must match).
pub fn split_msm_g2(points: &[G2Affine], scalars: &[Fr]) -> G2Projective {
    assert_eq!(points.len(), scalars.len(), "G2 MSM length mismatch");
    split_sum(points, &Split::of(scalars), Spread::Shared, msm_g2_spread)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::msm::msm_g1;
    use ff::Field;
    use group::{prime::PrimeCurveAffine, Curve};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    fn witness_like(n: usize, rng: &mut ChaCha8Rng) -> Vec<Fr> {
        (0..n)
            .map(|i| match i % 5 {
                0 | 3 => Fr::ZERO,
                1 | 4 => Fr::ONE,
                _ => Fr::random(&mut *rng),
            })
            .collect()
    }

    #[test]
    fn split_msms_match_plain_pippenger() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for n in [0usize, 1, 7, 5000] {
            let g1: Vec<G1Affine> = (0..n).map(|_| G1Projective::random(&mut rng).to_affine()).collect();
            let sc = witness_like(n, &mut rng);
            assert_eq!(split_msm_g1(&g1, &sc), msm_g1(&g1, &scalar_bytes(&sc)), "G1 n={n}");
            let m = n.min(301);
            let g2: Vec<G2Affine> = (0..m).map(|_| G2Projective::random(&mut rng).to_affine()).collect();
            let naive: G2Projective = g2.iter().zip(&sc).map(|(p, s)| p.to_curve() * s).sum();
            assert_eq!(split_msm_g2(&g2, &sc[..m]), naive, "G2 n={m}");
        }
    }

    #[test]
    fn wide_split_sums_match_shared_on_many_threads() {
        // Eight threads: `Wide` cuts the ~2,000 ones into tasks at the 1,024
        // floor and the ~1,000-point tail into 256-point Pippenger calls.
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(8).build().unwrap();
        let g1: Vec<G1Affine> = (0..5000).map(|_| G1Projective::random(&mut rng).to_affine()).collect();
        let sc = witness_like(5000, &mut rng);
        let split = Split::of(&sc);
        let wide = pool.install(|| split_sum(&g1, &split, Spread::Wide, msm_g1_spread));
        assert_eq!(wide, msm_g1(&g1, &scalar_bytes(&sc)));
        assert_eq!(Spread::for_partitions(1), Spread::Wide);
        assert_eq!(Spread::for_partitions(10), Spread::Shared);
    }
}
