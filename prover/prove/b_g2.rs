//! B_G2, on the CPU for every engine: each circuit's B scalars (split once by
//! `msm_prep`) against the parameters' B_G2 points, ones summed and the tail
//! through blst's Pippenger (`cpu::split::split_sum`). How the MSMs are cut
//! and recorded depends on what else the CPU does meanwhile ([`BG2Plan`]).

use super::msm_prep::CircuitSplits;
use crate::cpu::msm::{msm_g2_spread, Spread};
use crate::cpu::split::split_sum;
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
    /// span per partition (its split sizes and spread) under `msm_b_g2`.
    PerPartition,
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
