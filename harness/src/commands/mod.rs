//! One module per command family; each returns an exit code or a typed error.

pub mod baseline;
pub mod compare;
pub mod history;
pub mod history_table;
pub mod nightly;
pub mod nightly_history;
pub mod nightly_steps;
pub mod run;
pub mod shard;
