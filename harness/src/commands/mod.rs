//! One module per command family; each returns an exit code or a typed error.

pub mod baseline;
pub mod compare;
pub mod nightly;
pub mod nightly_steps;
pub mod run;
pub mod shard;
