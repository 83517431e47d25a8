//! Sharding a measurement over an existing scheduler: a plan splits the cases
//! of a run into work units (each unit keeps every variant of its cases on one
//! machine, interleaved as an unsharded run would), one process measures one
//! unit, and the units' run directories are merged back into one run.
//!
//! - `manifest`: the versioned shard manifest and how a plan is cut.
//! - `index`: which unit this process runs (`--shard`, or a scheduler's variable).
//! - `merge`: the shard tags a unit's run carries, and combining the units' runs.

pub mod index;
pub mod manifest;
pub mod merge;

pub use index::{resolve_index, IndexSource};
pub use manifest::{Manifest, RunOptions, Unit};
pub use merge::{merge_runs, tag_settings, ShardRun};
