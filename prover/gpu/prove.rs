//! The CUDA G1 engine ([`CudaG1`]): H and the L, A, B_G1 MSMs on the GPU in
//! one call for all partitions. The driver does the rest (`msm_prep` and
//! B_G2 on the CPU, assembly with r, s); with `par-bg2` B_G2 runs beside the
//! GPU work in a pool of idle-priority threads ([`bg2_pool`]), after it
//! without.

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
use crate::prove::engine::{G1Engine, G1Msms};
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

    fn g1(
        &self,
        (o, srs): &Self::Batch,
        _p: &Params,
        synths: &[Synthesized],
        splits: &[CircuitSplits],
        d: &Domain,
        rec: &Recorder,
    ) -> Result<Vec<G1Msms>, ProverError> {
        let g1 = g1_gpu(srs, synths, splits, d, o, rec)?;
        Ok(g1.into_iter().map(|[h, l, a, b_g1]| G1Msms { h, l, a, b_g1 }).collect())
    }

    fn b_g2_plan(&self) -> BG2Plan {
        BG2Plan::PerPartition
    }

    /// B_G2 on its own thread in [`bg2_pool`], the G1 work on this one.
    fn beside<A: Send, B: Send>(
        &self,
        g1: impl FnOnce() -> A + Send,
        b_g2: impl FnOnce() -> B + Send,
    ) -> (A, Result<B, ProverError>) {
        std::thread::scope(|sc| {
            let bg2 = sc.spawn(|| bg2_pool().install(b_g2));
            let g1 = g1();
            let g2 = bg2
                .join()
                .map_err(|_| ProverError::Internal("the B_G2 thread panicked".into()));
            (g1, g2)
        })
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
