//! B_G2 on the CPU (the CPU engine's plan): each circuit's B scalars, split
//! once by `msm_prep`, against the parameters' B_G2 points, ones summed and
//! the tail through blst's Pippenger (`cpu::split::split_sum`). The CUDA
//! engine computes B_G2 on the device with its G1 work ([`BG2Plan::Engine`]).

use super::msm_prep::CircuitSplits;
use crate::cpu::msm::{msm_g2_spread, Spread};
use crate::cpu::split::split_sum;
use crate::groth16::Params;
use crate::phases::Recorder;
use blstrs::G2Projective;

/// Who computes B_G2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BG2Plan {
    /// The driver, on the CPU: partitions in order, every MSM cut
    /// [`Spread::Shared`], one `msm_b_g2` phase. With `par-bg2` (A4) it runs
    /// beside the engine's work in the global pool (`rayon::join`), after it
    /// without.
    Cpu,
    /// The engine, with its other MSMs (the CUDA engine: on the device, one
    /// `msm_b_g2` span per partition; `par-bg2` is the engine's switch there).
    Engine,
}

/// B_G2 of every circuit on the CPU, in circuit order, recorded as `msm_b_g2`.
pub fn b_g2_cpu(p: &Params, splits: &[CircuitSplits], rec: &Recorder) -> Vec<G2Projective> {
    rec.time("msm_b_g2", || {
        splits
            .iter()
            .map(|sp| split_sum(&p.b_g2, &sp.b, Spread::Shared, msm_g2_spread))
            .collect()
    })
}
