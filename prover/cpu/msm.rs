//! Multi-scalar multiplication on the CPU: blst's Pippenger on contiguous
//! affine points, split across rayon threads.

use blst::{blst_p1, blst_p1_affine, blst_p2, blst_p2_affine, limb_t};
use blstrs::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar as Fr};
use group::Group;
use rayon::prelude::*;

/// How finely one MSM is cut into rayon tasks. Witness tails are small (a
/// few thousand points): cut at 1,024 points, `medium`'s 3,439-point B_G2
/// tail ran on 4 of 16 threads when it was the only work in flight. Cutting
/// finer costs more work in all (each Pippenger call pays its doublings and
/// bucket reduction), which pays only when threads would otherwise idle.
/// On the H200 host (16 cores) `Wide` took B_G2 at `medium` x1 from 105 to
/// 63 ms (median of 20) but `medium` x10 from 470 to 503 ms, so the GPU
/// backend picks it only for one partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// Other CPU work runs beside it (several partitions at once): tasks of
    /// at least 1,024 points, and 4,096 in a ones sum.
    Shared,
    /// It is the only CPU work in flight: one task per thread, down to 256
    /// points per Pippenger call and 1,024 per ones-sum task.
    Wide,
}

impl Spread {
    /// `Wide` for a single partition, `Shared` for several.
    pub fn for_partitions(n: usize) -> Spread {
        if n <= 1 {
            Spread::Wide
        } else {
            Spread::Shared
        }
    }

    fn min_chunk(self) -> usize {
        match self {
            Spread::Shared => 1 << 10,
            Spread::Wide => 1 << 8,
        }
    }

    /// Points per task when summing `n` points by additions.
    pub fn ones_chunk(self, n: usize) -> usize {
        match self {
            Spread::Shared => 1 << 12,
            Spread::Wide => n.div_ceil(rayon::current_num_threads().max(1)).max(1 << 10),
        }
    }
}

/// Canonical little-endian bytes of each scalar, as blst wants them.
pub fn scalar_bytes(scalars: &[Fr]) -> Vec<[u8; 32]> {
    scalars
        .par_iter()
        .with_min_len(1 << 12)
        .map(|s| s.to_bytes_le())
        .collect()
}

fn chunk_len(n: usize, spread: Spread) -> usize {
    (n.div_ceil(rayon::current_num_threads().max(1))).max(spread.min_chunk())
}

fn g1_chunk(points: &[G1Affine], scalars: &[[u8; 32]]) -> G1Projective {
    let n = points.len().min(scalars.len());
    if n == 0 {
        return G1Projective::identity();
    }
    let mut ret = blst_p1::default();
    unsafe {
        let scratch_len = blst::blst_p1s_mult_pippenger_scratch_sizeof(n) / std::mem::size_of::<limb_t>();
        let mut scratch: Vec<limb_t> = vec![0; scratch_len.max(1)];
        // G1Affine is repr(transparent) over blst_p1_affine.
        let p: [*const blst_p1_affine; 2] = [points.as_ptr() as *const blst_p1_affine, std::ptr::null()];
        let s: [*const u8; 2] = [scalars.as_ptr() as *const u8, std::ptr::null()];
        blst::blst_p1s_mult_pippenger(&mut ret, p.as_ptr(), n, s.as_ptr(), 255, scratch.as_mut_ptr());
        std::mem::transmute::<blst_p1, G1Projective>(ret)
    }
}

fn g2_chunk(points: &[G2Affine], scalars: &[[u8; 32]]) -> G2Projective {
    let n = points.len().min(scalars.len());
    if n == 0 {
        return G2Projective::identity();
    }
    let mut ret = blst_p2::default();
    unsafe {
        let scratch_len = blst::blst_p2s_mult_pippenger_scratch_sizeof(n) / std::mem::size_of::<limb_t>();
        let mut scratch: Vec<limb_t> = vec![0; scratch_len.max(1)];
        let p: [*const blst_p2_affine; 2] = [points.as_ptr() as *const blst_p2_affine, std::ptr::null()];
        let s: [*const u8; 2] = [scalars.as_ptr() as *const u8, std::ptr::null()];
        blst::blst_p2s_mult_pippenger(&mut ret, p.as_ptr(), n, s.as_ptr(), 255, scratch.as_mut_ptr());
        std::mem::transmute::<blst_p2, G2Projective>(ret)
    }
}

