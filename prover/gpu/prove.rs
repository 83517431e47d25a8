//! The CUDA engine ([`CudaEngine`]): H, the L, A, B_G1 MSMs and B_G2 on the
//! GPU in one call for all partitions ([`BG2Plan::Engine`]). The driver does
//! the rest (`msm_prep`, assembly with r, s). B_G2 is the B split against
//! the G2 points on the device: ones by batch addition, the tail by
//! Pippenger in G2. With `par-bg2` (A4) a second host thread drives B_G2
//! beside the G1 work; without it B_G2 follows the G1 work.

use super::device::{self, DeviceSrs};
use super::ffi::{self, PhaseBuf, PlCircuit, PlOpts};
use super::ops::{feature_opts, to_g1, to_g2};
use super::prep::RawSplit;
use super::timing;
use crate::cpu::ntt::Domain;
use crate::error::ProverError;
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use crate::prove::b_g2::BG2Plan;
use crate::prove::driver;
use crate::prove::engine::{MsmEngine, MsmWork, Msms};
use crate::prove::msm_prep::CircuitSplits;
use crate::synth::Synthesized;
use blst::{blst_p1, blst_p2};
use blstrs::Scalar as Fr;
use std::sync::Arc;
use std::time::Instant;

/// Test hooks of the backend (all off in normal runs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    /// Ask the device for one extra allocation of this many bytes.
    pub inject_alloc_bytes: u64,
}

fn msms_gpu(
    srs: &DeviceSrs,
    synths: &[Synthesized],
    splits: &[CircuitSplits],
    d: &Domain,
    o: &PlOpts,
    rec: &Recorder,
) -> Result<Vec<Msms>, ProverError> {
    if synths.iter().any(|s| s.b.len() != s.a.len() || s.c.len() != s.a.len()) {
        return Err(ProverError::InvalidArgument("a, b, c lengths differ".into()));
    }
    if splits.len() != synths.len() {
        return Err(ProverError::InvalidArgument("one split per circuit".into()));
    }
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
    let z = d.z_inv_on_coset();
    if crate::selftest::ENABLED {
        // Harness self-test build only: the fixed delay as an L-MSM span.
        rec.time("msm_l", crate::selftest::slow_l_msm);
    }
    let mut g1 = vec![blst_p1::default(); 4 * synths.len()];
    let mut g2 = vec![blst_p2::default(); synths.len()];
    let mut buf = PhaseBuf::new(48 * synths.len() + 16);
    let t0 = Instant::now();
    // SAFETY: every pointer refers to data owned by `synths`/`splits`/`g1`/
    // `g2`, alive and unmoved for the call; lengths are passed alongside;
    // `g1` holds 4 and `g2` one Jacobian point per circuit.
    let e = unsafe {
        ffi::pl_prove(
            srs.h.raw(),
            srs.l.raw(),
            srs.a.raw(),
            srs.b_g1.raw(),
            srs.b_g2.raw(),
            circuits.as_ptr(),
            circuits.len(),
            d.log2,
            (&z as *const Fr).cast(),
            o,
            g1.as_mut_ptr().cast(),
            g2.as_mut_ptr().cast(),
            &mut buf.raw,
        )
    };
    ffi::check(e)?;
    timing::merge(rec, t0, &buf, None, None);
    Ok(g1
        .chunks(4)
        .zip(g2)
        .map(|(c, b_g2)| Msms {
            h: to_g1(c[0]),
            l: to_g1(c[1]),
            a: to_g1(c[2]),
            b_g1: to_g1(c[3]),
            b_g2: Some(to_g2(b_g2)),
        })
        .collect())
}

/// The CUDA engine: every MSM of every circuit, B_G2 included, in one
/// device call ([`BG2Plan::Engine`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct CudaEngine {
    pub hooks: Hooks,
}

impl MsmEngine for CudaEngine {
    /// The options the features and hooks select, and the device copy of the parameters.
    type Batch = (PlOpts, Arc<DeviceSrs>);

    fn begin(&self, p: &Params, rec: &Recorder) -> Result<Self::Batch, ProverError> {
        let mut o = feature_opts();
        o.inject_alloc_bytes = self.hooks.inject_alloc_bytes;
        rec.time("cuda_init", device::init)?;
        let srs = device::srs_for(p, &o, rec)?;
        Ok((o, srs))
    }

    fn msms(&self, (o, srs): &Self::Batch, w: &MsmWork<'_>) -> Result<Vec<Msms>, ProverError> {
        msms_gpu(srs, w.synths, w.splits, w.d, o, w.rec)
    }

    fn b_g2_plan(&self) -> BG2Plan {
        BG2Plan::Engine
    }
}

/// Proves every synthesized circuit (one shape) with randomizers `rs` on the
/// GPU: the driver on [`CudaEngine`].
pub fn prove(
    p: &Params,
    synths: &[Synthesized],
    rs: &[(Fr, Fr)],
    rec: &Recorder,
    hooks: Hooks,
) -> Result<Vec<Proof>, ProverError> {
    driver::prove(&CudaEngine { hooks }, p, synths, rs, rec)
}
