//! The MSM engine: what a proving backend computes itself (H and the L, A
//! and B_G1 MSMs of every circuit, and B_G2 where its plan says so). The
//! rest of a proof is the driver's (`super::driver`). An engine may compute
//! H ahead, from the a, b, c evaluations alone ([`MsmEngine::h_ahead`]); the
//! driver then splits the scalars (`msm_prep`) beside it.

use super::b_g2::BG2Plan;
use super::msm_prep::CircuitSplits;
use crate::cpu::ntt::Domain;
use crate::error::ProverError;
use crate::groth16::Params;
use crate::phases::Recorder;
use crate::synth::Synthesized;
use blstrs::{G1Projective, G2Projective};

/// One circuit's MSM results from an engine. `b_g2` is the engine's only
/// under [`BG2Plan::Engine`]; otherwise `None` and the driver's.
#[derive(Clone, Copy, Debug)]
pub struct Msms {
    pub h: G1Projective,
    pub l: G1Projective,
    pub a: G1Projective,
    pub b_g1: G1Projective,
    pub b_g2: Option<G2Projective>,
}

/// What H of one batch reads (no split scalars: H's scalars are dense).
#[derive(Clone, Copy)]
pub struct HWork<'a> {
    pub synths: &'a [Synthesized],
    pub d: &'a Domain,
    pub rec: &'a Recorder,
}

/// What the MSM work of one batch reads.
#[derive(Clone, Copy)]
pub struct MsmWork<'a> {
    pub p: &'a Params,
    pub synths: &'a [Synthesized],
    /// Each circuit's scalars split by `msm_prep`.
    pub splits: &'a [CircuitSplits],
    pub d: &'a Domain,
    pub rec: &'a Recorder,
}

/// A proving backend's MSM work over one batch of circuits of one shape.
pub trait MsmEngine: Sync {
    /// What the engine prepares once per batch, before `msm_prep` (the CUDA
    /// engine: the device and the parameters uploaded to it).
    type Batch: Sync;

    /// Prepares the batch; its phases go to `rec`.
    fn begin(&self, p: &Params, rec: &Recorder) -> Result<Self::Batch, ProverError>;

    /// H of every circuit, in circuit order, computed ahead of the other
    /// MSMs on a thread of the driver's while the CPU splits the scalars
    /// (`msm_prep`). `None` (the default): the engine computes H in [`Self::msms`].
    fn h_ahead(&self, _batch: &Self::Batch, _w: &HWork<'_>) -> Option<Result<Vec<G1Projective>, ProverError>> {
        None
    }

    /// The L, A, B_G1 MSMs of every circuit, in circuit order, with H (its
    /// own, or `h` from [`Self::h_ahead`]), and B_G2 too under [`BG2Plan::Engine`].
    fn msms(
        &self,
        batch: &Self::Batch,
        w: &MsmWork<'_>,
        h: Option<Vec<G1Projective>>,
    ) -> Result<Vec<Msms>, ProverError>;

    /// Who computes B_G2, and how.
    fn b_g2_plan(&self) -> BG2Plan;
}
