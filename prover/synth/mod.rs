//! Our synthesis engine: runs a circuit and produces what the prover needs
//! (a/b/c evaluations, assignments, densities, scalar classes); or, from a
//! recorded shape, the witness alone and a/b/c as sparse matrix-vector
//! products (`from_shape`, the runner's `shape-synth` feature).

pub mod bellpepper_entry;
pub mod engine;
pub mod from_shape;
pub mod witness;

pub use engine::{synthesize, Engine, Synthesized};
pub use from_shape::{synthesize_from_shape, ShapeSynth, ShapeSynthError};
pub use witness::{witness, Witness, WitnessCs};
