//! Proving, backend-neutral: one driver ([`driver::prove`]) over a small G1
//! engine trait ([`engine::G1Engine`]; the CPU engine in `cpu/prove.rs`, the
//! CUDA engine in `gpu/prove.rs`), the scalar split made once per circuit
//! ([`msm_prep`]), B_G2 on the CPU ([`b_g2`]), and the choice of prover a
//! run dispatches over ([`prover::Prover`]: our driver on an engine, or
//! bellperson's own prover).

pub mod b_g2;
pub mod driver;
pub mod engine;
pub mod msm_prep;
pub mod prover;
