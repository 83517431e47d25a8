//! The proving driver, one for every G1 engine: checks the batch, lets the
//! engine prepare it, splits every circuit's scalars once (`msm_prep`), runs
//! the engine's G1 work and B_G2 (concurrently with `par-bg2`, B_G2 after
//! the G1 work without it), then assembles each proof with its r, s.

use super::b_g2::b_g2_all;
use super::engine::{G1Engine, G1Work};
use super::msm_prep::{circuit_splits, CircuitSplits};
use crate::cpu::ntt::Domain;
use crate::error::ProverError;
use crate::groth16::assemble::{assemble, MsmResults};
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use crate::synth::Synthesized;
use blstrs::Scalar as Fr;
use rayon::prelude::*;

/// Proves every synthesized circuit (one shape) with randomizers `rs` on `engine`.
pub fn prove<E: G1Engine>(
    engine: &E,
    p: &Params,
    synths: &[Synthesized],
    rs: &[(Fr, Fr)],
    rec: &Recorder,
) -> Result<Vec<Proof>, ProverError> {
    if rs.len() != synths.len() {
        return Err(ProverError::InvalidArgument("one (r, s) pair per circuit".into()));
    }
    let rows = synths.first().map(|s| s.num_constraints()).unwrap_or(0);
    let d = Domain::for_len(rows)
        .ok_or_else(|| ProverError::InvalidArgument("circuit too large for Fr's 2-adicity".into()))?;
    if p.h.len() + 1 != d.n {
        return Err(ProverError::InvalidArgument(format!(
            "parameters hold {} H points, the domain needs {}",
            p.h.len(),
            d.n - 1
        )));
    }
    let batch = engine.begin(p, rec)?;
    // Each circuit's L, A and B scalars split by value once; B serves B_G1 and B_G2.
    let splits: Vec<CircuitSplits> = rec.time("msm_prep", || synths.par_iter().map(circuit_splits).collect());
    let work = G1Work {
        p,
        synths,
        splits: &splits,
        d: &d,
        rec,
    };
    let plan = engine.b_g2_plan();
    let g1 = || engine.g1(&batch, &work);
    let b_g2 = || b_g2_all(p, &splits, plan, rec);
    let (g1, g2) = if cfg!(feature = "par-bg2") {
        plan.beside(g1, b_g2)
    } else {
        let g1 = g1()?;
        (Ok(g1), Ok(b_g2()))
    };
    let (g1, g2) = (g1?, g2?);
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
