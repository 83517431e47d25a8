//! Benchmark circuits written against our [`crate::cs::Cs`] trait: bit gadgets,
//! SHA-256, a Poseidon-style hash, and a PoRep-partition-shaped circuit.

pub mod boolean;
pub mod mix;
pub mod porep;
pub mod poseidon;
pub mod presets;
pub mod sha256;

#[cfg(test)]
pub(crate) mod testcs;

pub use boolean::{Bit, Word};
pub use porep::PorepCircuit;
pub use presets::{domain_log2, preset, rep_circuits, witness_seed, PRESETS};
