//! Statistics as pure functions (no I/O), one concept per file.
//!
//! - [`quantile`]: medians and quantiles.
//! - [`mann_whitney`]: two-sided Mann-Whitney U test (exact, or normal approximation).
//! - [`bootstrap`]: seeded bootstrap interval of the ratio of medians.
//! - [`signed_rank`]: Wilcoxon signed-rank test and paired bootstrap interval, for samples
//!   measured in interleaved pairs.
//! - [`sign_test`]: exact sign test of paired differences (the median's test).
//! - [`bh`]: Benjamini-Hochberg false-discovery-rate adjustment.
//! - [`reps_needed`]: repetitions that would likely settle an inconclusive result.
//! - [`noise`]: noise threshold of a phase from A/A samples (used by `calibrate`).
//! - [`edivisive`]: change points of a series by E-divisive means with a permutation test.
//! - [`lsq`]: least squares on a level, a slope and steps; BIC.
//! - [`trend`]: Theil-Sen slope and the Mann-Kendall trend test.
//! - [`shifts`]: steps and drifts of a nightly series, told apart.
//! - [`rng`]: the seeded random source they share.

pub mod bh;
pub mod bootstrap;
pub mod edivisive;
pub mod lsq;
pub mod mann_whitney;
pub mod noise;
pub mod quantile;
pub mod reps_needed;
pub mod rng;
pub mod shifts;
pub mod sign_test;
pub mod signed_rank;
pub mod trend;

pub use bh::benjamini_hochberg;
pub use bootstrap::{median_ratio_ci, ratio, RatioCi};
pub use mann_whitney::{mann_whitney, MwuMethod, MwuResult};
pub use noise::split_noise;
pub use quantile::{median, quantile, quantile_sorted};
pub use reps_needed::{reps_needed, Observed, Test};
pub use rng::{derive_seed, SeededRng};
pub use sign_test::{sign_test, SignTestResult};
pub use signed_rank::{paired_ratio, paired_ratio_ci, signed_rank, SignedRankResult};
