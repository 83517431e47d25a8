//! The CUDA G1 engine ([`CudaG1`]): H and the L, A, B_G1 MSMs on the GPU in
//! one call for all partitions. The driver does the rest (`msm_prep` and
//! B_G2 on the CPU, assembly with r, s); with `par-bg2` B_G2 runs beside the
//! GPU work in a pool of idle-priority threads ([`BG2Plan::PerPartition`]),
//! after it without.

use super::device::{self, DeviceSrs};
use super::ffi::{self, PhaseBuf, PlCircuit, PlOpts};
use super::ops::{feature_opts, to_g1};
use super::prep::RawSplit;
use super::timing;
use crate::cpu::ntt::Domain;
use crate::error::ProverError;
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use crate::prove::b_g2::BG2Plan;
use crate::prove::driver;
use crate::prove::engine::{G1Engine, G1Msms, G1Work};
use crate::prove::msm_prep::CircuitSplits;
use crate::synth::Synthesized;
use blst::blst_p1;
use blstrs::{G1Projective, Scalar as Fr};
use std::sync::Arc;
use std::time::Instant;

/// Test hooks of the backend (all off in normal runs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    /// Ask the device for one extra allocation of this many bytes.
    pub inject_alloc_bytes: u64,
}

fn g1_gpu(
    srs: &DeviceSrs,
    synths: &[Synthesized],
    splits: &[CircuitSplits],
    d: &Domain,
    o: &PlOpts,
    rec: &Recorder,
) -> Result<Vec<[G1Projective; 4]>, ProverError> {
    let circuits: Vec<PlCircuit> = synths
        .iter()
        .zip(splits)
        .map(|(s, sp)| PlCircuit {
            a: s.a.as_ptr().cast(),
            b: s.b.as_ptr().cast(),
            c: s.c.as_ptr().cast(),
            abc_len: s.a.len(),
            l: sp.l.raw(),
            a_q: sp.a.raw(),
            b_q: sp.b.raw(),
        })
        .collect();
    if synths.iter().any(|s| s.b.len() != s.a.len() || s.c.len() != s.a.len()) {
        return Err(ProverError::InvalidArgument("a, b, c lengths differ".into()));
    }
    let z = d.z_inv_on_coset();
    if crate::selftest::ENABLED {
        // Harness self-test build only: the fixed delay as an L-MSM span.
        rec.time("msm_l", crate::selftest::slow_l_msm);
    }
    let mut out = vec![blst_p1::default(); 4 * synths.len()];
    let mut buf = PhaseBuf::new(32 * synths.len() + 16);
    let t0 = Instant::now();
    // SAFETY: every pointer refers to data owned by `synths`/`splits`/`out`,
    // alive and unmoved for the call; lengths are passed alongside.
    let e = unsafe {
        ffi::pl_prove_g1(
            srs.h.raw(),
            srs.l.raw(),
            srs.a.raw(),
            srs.b_g1.raw(),
            circuits.as_ptr(),
            circuits.len(),
            d.log2,
            (&z as *const Fr).cast(),
            o,
            out.as_mut_ptr().cast(),
            &mut buf.raw,
        )
    };
    ffi::check(e)?;
    timing::merge(rec, t0, &buf, None, None);
    Ok(out
        .chunks(4)
        .map(|c| [to_g1(c[0]), to_g1(c[1]), to_g1(c[2]), to_g1(c[3])])
        .collect())
}

/// The CUDA G1 engine: H and the L, A, B_G1 MSMs of every circuit in one
/// device call; B_G2 beside it on the CPU ([`BG2Plan::PerPartition`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct CudaG1 {
    pub hooks: Hooks,
}

impl G1Engine for CudaG1 {
    /// The options the features and hooks select, and the device copy of the parameters.
    type Batch = (PlOpts, Arc<DeviceSrs>);

    fn begin(&self, p: &Params, rec: &Recorder) -> Result<Self::Batch, ProverError> {
        let mut o = feature_opts();
        o.inject_alloc_bytes = self.hooks.inject_alloc_bytes;
        rec.time("cuda_init", device::init)?;
        let srs = device::srs_for(p, &o, rec)?;
        Ok((o, srs))
    }

    fn g1(&self, (o, srs): &Self::Batch, w: &G1Work<'_>) -> Result<Vec<G1Msms>, ProverError> {
        let g1 = g1_gpu(srs, w.synths, w.splits, w.d, o, w.rec)?;
        Ok(g1.into_iter().map(|[h, l, a, b_g1]| G1Msms { h, l, a, b_g1 }).collect())
    }

    fn b_g2_plan(&self) -> BG2Plan {
        BG2Plan::PerPartition
    }
}

/// Proves every synthesized circuit (one shape) with randomizers `rs` on the
/// GPU: the driver on [`CudaG1`].
pub fn prove(
    p: &Params,
    synths: &[Synthesized],
    rs: &[(Fr, Fr)],
    rec: &Recorder,
    hooks: Hooks,
) -> Result<Vec<Proof>, ProverError> {
    driver::prove(&CudaG1 { hooks }, p, synths, rs, rec)
}
