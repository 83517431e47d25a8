//! The CUDA backend: `msm_prep` on the CPU, H and the L, A, B_G1 MSMs on the
//! GPU in one call for all partitions, B_G2 on the CPU (beside the GPU work
//! with `par-bg2`, after it without), then assembly with r, s.

use super::device::{self, DeviceSrs};
use super::ffi::{self, PhaseBuf, PlCircuit, PlOpts};
use super::ops::{feature_opts, to_g1};
use super::prep::{circuit_splits, CircuitSplits};
use super::timing;
use crate::cpu::msm::{msm_g2_spread, Spread};
use crate::cpu::ntt::Domain;
use crate::cpu::split::split_sum;
use crate::error::ProverError;
use crate::groth16::assemble::{assemble, MsmResults};
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use crate::synth::Synthesized;
use blst::blst_p1;
use blstrs::{G1Projective, G2Projective, Scalar as Fr};
use rayon::prelude::*;
use std::time::Instant;

/// Test hooks of the backend (all off in normal runs).
#[derive(Clone, Copy, Debug, Default)]
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

fn b_g2_one(p: &Params, sp: &CircuitSplits, part: usize, spread: Spread, rec: &Recorder) -> G2Projective {
    let start = Instant::now();
    // B_G2 on the CPU: ones summed, the tail by blst's Pippenger.
    let r = split_sum(&p.b_g2, &sp.b, spread, msm_g2_spread);
    let mut extra = serde_json::Map::new();
    extra.insert("partition".into(), part.into());
    extra.insert("ones".into(), sp.b.ones.len().into());
    extra.insert("tail".into(), sp.b.tail.len().into());
    extra.insert("spread".into(), format!("{spread:?}").to_lowercase().into());
    rec.push_span("b_g2", Some("msm_b_g2"), start, Instant::now(), extra);
    r
}

fn b_g2_all(p: &Params, splits: &[CircuitSplits], rec: &Recorder) -> Vec<G2Projective> {
    // One partition: B_G2 is the CPU's only work, spread it over every
    // thread; several: the partitions fill the threads (`Spread`).
    let spread = Spread::for_partitions(splits.len());
    rec.time("msm_b_g2", || {
        if cfg!(feature = "par-bg2") {
            splits
                .par_iter()
                .enumerate()
                .map(|(i, sp)| b_g2_one(p, sp, i, spread, rec))
                .collect()
        } else {
            splits
                .iter()
                .enumerate()
                .map(|(i, sp)| b_g2_one(p, sp, i, spread, rec))
                .collect()
        }
    })
}

/// The pool B_G2 runs in beside the GPU work (`par-bg2`): one thread fewer
/// than the cores, each at `SCHED_IDLE`. On the global pool B_G2 kept every
/// core busy while the thread driving the GPU (and sppark's result-collecting
/// threads) waited for a time slice at every stream synchronisation, so the
/// GPU phases, whose spans end on the host, spread 12-19% between
/// repetitions instead of 1-5%. Now they preempt B_G2 as soon as they wake;
/// B_G2 still gets every idle cycle.
fn bg2_pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        rayon::ThreadPoolBuilder::new()
            .num_threads(cores.saturating_sub(1).max(1))
            .thread_name(|i| format!("b_g2-{i}"))
            .start_handler(|_| lower_priority())
            .build()
            .unwrap_or_else(|_| {
                // A pool that cannot start its threads leaves B_G2 on one thread.
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .expect("a one-thread pool")
            })
    })
}

/// Puts the calling thread in `SCHED_IDLE` (Linux; no privilege needed). A
/// refusal leaves the thread as it was: only the spread of the GPU spans
/// depends on it, never a result.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: pid 0 is the calling thread; `param` lives for the call.
        let _ = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) };
    }
}

/// Proves every synthesized circuit (one shape) with randomizers `rs` on the GPU.
pub fn prove(
    p: &Params,
    synths: &[Synthesized],
    rs: &[(Fr, Fr)],
    rec: &Recorder,
    hooks: Hooks,
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
    let mut o = feature_opts();
    o.inject_alloc_bytes = hooks.inject_alloc_bytes;
    rec.time("cuda_init", device::init)?;
    let srs = device::srs_for(p, &o, rec)?;
    let splits: Vec<CircuitSplits> = rec.time("msm_prep", || synths.par_iter().map(circuit_splits).collect());
    let (g1, g2) = if cfg!(feature = "par-bg2") {
        std::thread::scope(|sc| {
            let bg2 = sc.spawn(|| bg2_pool().install(|| b_g2_all(p, &splits, rec)));
            let g1 = g1_gpu(&srs, synths, &splits, &d, &o, rec);
            let g2 = bg2
                .join()
                .map_err(|_| ProverError::Internal("the B_G2 thread panicked".into()));
            (g1, g2)
        })
    } else {
        let g1 = g1_gpu(&srs, synths, &splits, &d, &o, rec);
        let g2 = match &g1 {
            Ok(_) => Ok(b_g2_all(p, &splits, rec)),
            Err(_) => Ok(Vec::new()),
        };
        (g1, g2)
    };
    let (g1, g2) = (g1?, g2?);
    Ok(rec.time("assemble", || {
        g1.into_iter()
            .zip(g2)
            .zip(rs)
            .map(|(([h, l, a, b_g1], b_g2), (r, s))| {
                let m = MsmResults { h, l, a, b_g1, b_g2 };
                assemble(&p.vk, &m, *r, *s)
            })
            .collect()
    }))
}
