//! Groth16 setup from a recorded shape: the QAP at tau through the Lagrange
//! basis ([`qap`]), every query point as a fixed-base multiplication
//! ([`fixed_base`]: the trait; [`cpu_fixed_base`], [`gpu`]: the engines;
//! [`fixed_base_choice`]: one by name), batch-normalized to affine, written
//! in bellperson's parameter format (`crate::groth16::write`). Matches
//! bellperson 0.27's `generate_parameters` point for point given the same
//! toxic waste. [`generate`] ties them together; [`runner`] is the runner's
//! `setup` mode.

pub mod batch_affine;
pub mod cpu_fixed_base;
pub mod error;
pub mod fixed_base;
pub mod fixed_base_choice;
pub mod generate;
#[cfg(feature = "cuda")]
pub mod gpu;
pub mod normalize;
pub mod qap;
pub mod runner;
pub mod table;
pub mod toxic;

pub use cpu_fixed_base::CpuFixedBase;
pub use error::SetupError;
pub use fixed_base::{FixedBase, FixedBaseJob, FixedBaseOut};
pub use fixed_base_choice::backend;
pub use generate::{domain_log2, query_scalars, setup, setup_cpu, QueryScalars};
pub use toxic::Toxic;
