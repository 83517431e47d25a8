//! The parts of a runner's JSON record (one JSON Lines row per repetition)
//! that every runner writes alike: the schema version, the circuit facts and
//! the timed phases. The prover and the anchors each keep their own record
//! struct around these, since their other fields differ.

mod circuit;
mod params;
mod phase;

pub use circuit::CircuitInfo;
pub use params::{ParamsFile, ParamsSource};
pub use phase::{covered_ms, union_ms, Phase};

/// Version of the record's JSON shape; the harness refuses other versions.
pub const SCHEMA_VERSION: u32 = 1;
