//! The CUDA backend (`--backend cuda`, cargo feature `cuda`): our Groth16
//! pipeline in `cuda/` on sppark, driven from here. The scalar split is plain
//! Rust, built (and tested) without CUDA too; B_G2 stays on the CPU, split
//! the same way (`cpu::split::split_sum`).

pub mod prep;

#[cfg(feature = "cuda")]
pub mod device;
#[cfg(feature = "cuda")]
pub mod ffi;
#[cfg(feature = "cuda")]
pub mod ops;
#[cfg(feature = "cuda")]
pub mod prove;
#[cfg(feature = "cuda")]
pub mod timing;
