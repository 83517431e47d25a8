//! Proof assembly from the MSM results and the randomizers r, s.

use super::Proof;
use bellperson::groth16::VerifyingKey;
use blstrs::{Bls12, G1Projective, G2Projective, Scalar as Fr};
use group::{prime::PrimeCurveAffine, Curve};

/// MSM results of one circuit.
pub struct MsmResults {
    pub h: G1Projective,
    pub l: G1Projective,
    /// A over inputs and aux.
    pub a: G1Projective,
    /// B in G1 over inputs and aux.
    pub b_g1: G1Projective,
    /// B in G2 over inputs and aux.
    pub b_g2: G2Projective,
}

/// A = alpha + sum(A) + r*delta; B = beta + sum(B) + s*delta;
/// C = s*A_sum + r*B1_sum + r*s*delta + s*alpha + r*beta + H + L.
pub fn assemble(vk: &VerifyingKey<Bls12>, m: &MsmResults, r: Fr, s: Fr) -> Proof {
    let delta_g1 = vk.delta_g1.to_curve();
    let g_a = vk.alpha_g1.to_curve() + m.a + delta_g1 * r;
    let g_b = vk.beta_g2.to_curve() + m.b_g2 + vk.delta_g2.to_curve() * s;
    let g_c =
        m.a * s + m.b_g1 * r + delta_g1 * (r * s) + vk.alpha_g1.to_curve() * s + vk.beta_g1.to_curve() * r + m.h + m.l;
    Proof {
        a: g_a.to_affine(),
        b: g_b.to_affine(),
        c: g_c.to_affine(),
    }
}
