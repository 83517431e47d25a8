//! Fixed-base batch scalar multiplication: every query point of a setup is
//! `scalar * g1` or `scalar * g2`. The [`FixedBase`] trait is the boundary a
//! fixed-base engine implements: the CPU's (`super::cpu_fixed_base`) and the
//! GPU's (`super::gpu`); `super::fixed_base_choice` picks one by name.

use super::error::SetupError;
use crate::phases::Recorder;
use blstrs::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar as Fr};

/// One batch: segments of scalars for each base; outputs keep the segments.
pub struct FixedBaseJob<'a> {
    pub g1: G1Projective,
    pub g1_scalars: Vec<&'a [Fr]>,
    pub g2: G2Projective,
    pub g2_scalars: Vec<&'a [Fr]>,
}

/// Affine results, one vector per input segment, in order.
pub struct FixedBaseOut {
    pub g1: Vec<Vec<G1Affine>>,
    pub g2: Vec<Vec<G2Affine>>,
}

/// A fixed-base backend. It records the phases `fixed_base_g1`,
/// `fixed_base_g2` and `normalize` on `rec`.
pub trait FixedBase: Sync {
    fn name(&self) -> &'static str;
    fn run(&self, job: &FixedBaseJob<'_>, rec: &Recorder) -> Result<FixedBaseOut, SetupError>;
}
