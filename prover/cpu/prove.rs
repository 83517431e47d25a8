//! The CPU backend: H through our NTT, the five MSMs on all cores, assembly.
//! H is a plain Pippenger MSM (its scalars are dense); L, A, B_G1 and B_G2
//! take witness values and are split by value once per circuit (`msm_prep`,
//! the GPU backend's `circuit_splits`), then summed by `split`. With `par-bg2` (A4)
//! the B_G2 MSMs run concurrently with the G1 work; without it they run
//! after it.

use super::msm::{msm_g1, msm_g1_spread, msm_g2_spread, scalar_bytes, Spread};
use super::ntt::Domain;
use super::split::split_sum;
use crate::error::ProverError;
use crate::gpu::prep::{circuit_splits, CircuitSplits};
use crate::groth16::assemble::{assemble, MsmResults};
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use crate::synth::Synthesized;
use blstrs::{G1Projective, G2Projective, Scalar as Fr};
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

fn b_g2_all(p: &Params, splits: &[CircuitSplits], rec: &Recorder) -> Vec<G2Projective> {
    rec.time("msm_b_g2", || {
        splits
            .iter()
            .map(|sp| split_sum(&p.b_g2, &sp.b, Spread::Shared, msm_g2_spread))
            .collect()
    })
}

struct G1Out {
    h: G1Projective,
    l: G1Projective,
    a: G1Projective,
    b_g1: G1Projective,
}

fn g1_all(p: &Params, synths: &[Synthesized], splits: &[CircuitSplits], d: &Domain, rec: &Recorder) -> Vec<G1Out> {
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
        .map(|(((h, l), a), b_g1)| G1Out { h, l, a, b_g1 })
        .collect()
}

/// Proves every synthesized circuit (one shape) with randomizers `rs`.
pub fn prove(p: &Params, synths: &[Synthesized], rs: &[(Fr, Fr)], rec: &Recorder) -> Result<Vec<Proof>, ProverError> {
    let rows = synths.first().map(|s| s.num_constraints()).unwrap_or(0);
    let d = Domain::for_len(rows)
        .ok_or_else(|| ProverError::InvalidArgument("circuit too large for Fr's 2-adicity".into()))?;
    // Each circuit's L, A and B scalars split by value once; B serves B_G1 and B_G2.
    let splits: Vec<CircuitSplits> = rec.time("msm_prep", || synths.par_iter().map(circuit_splits).collect());
    let (g1, g2) = if cfg!(feature = "par-bg2") {
        rayon::join(|| g1_all(p, synths, &splits, &d, rec), || b_g2_all(p, &splits, rec))
    } else {
        let g1 = g1_all(p, synths, &splits, &d, rec);
        (g1, b_g2_all(p, &splits, rec))
    };
    Ok(rec.time("assemble", || {
        g1.into_iter()
            .zip(g2)
            .zip(rs)
            .map(|((g, b_g2), (r, s))| {
                let m = MsmResults {
                    h: g.h,
                    l: g.l,
                    a: g.a,
                    b_g1: g.b_g1,
                    b_g2,
                };
                assemble(&p.vk, &m, *r, *s)
            })
            .collect()
    }))
}
