//! The CUDA backend (`--backend cuda`, cargo feature `cuda`): our Groth16
//! pipeline in `cuda/` on sppark, driven from here. The scalar split and the
//! CPU half of B_G2 are plain Rust and built (and tested) without CUDA too.

pub mod b_g2;
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
