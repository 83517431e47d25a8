//! phaseline-prover: a Groth16 prover over BLS12-381 for Filecoin-PoRep-shaped
//! circuits that reports where its time goes, phase by phase, as data.

pub mod alloc_count;
pub mod bellperson_backend;
pub mod build_info;
pub mod cpu;
pub mod error;
pub mod gpu;
pub mod groth16;
pub mod mem_budget;
pub mod phases;
pub mod pipeline;
pub mod prove;
pub mod real;
pub mod record;
pub mod repetition;
pub mod run;
pub mod selftest;
pub mod setup;
pub mod shape;
pub mod synth;

pub use error::ProverError;
// The circuits and our constraint-system trait live in `phaseline-circuits`;
// re-exported so `crate::cs::...` and `crate::circuits::...` keep working.
pub use phaseline_circuits::{circuits, cs};
