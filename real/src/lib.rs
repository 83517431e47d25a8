//! phaseline-real: the real Filecoin PoRep C2 workload for our prover. It
//! seals seeded random data to a C1 output, reads C1 files (filecoin-proofs'
//! JSON or the lotus-bench / curio C2 input), builds each partition's circuit
//! with filecoin-proofs' compound proof behind our `Circuit` trait, and
//! verifies proofs by filecoin-proofs' own path. The prover sees only our
//! trait; filecoin-proofs never enters its proving code.

pub mod adapter;
pub mod c1;
pub mod circuit;
pub mod error;
pub mod input;
pub mod sector;
pub mod verify;

pub use circuit::{blank_circuit, partition_circuits, RealCircuit, StackedPartition};
pub use error::RealError;
pub use input::{read_c1, C1};
pub use sector::Sector;

/// The prefix of a real circuit's preset-style name (`porep-real:2KiB`).
pub const NAME_PREFIX: &str = "porep-real:";
