//! The command line's side of every command: its clap arguments and its body,
//! one file per command (helpers of a command beside it). Each turns its
//! arguments into a typed request of the domain modules, which never import
//! this layer, and returns an exit code or a typed error.

pub mod baseline;
pub mod bisect;
pub mod build;
pub mod calibrate;
pub mod chart;
pub mod compare;
pub mod diff;
pub mod history;
pub mod history_table;
pub mod merge;
pub mod nightly;
pub mod nightly_history;
pub mod nightly_steps;
pub mod nightly_summary;
pub mod output;
pub mod plan;
pub mod report;
pub mod run;
pub mod run_shard;