/// sum_i scalars[i] * points[i] in G1 (lengths must match), `Shared` tasks.
pub fn msm_g1(points: &[G1Affine], scalars: &[[u8; 32]]) -> G1Projective {
    msm_g1_spread(points, scalars, Spread::Shared)
}

/// sum_i scalars[i] * points[i] in G1 (lengths must match).
pub fn msm_g1_spread(points: &[G1Affine], scalars: &[[u8; 32]], spread: Spread) -> G1Projective {
    assert_eq!(points.len(), scalars.len(), "G1 MSM length mismatch");
    let c = chunk_len(points.len(), spread);
    points
        .par_chunks(c)
        .zip(scalars.par_chunks(c))
        .map(|(p, s)| g1_chunk(p, s))
        .reduce(G1Projective::identity, |a, b| a + b)
}

/// sum_i scalars[i] * points[i] in G2 (lengths must match), `Shared` tasks.
pub fn msm_g2(points: &[G2Affine], scalars: &[[u8; 32]]) -> G2Projective {
    msm_g2_spread(points, scalars, Spread::Shared)
}

/// sum_i scalars[i] * points[i] in G2 (lengths must match).
pub fn msm_g2_spread(points: &[G2Affine], scalars: &[[u8; 32]], spread: Spread) -> G2Projective {
    assert_eq!(points.len(), scalars.len(), "G2 MSM length mismatch");
    let c = chunk_len(points.len(), spread);
    points
        .par_chunks(c)
        .zip(scalars.par_chunks(c))
        .map(|(p, s)| g2_chunk(p, s))
        .reduce(G2Projective::identity, |a, b| a + b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ff::Field;
    use group::{prime::PrimeCurveAffine, Curve};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn msm_matches_naive_including_zero_one_and_odd_sizes() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for n in [0usize, 1, 5, 1500, 2049] {
            let pts: Vec<G1Affine> = (0..n).map(|_| G1Projective::random(&mut rng).to_affine()).collect();
            let pts2: Vec<G2Affine> = (0..n.min(40))
                .map(|_| G2Projective::random(&mut rng).to_affine())
                .collect();
            let sc: Vec<Fr> = (0..n)
                .map(|i| match i % 3 {
                    0 => Fr::ZERO,
                    1 => Fr::ONE,
                    _ => Fr::random(&mut rng),
                })
                .collect();
            let naive: G1Projective = pts.iter().zip(&sc).map(|(p, s)| p.to_curve() * s).sum();
            assert_eq!(msm_g1(&pts, &scalar_bytes(&sc)), naive);
            let naive2: G2Projective = pts2.iter().zip(&sc).map(|(p, s)| p.to_curve() * s).sum();
            assert_eq!(msm_g2(&pts2, &scalar_bytes(&sc[..pts2.len()])), naive2);
        }
    }

    #[test]
    fn many_short_chunks_sum_to_the_naive_result() {
        // With `Wide`, eight threads cut 2,049 points into chunks of 257 (the
        // last shorter) and 300 G2 points into one chunk at the floor and a
        // short one.
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(8).build().unwrap();
        let pts: Vec<G1Affine> = (0..2049).map(|_| G1Projective::random(&mut rng).to_affine()).collect();
        let sc: Vec<Fr> = (0..2049).map(|_| Fr::random(&mut rng)).collect();
        let naive: G1Projective = pts.iter().zip(&sc).map(|(p, s)| p.to_curve() * s).sum();
        assert_eq!(
            pool.install(|| msm_g1_spread(&pts, &scalar_bytes(&sc), Spread::Wide)),
            naive
        );
        let pts2: Vec<G2Affine> = (0..300).map(|_| G2Projective::random(&mut rng).to_affine()).collect();
        let naive2: G2Projective = pts2.iter().zip(&sc).map(|(p, s)| p.to_curve() * s).sum();
        assert_eq!(
            pool.install(|| msm_g2_spread(&pts2, &scalar_bytes(&sc[..300]), Spread::Wide)),
            naive2
        );
    }
}
