//! B_G2 on the CPU, split like the G1 MSMs: ones summed by point additions,
//! the tail by blst's Pippenger over the gathered points (`cpu::split`). It
//! runs beside the GPU's G1 work (`par-bg2`) or after it.

use super::prep::Split;
use crate::cpu::msm::msm_g2;
use crate::cpu::split::split_sum;
use blstrs::{G2Affine, G2Projective};

/// sum over the split of scalar * point in G2.
pub fn b_g2_split(points: &[G2Affine], split: &Split) -> G2Projective {
    split_sum(points, split, msm_g2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use blstrs::Scalar as Fr;
    use ff::Field;
    use group::{prime::PrimeCurveAffine, Curve, Group};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn split_b_g2_matches_plain_msm() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let n = 301;
        let pts: Vec<G2Affine> = (0..n).map(|_| G2Projective::random(&mut rng).to_affine()).collect();
        let sc: Vec<Fr> = (0..n)
            .map(|i| match i % 3 {
                0 => Fr::ZERO,
                1 => Fr::ONE,
                _ => Fr::random(&mut rng),
            })
            .collect();
        let naive: G2Projective = pts.iter().zip(&sc).map(|(p, s)| p.to_curve() * s).sum();
        assert_eq!(b_g2_split(&pts, &Split::of(&sc)), naive);
    }
}
