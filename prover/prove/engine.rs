//! The G1 engine: what a proving backend computes itself (H and the L, A and
//! B_G1 MSMs of every circuit) and which plan B_G2, always on the CPU,
//! follows beside it. Everything else of a proof is the driver's
//! (`super::driver`).

use super::b_g2::BG2Plan;
use super::msm_prep::CircuitSplits;
use crate::cpu::ntt::Domain;
use crate::error::ProverError;
use crate::groth16::Params;
use crate::phases::Recorder;
use crate::synth::Synthesized;
use blstrs::G1Projective;

/// One circuit's G1 MSM results.
#[derive(Clone, Copy, Debug)]
pub struct G1Msms {
    pub h: G1Projective,
    pub l: G1Projective,
    pub a: G1Projective,
    pub b_g1: G1Projective,
}

/// What the G1 work of one batch reads.
#[derive(Clone, Copy)]
pub struct G1Work<'a> {
    pub p: &'a Params,
    pub synths: &'a [Synthesized],
    /// Each circuit's scalars split by `msm_prep`.
    pub splits: &'a [CircuitSplits],
    pub d: &'a Domain,
    pub rec: &'a Recorder,
}

/// A proving backend's G1 work over one batch of circuits of one shape.
pub trait G1Engine: Sync {
    /// What the engine prepares once per batch, before `msm_prep` (the CUDA
    /// engine: the device and the parameters uploaded to it).
    type Batch: Sync;

    /// Prepares the batch; its phases go to `rec`.
    fn begin(&self, p: &Params, rec: &Recorder) -> Result<Self::Batch, ProverError>;

    /// H and the L, A, B_G1 MSMs of every circuit, in circuit order.
    fn g1(&self, batch: &Self::Batch, w: &G1Work<'_>) -> Result<Vec<G1Msms>, ProverError>;

    /// How B_G2 runs beside this engine (cut, recorded, scheduled).
    fn b_g2_plan(&self) -> BG2Plan;
}
