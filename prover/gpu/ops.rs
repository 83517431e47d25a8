//! Single GPU operations (NTT, the H polynomial, one split MSM), used by the
//! prover and checked one by one against the CPU backend in the tests.

use super::device::DevicePoints;
use super::ffi::{self, Group, PhaseBuf, PlOpts};
use super::prep::RawSplit;
use super::timing;
use crate::cpu::ntt::Domain;
use crate::error::ProverError;
use crate::phases::Recorder;
use crate::prove::msm_prep::Split;
use crate::synth::Synthesized;
use blst::{blst_p1, blst_p2};
use blstrs::{G1Projective, G2Projective, Scalar as Fr};
use std::ffi::c_void;
use std::time::Instant;

/// The options the enabled cargo features select.
pub fn feature_opts() -> PlOpts {
    PlOpts {
        pin: cfg!(feature = "pin") as u32,
        window_tune: cfg!(feature = "window-tune") as u32,
        shared_window_n: 0,
        inject_alloc_bytes: 0,
        par_bg2: cfg!(feature = "par-bg2") as u32,
        pad: 0,
    }
}

pub(crate) fn to_g1(p: blst_p1) -> G1Projective {
    // SAFETY: G1Projective is a transparent wrapper of blst_p1 (Jacobian,
    // Montgomery form), the layout sppark's jacobian_t<fp_t> has.
    unsafe { std::mem::transmute::<blst_p1, G1Projective>(p) }
}

pub(crate) fn to_g2(p: blst_p2) -> G2Projective {
    // SAFETY: G2Projective is a transparent wrapper of blst_p2 (Jacobian over
    // Fp2, Montgomery form), the layout sppark's jacobian_t<fp2_t> has.
    unsafe { std::mem::transmute::<blst_p2, G2Projective>(p) }
}

/// In-place NTT of a power-of-two-long vector (natural order in and out).
pub fn ntt(v: &mut [Fr], inverse: bool, coset: bool) -> Result<(), ProverError> {
    if !v.len().is_power_of_two() {
        return Err(ProverError::InvalidArgument("NTT length must be a power of two".into()));
    }
    let lg = v.len().trailing_zeros();
    // SAFETY: Fr is blst_fr (32 bytes, Montgomery), sppark's fr_t layout.
    ffi::check(unsafe { ffi::pl_ntt(v.as_mut_ptr().cast(), lg, inverse as u32, coset as u32) })
}

/// The `n - 1` coefficients of H = (A*B - C) / Z, computed on the device.
pub fn h_coeffs(s: &Synthesized, d: &Domain, opts: &PlOpts, rec: &Recorder) -> Result<Vec<Fr>, ProverError> {
    let len = s.a.len();
    if s.b.len() != len || s.c.len() != len || len > d.n {
        return Err(ProverError::InvalidArgument(
            "a, b, c must share one length within the domain".into(),
        ));
    }
    let mut out = vec![Fr::from(0u64); d.n];
    let z = d.z_inv_on_coset();
    let mut buf = PhaseBuf::new(16);
    let t0 = Instant::now();
    // SAFETY: all buffers hold `len` (inputs) or `d.n` (output) elements.
    let e = unsafe {
        ffi::pl_h_poly(
            s.a.as_ptr().cast(),
            s.b.as_ptr().cast(),
            s.c.as_ptr().cast(),
            len,
            d.log2,
            (&z as *const Fr).cast(),
            out.as_mut_ptr().cast(),
            opts,
            &mut buf.raw,
        )
    };
    ffi::check(e)?;
    timing::merge(rec, t0, &buf, None, None);
    out.truncate(d.n - 1);
    Ok(out)
}

/// One split MSM on the device; `out` receives one Jacobian point of
/// `points`' group.
fn split_msm_into(
    points: &DevicePoints,
    group: Group,
    scalars: &[Fr],
    opts: &PlOpts,
    rec: &Recorder,
    out: *mut c_void,
) -> Result<(), ProverError> {
    if points.group != group {
        return Err(ProverError::InvalidArgument(format!(
            "a {group:?} MSM over {:?} points",
            points.group
        )));
    }
    if scalars.len() > points.n {
        return Err(ProverError::InvalidArgument(format!(
            "{} scalars for {} points",
            scalars.len(),
            points.n
        )));
    }
    let split = rec.time("msm_prep", || Split::of(scalars));
    let job = split.raw();
    let mut buf = PhaseBuf::new(16);
    let t0 = Instant::now();
    // SAFETY: job points into `split`, alive for the call; out holds one
    // Jacobian point of the group (checked above).
    let e = unsafe { ffi::pl_split_msm(points.raw(), &job, opts, out, &mut buf.raw) };
    ffi::check(e)?;
    timing::merge(rec, t0, &buf, None, None);
    Ok(())
}

/// sum scalars[i] * points[i] over device G1 points, split by scalar class.
pub fn split_msm_g1(
    points: &DevicePoints,
    scalars: &[Fr],
    opts: &PlOpts,
    rec: &Recorder,
) -> Result<G1Projective, ProverError> {
    let mut out = blst_p1::default();
    split_msm_into(points, Group::G1, scalars, opts, rec, (&mut out as *mut blst_p1).cast())?;
    Ok(to_g1(out))
}

/// sum scalars[i] * points[i] over device G2 points, split by scalar class.
pub fn split_msm_g2(
    points: &DevicePoints,
    scalars: &[Fr],
    opts: &PlOpts,
    rec: &Recorder,
) -> Result<G2Projective, ProverError> {
    let mut out = blst_p2::default();
    split_msm_into(points, Group::G2, scalars, opts, rec, (&mut out as *mut blst_p2).cast())?;
    Ok(to_g2(out))
}
