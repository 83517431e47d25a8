//! Our synthesis engine: runs a circuit and produces what the prover needs
//! (a/b/c evaluations, assignments, densities, scalar classes).

pub mod bellpepper_entry;
pub mod engine;

pub use engine::{synthesize, Engine, Synthesized};
