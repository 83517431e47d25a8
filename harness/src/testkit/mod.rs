//! Test doubles, kept out of the production library: compiled for the crate's
//! own tests (`cfg(test)`) and, through the `testkit` feature, for its
//! integration tests.
//!
//! - `synthetic`: runs with chosen per-phase timings and seeded noise, and their testbed.
//! - `bisect_mock`: a [`crate::bisect::Measurer`] whose chosen flags add time to chosen phases.
//! - `chart_runs`: runs shaped like a real `e2e` record (nested phases, memory), for charts and reports.
//! - `mock_runner`: the model of the mock runner (`phaseline-mock-prover`, built
//!   only with this feature): its spec, phases, timings and records.

pub mod bisect_mock;
pub mod chart_runs;
pub mod mock_runner;
pub mod synthetic;

pub use bisect_mock::{MockEffect, MockMeasurer, MockScenario};
pub use synthetic::{case, testbed, PhaseSpec, SyntheticRun, SYNTHETIC_TESTBED};
