//! The protocol between a runner and the harness: what a runner is asked
//! ([`RunnerArgs`], turned into argv), what it says of itself
//! ([`RunnerInfo`], `info --json`), and what it writes per repetition
//! ([`RecordHead`], one JSON Lines row each, with the circuit facts and the
//! timed phases). Mode, backend and phase names are types and constants
//! ([`Mode`], [`Backend`], [`names`]), and the phases each mode and backend
//! must record are defined once ([`required`]). Our prover, the anchors and
//! the harness's test double all speak it; the harness reads it.

mod args;
mod circuit;
mod head;
mod info;
pub mod machine;
mod mode;
pub mod names;
mod params;
mod phase;
mod required;

pub use args::{parse_size, CaseArgs, InfoArgs, ParamsStore, ProveArgs, RunnerArgs, SetupArgs};
pub use circuit::CircuitInfo;
pub use head::RecordHead;
pub use info::RunnerInfo;
pub use mode::{Backend, Mode};
pub use params::{ParamsFile, ParamsSource};
pub use phase::{covered_ms, union_ms, Phase};
pub use required::{first_missing, required, Requires};

/// Version of the record's JSON shape; the harness refuses other versions.
pub const SCHEMA_VERSION: u32 = 1;
