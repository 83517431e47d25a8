//! The CUDA backend (`--backend cuda`, cargo feature `cuda`): our Groth16
//! pipeline in `cuda/` on sppark, driven from here as a G1 engine of the
//! proving driver (`crate::prove`). The scalar split is the driver's
//! (`prove::msm_prep`, plain Rust); B_G2 stays on the CPU, split the same
//! way (`cpu::split::split_sum`).

#[cfg(feature = "cuda")]
pub mod device;
#[cfg(feature = "cuda")]
pub mod ffi;
#[cfg(feature = "cuda")]
pub mod ops;
#[cfg(feature = "cuda")]
pub mod prep;
#[cfg(feature = "cuda")]
pub mod prove;
#[cfg(feature = "cuda")]
pub mod timing;
