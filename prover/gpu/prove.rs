//! The CUDA engine ([`CudaEngine`]): two device calls for all partitions.
//! H first (`pl_prove_h`: NTTs, quotient, H MSM), which needs no split
//! scalars, so the driver runs `msm_prep` on the CPU meanwhile
//! ([`MsmEngine::h_ahead`]); then the split MSMs (`pl_prove_msms`): L, A,
//! B_G1 and B_G2 ([`BG2Plan::Engine`]). The driver does the rest (assembly
//! with r, s). B_G2 is the B split against
//! the G2 points on the device: ones by batch addition, the tail by
//! Pippenger in G2. With `par-bg2` (A4) a second host thread drives B_G2
//! beside the G1 work; without it B_G2 follows the G1 work.

use super::device::{self, DeviceSrs};
use super::ffi::{self, PhaseBuf, PlAbc, PlCircuit, PlOpts};
use super::ops::{feature_opts, to_g1, to_g2};
use super::prep::RawSplit;
use super::timing;
use crate::cpu::ntt::Domain;
use crate::error::{DeviceUpload, ProverError};
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use crate::prove::b_g2::BG2Plan;
use crate::prove::driver;
use crate::prove::engine::{HWork, MsmEngine, MsmWork, Msms};
use crate::prove::msm_prep::CircuitSplits;
use crate::synth::Synthesized;
use blst::{blst_p1, blst_p2};
use blstrs::{G1Projective, Scalar as Fr};
use std::sync::Arc;
use std::time::Instant;

/// Test hooks of the backend (all off in normal runs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    /// Ask the device for one extra allocation of this many bytes.
    pub inject_alloc_bytes: u64,
}

fn h_gpu(
    srs: &DeviceSrs,
    synths: &[Synthesized],
    d: &Domain,
    o: &PlOpts,
    rec: &Recorder,
) -> Result<Vec<G1Projective>, ProverError> {
    if synths
        .iter()
        .any(|s| s.b.len() != s.a.len() || s.c.len() != s.a.len() || s.a.len() > d.n)
    {
        return Err(ProverError::InvalidArgument(
            "a, b, c must share one length within the domain".into(),
        ));
    }
    let abc: Vec<PlAbc> = synths
        .iter()
        .map(|s| PlAbc {
            a: s.a.as_ptr().cast(),
            b: s.b.as_ptr().cast(),
            c: s.c.as_ptr().cast(),
            len: s.a.len(),
        })
        .collect();
    // One a, b, c buffer of the domain's length serves every partition in turn.
    device::ensure_free(
        DeviceUpload::HBuffers,
        3 * d.n as u64 * std::mem::size_of::<Fr>() as u64,
    )?;
    let z = d.z_inv_on_coset();
    let mut out = vec![blst_p1::default(); synths.len()];
    let mut buf = PhaseBuf::new(8 * synths.len() + 8);
    let t0 = Instant::now();
    // SAFETY: every pointer refers to data owned by `synths`/`out`, alive and
    // unmoved for the call; `out` holds one Jacobian point per circuit.
    let e = unsafe {
        ffi::pl_prove_h(
            srs.h.raw(),
            abc.as_ptr(),
            abc.len(),
            d.log2,
            (&z as *const Fr).cast(),
            o,
            out.as_mut_ptr().cast(),
            &mut buf.raw,
        )
    };
    ffi::check(e)?;
    timing::merge(rec, t0, &buf, None, None);
    Ok(out.into_iter().map(to_g1).collect())
}

fn msms_gpu(
    srs: &DeviceSrs,
    splits: &[CircuitSplits],
    h: Vec<G1Projective>,
    d: &Domain,
    o: &PlOpts,
    rec: &Recorder,
) -> Result<Vec<Msms>, ProverError> {
    if h.len() != splits.len() {
        return Err(ProverError::Internal(format!(
            "{} H results for {} circuits",
            h.len(),
            splits.len()
        )));
    }
    let circuits: Vec<PlCircuit> = splits
        .iter()
        .map(|sp| PlCircuit {
            l: sp.l.raw(),
            a_q: sp.a.raw(),
            b_q: sp.b.raw(),
        })
        .collect();
    if crate::selftest::ENABLED {
        // Harness self-test build only: the fixed delay as an L-MSM span.
        rec.time("msm_l", crate::selftest::slow_l_msm);
    }
    let mut g1 = vec![blst_p1::default(); 3 * splits.len()];
    let mut g2 = vec![blst_p2::default(); splits.len()];
    let mut buf = PhaseBuf::new(40 * splits.len() + 16);
    let t0 = Instant::now();
    // SAFETY: every pointer refers to data owned by `splits`/`g1`/`g2`, alive
    // and unmoved for the call; lengths are passed alongside; `g1` holds 3
    // and `g2` one Jacobian point per circuit.
    let e = unsafe {
        ffi::pl_prove_msms(
            srs.l.raw(),
            srs.a.raw(),
            srs.b_g1.raw(),
            srs.b_g2.raw(),
            circuits.as_ptr(),
            circuits.len(),
            d.n as u64,
            o,
            g1.as_mut_ptr().cast(),
            g2.as_mut_ptr().cast(),
            &mut buf.raw,
        )
    };
    ffi::check(e)?;
    timing::merge(rec, t0, &buf, None, None);
    Ok(g1
        .chunks(3)
        .zip(g2)
        .zip(h)
        .map(|((c, b_g2), h)| Msms {
            h,
            l: to_g1(c[0]),
            a: to_g1(c[1]),
            b_g1: to_g1(c[2]),
            b_g2: Some(to_g2(b_g2)),
        })
        .collect())
}

/// The CUDA engine: H ahead of the split scalars, then every split MSM of
/// every circuit, B_G2 included ([`BG2Plan::Engine`]).
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

    fn h_ahead(&self, (o, srs): &Self::Batch, w: &HWork<'_>) -> Option<Result<Vec<G1Projective>, ProverError>> {
        Some(h_gpu(srs, w.synths, w.d, o, w.rec))
    }

    fn msms(
        &self,
        (o, srs): &Self::Batch,
        w: &MsmWork<'_>,
        h: Option<Vec<G1Projective>>,
    ) -> Result<Vec<Msms>, ProverError> {
        let h = h.ok_or_else(|| ProverError::Internal("the CUDA engine computes H ahead".into()))?;
        msms_gpu(srs, w.splits, h, w.d, o, w.rec)
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
