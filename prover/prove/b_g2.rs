//! B_G2, on the CPU for every engine: each circuit's B scalars (split once by
//! `msm_prep`) against the parameters' B_G2 points, ones summed and the tail
//! through blst's Pippenger (`cpu::split::split_sum`). How the MSMs are cut
//! and recorded depends on what else the CPU does meanwhile ([`BG2Plan`]).

use super::msm_prep::CircuitSplits;
use crate::cpu::msm::{msm_g2_spread, Spread};
use crate::cpu::split::split_sum;
use crate::error::ProverError;
use crate::groth16::Params;
use crate::phases::Recorder;
use blstrs::G2Projective;
use rayon::prelude::*;
use std::time::Instant;

/// How B_G2 runs and is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BG2Plan {
    /// The CPU engine's: B_G2 shares the cores with the G1 work; partitions
    /// in order, every MSM cut [`Spread::Shared`], one `msm_b_g2` phase.
    Shared,
    /// The CUDA engine's: B_G2 is the CPU's only work; [`Spread::Wide`] for
    /// one partition, partitions in parallel with `par-bg2`, and one `b_g2`
    /// span per partition (its split sizes and spread) under `msm_b_g2`;
    /// beside the G1 work, B_G2 runs at idle priority ([`bg2_pool`]).
    PerPartition,
}

impl BG2Plan {
    /// Runs `g1` and `b_g2` concurrently (cargo feature `par-bg2`). `Shared`:
    /// both in the global pool (`rayon::join`). `PerPartition`: B_G2 on its
    /// own thread in [`bg2_pool`], `g1` on the calling thread.
    pub fn beside<A: Send, B: Send>(
        self,
        g1: impl FnOnce() -> A + Send,
        b_g2: impl FnOnce() -> B + Send,
    ) -> (A, Result<B, ProverError>) {
        match self {
            BG2Plan::Shared => {
                let (a, b) = rayon::join(g1, b_g2);
                (a, Ok(b))
            }
            BG2Plan::PerPartition => std::thread::scope(|sc| {
                let bg2 = sc.spawn(|| bg2_pool().install(b_g2));
                let g1 = g1();
                let g2 = bg2
                    .join()
                    .map_err(|_| ProverError::Internal("the B_G2 thread panicked".into()));
                (g1, g2)
            }),
        }
    }
}

/// B_G2 of every circuit, in circuit order, recorded as `msm_b_g2`.
pub fn b_g2_all(p: &Params, splits: &[CircuitSplits], plan: BG2Plan, rec: &Recorder) -> Vec<G2Projective> {
    match plan {
        BG2Plan::Shared => rec.time("msm_b_g2", || {
            splits
                .iter()
                .map(|sp| split_sum(&p.b_g2, &sp.b, Spread::Shared, msm_g2_spread))
                .collect()
        }),
        BG2Plan::PerPartition => per_partition(p, splits, rec),
    }
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

fn per_partition(p: &Params, splits: &[CircuitSplits], rec: &Recorder) -> Vec<G2Projective> {
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
