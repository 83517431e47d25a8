//! The proving driver, one for every MSM engine: checks the batch, lets the
//! engine prepare it, splits every circuit's scalars once (`msm_prep`; beside
//! H where the engine computes H ahead), runs
//! the engine's MSMs and, under [`BG2Plan::Cpu`], B_G2 on the CPU
//! (concurrently with `par-bg2`, after the engine's work without it), then
//! assembles each proof with its r, s.

use super::b_g2::{b_g2_cpu, BG2Plan};
use super::engine::{HWork, MsmEngine, MsmWork};
use super::msm_prep::{circuit_splits, CircuitSplits};
use crate::cpu::ntt::Domain;
use crate::error::ProverError;
use crate::groth16::assemble::{assemble, MsmResults};
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use crate::synth::Synthesized;
use blstrs::{G2Projective, Scalar as Fr};
use rayon::prelude::*;

/// Proves every synthesized circuit (one shape) with randomizers `rs` on `engine`.
pub fn prove<E: MsmEngine>(
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
    // Each circuit's L, A and B scalars split by value once (B serves B_G1
    // and B_G2), beside H where the engine computes it ahead (on the device:
    // then the split is off the critical path while H takes longer).
    let prep = || -> Vec<CircuitSplits> { rec.time("msm_prep", || synths.par_iter().map(circuit_splits).collect()) };
    let hw = HWork { synths, d: &d, rec };
    let (h, splits) = std::thread::scope(|sc| {
        let h = sc.spawn(|| engine.h_ahead(&batch, &hw));
        let splits = prep();
        (h.join(), splits)
    });
    let h = h
        .map_err(|_| ProverError::Internal("the thread computing H panicked".into()))?
        .transpose()?;
    let work = MsmWork {
        p,
        synths,
        splits: &splits,
        d: &d,
        rec,
    };
    let msms = || engine.msms(&batch, &work, h);
    let (msms, cpu_b_g2) = match engine.b_g2_plan() {
        BG2Plan::Engine => (msms()?, None),
        BG2Plan::Cpu => {
            let b_g2 = || b_g2_cpu(p, &splits, rec);
            if cfg!(feature = "par-bg2") {
                let (m, b) = rayon::join(msms, b_g2);
                (m?, Some(b))
            } else {
                let m = msms()?;
                (m, Some(b_g2()))
            }
        }
    };
    if msms.len() != synths.len() {
        return Err(ProverError::Internal(format!(
            "the engine returned {} results for {} circuits",
            msms.len(),
            synths.len()
        )));
    }
    let b_g2: Vec<G2Projective> = match cpu_b_g2 {
        Some(v) => v,
        None => msms
            .iter()
            .map(|m| {
                m.b_g2
                    .ok_or_else(|| ProverError::Internal("the engine's plan is B_G2, but it returned none".into()))
            })
            .collect::<Result<_, _>>()?,
    };
    Ok(rec.time("assemble", || {
        msms.into_iter()
            .zip(b_g2)
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
