//! The CPU proving backend: our NTT on Fr and blst Pippenger MSMs on all cores.

pub mod msm;
pub mod ntt;
pub mod prove;
pub mod split;
