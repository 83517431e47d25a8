//! phaseline: builds prover variants, benchmarks them, stores baselines,
//! compares phase timings with honest statistics, bisects flags and draws charts.
//!
//! Module map (one concept per file):
//! - `cli`, `commands`: the command line (clap) and one file per command; the
//!   modules below take typed requests and never import them.
//! - `model`: the run-directory data model every other module reads or writes.
//! - `error`: the typed error of the library and its exit-code mapping.
//! - `chart`, `report`: comparison charts and the HTML / Markdown report.
//! - `config`: `phaseline.toml`; `variant`: `NAME=feat,feat` parsing and checks.
//! - `builder`: cargo builds per variant, the fingerprint-keyed runner cache.
//! - `exec`: one child in its own process group with a timeout; `monitor`, `gpu`: telemetry.
//! - `testbed`, `provenance`: where a run was made.
//! - `record`: runner records to samples; `runner`: `measure`, the interleaved run loop.
//! - `rundir`, `summary`, `fsutil`: run directories, medians, atomic writes.
//! - `run_request`: what a measurement is asked for, and the one `MeasureSpec` constructor.
//! - `measured`: a measurement saved as a run directory, partial runs kept.
//! - `baseline`: the store of baselines per testbed, and comparing a run with one.
//! - `git`: the one git wrapper.
//! - `history`: the history of nights (SQLite), its series, steps and trends.
//! - `bisect`: flag bisection and the `git bisect run` oracle.
//! - `stats`, `compare`: pure statistics; comparisons, verdicts, calibration.
//! - `thresholds`: noise thresholds, one type for the config and the comparisons.
//! - `output`: export formats of comparisons and run summaries (`summary`).
//! - `testkit` (tests and the `testkit` feature only): synthetic runs, the bisect mock, chart runs,
//!   the mock runner's model.
//! - `phases`: the phase vocabulary of prover records.
//! - `shard`: shard manifests for schedulers, and merging the shards' runs.

pub mod baseline;
pub mod bisect;
pub mod builder;
pub mod chart;
pub mod cli;
pub mod commands;
pub mod compare;
pub mod config;
pub mod error;
pub mod exec;
pub mod fsutil;
pub mod git;
pub mod gpu;
pub mod history;
pub mod host_load;
pub mod interrupt;
pub mod journal;
pub mod measured;
pub mod model;
pub mod monitor;
pub mod orphans;
pub mod output;
pub mod phases;
pub mod prebuilt;
pub mod progress;
pub mod provenance;
pub mod record;
pub mod reference;
pub mod report;
pub mod run_request;
pub mod rundir;
pub mod runner;
pub mod settle;
pub mod shard;
pub mod stats;
pub mod summary;
pub mod testbed;
#[cfg(any(test, feature = "testkit"))]
pub mod testkit;
pub mod thresholds;
pub mod variant;

pub use error::{ExitCode, HarnessError};
