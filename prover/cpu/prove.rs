//! The CPU engine ([`CpuEngine`]): H through our NTT, the G1 MSMs on all
//! cores. H is a plain Pippenger MSM (its scalars are dense); L, A and B_G1
//! take witness values, split by value once per circuit by the driver
//! (`msm_prep`), then summed by `split`. B_G2 is the driver's
//! ([`BG2Plan::Cpu`]); with `par-bg2` (A4) it runs beside the G1 work in
//! the global pool.

use super::msm::{msm_g1, msm_g1_spread, scalar_bytes, Spread};
use super::ntt::Domain;
use super::split::split_sum;
use crate::error::ProverError;
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use crate::prove::b_g2::BG2Plan;
use crate::prove::driver;
use crate::prove::engine::{MsmEngine, MsmWork, Msms};
use crate::prove::msm_prep::CircuitSplits;
use crate::synth::Synthesized;
use blstrs::{G1Projective, Scalar as Fr};
use rayon::prelude::*;

/// Coefficients of H = (A*B - C) / Z, `n - 1` of them.
pub fn h_coeffs(s: &Synthesized, d: &Domain, rec: &Recorder) -> Vec<Fr> {
    let pad = |v: &[Fr]| {
        let mut x = Vec::with_capacity(d.n);
        x.extend_from_slice(v);
        x.resize(d.n, Fr::from(0u64));
        x
    };
    let (mut a, mut b, mut c) = (pad(&s.a), pad(&s.b), pad(&s.c));
    rec.time_in("intt", Some("ntt_h"), || {
        d.intt(&mut a);
        d.intt(&mut b);
        d.intt(&mut c);
    });
    rec.time_in("coset_ntt", Some("ntt_h"), || {
        d.coset_ntt(&mut a);
        d.coset_ntt(&mut b);
        d.coset_ntt(&mut c);
        let zinv = d.z_inv_on_coset();
        a.par_iter_mut()
            .zip(b.par_iter())
            .zip(c.par_iter())
            .with_min_len(1 << 12)
            .for_each(|((x, y), z)| {
                *x = (*x * y - z) * zinv;
            });
    });
    rec.time_in("coset_intt", Some("ntt_h"), || d.coset_intt(&mut a));
    a.truncate(d.n - 1);
    a
}

fn g1_all(p: &Params, synths: &[Synthesized], splits: &[CircuitSplits], d: &Domain, rec: &Recorder) -> Vec<Msms> {
    let hs: Vec<Vec<Fr>> = rec.time("ntt_h", || synths.iter().map(|s| h_coeffs(s, d, rec)).collect());
    let h: Vec<G1Projective> = rec.time("msm_h", || hs.iter().map(|h| msm_g1(&p.h, &scalar_bytes(h))).collect());
    drop(hs);
    let l: Vec<G1Projective> = rec.time("msm_l", || {
        crate::selftest::slow_l_msm();
        splits
            .iter()
            .map(|sp| split_sum(&p.l, &sp.l, Spread::Shared, msm_g1_spread))
            .collect()
    });
    let a: Vec<G1Projective> = rec.time("msm_a", || {
        splits
            .iter()
            .map(|sp| split_sum(&p.a, &sp.a, Spread::Shared, msm_g1_spread))
            .collect()
    });
    let b: Vec<G1Projective> = rec.time("msm_b_g1", || {
        splits
            .iter()
            .map(|sp| split_sum(&p.b_g1, &sp.b, Spread::Shared, msm_g1_spread))
            .collect()
    });
    h.into_iter()
        .zip(l)
        .zip(a)
        .zip(b)
        .map(|(((h, l), a), b_g1)| Msms {
            h,
            l,
            a,
            b_g1,
            b_g2: None,
        })
        .collect()
}

/// The CPU's engine: H through our NTT, every G1 MSM on all cores.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuEngine;

impl MsmEngine for CpuEngine {
    type Batch = ();

    fn begin(&self, _p: &Params, _rec: &Recorder) -> Result<(), ProverError> {
        Ok(())
    }

    fn msms(&self, _batch: &(), w: &MsmWork<'_>, h: Option<Vec<G1Projective>>) -> Result<Vec<Msms>, ProverError> {
        if h.is_some() {
            return Err(ProverError::Internal("the CPU engine computes H itself".into()));
        }
        Ok(g1_all(w.p, w.synths, w.splits, w.d, w.rec))
    }

    fn b_g2_plan(&self) -> BG2Plan {
        BG2Plan::Cpu
    }
}

/// Proves every synthesized circuit (one shape) with randomizers `rs`: the
/// driver on [`CpuEngine`].
pub fn prove(p: &Params, synths: &[Synthesized], rs: &[(Fr, Fr)], rec: &Recorder) -> Result<Vec<Proof>, ProverError> {
    driver::prove(&CpuEngine, p, synths, rs, rec)
}
