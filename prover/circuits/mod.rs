//! Benchmark circuits shaped like a Filecoin PoRep partition.

pub mod gadgets;
pub mod porep;
pub mod presets;

pub use porep::PorepCircuit;
