//! Groth16 parameters from a recorded shape and toxic waste: the QAP at tau
//! through the Lagrange basis ([`super::qap`]), every query's scalars, then
//! every query point by one fixed-base engine ([`FixedBase`]).

use super::cpu_fixed_base::CpuFixedBase;
use super::error::SetupError;
use super::fixed_base::{FixedBase, FixedBaseJob};
use super::qap;
use super::toxic::Toxic;
use crate::groth16::Params;
use crate::phases::Recorder;
use crate::shape::{Shape, ShapeError};
use bellperson::groth16::VerifyingKey;
use blstrs::Scalar as Fr;
use ff::{Field, PrimeField};
use group::Curve;
use rayon::prelude::*;
use std::sync::Arc;

/// log2 of the domain covering `rows` rows, as bellperson sizes it.
pub fn domain_log2(rows: usize) -> Result<u32, SetupError> {
    let log2 = rows.max(1).next_power_of_two().trailing_zeros();
    if log2 >= Fr::S {
        return Err(SetupError::TooLarge(rows));
    }
    Ok(log2)
}

/// The scalars of every query, before the fixed-base multiplications.
pub struct QueryScalars {
    /// tau^i * Z(tau) / delta for i in 0..n-1.
    pub h: Vec<Fr>,
    /// u_j(tau) for the variables where it is nonzero, in variable order.
    pub a: Vec<Fr>,
    /// v_j(tau) for the variables where it is nonzero, in variable order.
    pub b: Vec<Fr>,
    /// (beta u_j + alpha v_j + w_j) / gamma for the inputs.
    pub ic: Vec<Fr>,
    /// (beta u_j + alpha v_j + w_j) / delta for the aux variables.
    pub l: Vec<Fr>,
    pub domain_log2: u32,
}

/// Evaluates the QAP at tau and derives every query's scalars.
pub fn query_scalars(shape: &Shape, t: &Toxic) -> Result<QueryScalars, SetupError> {
    crate::shape::file::check_structure(shape).map_err(|reason| ShapeError::Invalid {
        path: format!("(shape `{}` in memory)", shape.shape_id),
        reason,
    })?;
    let log2 = domain_log2(shape.rows())?;
    let n = 1usize << log2;
    let inv = |x: &Fr, what| Option::<Fr>::from(x.invert()).ok_or(SetupError::Degenerate(what));
    let (gamma_inv, delta_inv) = (inv(&t.gamma, "gamma")?, inv(&t.delta, "delta")?);
    let lag = qap::lagrange_at(&t.tau, log2);
    let q = qap::eval(shape, &lag);
    drop(lag);
    let nonzero = |v: &[Fr]| -> Vec<Fr> { v.par_iter().copied().filter(|x| !bool::from(x.is_zero())).collect() };
    let (a, b) = (nonzero(&q.u), nonzero(&q.v));
    let ni = shape.num_inputs;
    let ext = |range: std::ops::Range<usize>, inv: Fr| -> Vec<Fr> {
        range
            .into_par_iter()
            .map(|j| (t.beta * q.u[j] + t.alpha * q.v[j] + q.w[j]) * inv)
            .collect()
    };
    let ic = ext(0..ni, gamma_inv);
    let l = ext(ni..shape.num_vars(), delta_inv);
    if let Some(j) = l.par_iter().position_first(|x| bool::from(x.is_zero())) {
        return Err(SetupError::Unconstrained(j));
    }
    let h = qap::geometric(qap::vanishing(&t.tau, n) * delta_inv, t.tau, n - 1);
    Ok(QueryScalars {
        h,
        a,
        b,
        ic,
        l,
        domain_log2: log2,
    })
}

/// The verifying key's fixed points (all but IC).
fn vk(t: &Toxic, ic: Vec<blstrs::G1Affine>) -> VerifyingKey<blstrs::Bls12> {
    let (g1, g2) = (t.g1.to_affine(), t.g2.to_affine());
    VerifyingKey {
        alpha_g1: (g1 * t.alpha).to_affine(),
        beta_g1: (g1 * t.beta).to_affine(),
        beta_g2: (g2 * t.beta).to_affine(),
        gamma_g2: (g2 * t.gamma).to_affine(),
        delta_g1: (g1 * t.delta).to_affine(),
        delta_g2: (g2 * t.delta).to_affine(),
        ic,
    }
}

/// Groth16 parameters for `shape` with toxic waste `t`, the query points
/// computed by `fb`. Records `qap_eval` (and the backend's phases) on `rec`.
pub fn setup(shape: &Shape, t: &Toxic, fb: &dyn FixedBase, rec: &Recorder) -> Result<Params, SetupError> {
    let s = rec.time("qap_eval", || query_scalars(shape, t))?;
    rec.annotate("qap_eval", "domain_log2", s.domain_log2.into());
    let job = FixedBaseJob {
        g1: t.g1,
        g1_scalars: vec![&s.h, &s.a, &s.b, &s.ic, &s.l],
        g2: t.g2,
        g2_scalars: vec![&s.b],
    };
    let out = fb.run(&job, rec)?;
    drop(job);
    let want = [s.h.len(), s.a.len(), s.b.len(), s.ic.len(), s.l.len()];
    let got: Vec<usize> = out.g1.iter().map(|v| v.len()).collect();
    if got != want || out.g2.len() != 1 || out.g2[0].len() != s.b.len() {
        return Err(SetupError::Backend(format!(
            "{}: G1 segment sizes {got:?}, expected {want:?}",
            fb.name()
        )));
    }
    drop(s);
    let [h, a, b_g1, ic, l]: [Vec<blstrs::G1Affine>; 5] = out
        .g1
        .try_into()
        .map_err(|_| SetupError::Backend("five G1 segments".into()))?;
    let b_g2 = out.g2.into_iter().next().unwrap_or_default();
    Ok(Params {
        vk: vk(t, ic),
        h: Arc::new(h),
        l: Arc::new(l),
        a: Arc::new(a),
        b_g1: Arc::new(b_g1),
        b_g2: Arc::new(b_g2),
    })
}

/// Convenience for tests and the prove path: the parameters of `shape` on the CPU backend.
pub fn setup_cpu(shape: &Shape, t: &Toxic) -> Result<Params, SetupError> {
    setup(shape, t, &CpuFixedBase, &Recorder::new())
}
