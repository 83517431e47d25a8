//! Harness self-test only, never an optimization: with the `selftest-slow`
//! feature every backend sleeps a fixed [`SLOW_MS`] inside the phase that
//! runs the L MSM (`msm_l` on the CPU backend; the one `bellperson_prove`
//! phase on the bellperson backend, which contains bellperson's L MSM). The
//! harness builds this feature to check that it detects and bisects a known
//! regression. The feature shows in the record's `features` list like any
//! other.

use std::time::Duration;

/// The injected delay, in milliseconds.
pub const SLOW_MS: u64 = 30;

/// Whether this build carries the self-test delay.
pub const ENABLED: bool = cfg!(feature = "selftest-slow");

/// Sleeps [`SLOW_MS`] when the `selftest-slow` feature is on; nothing otherwise.
/// Call it inside the L-MSM phase of a backend.
pub fn slow_l_msm() {
    if ENABLED {
        std::thread::sleep(Duration::from_millis(SLOW_MS));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build_info::{OPT_FEATURES, SELFTEST_FEATURES};
    use std::time::Instant;

    #[test]
    fn selftest_features_are_not_optimizations() {
        for f in SELFTEST_FEATURES {
            assert!(!OPT_FEATURES.contains(f), "{f} listed as an optimization");
        }
    }

    #[test]
    fn delay_present_exactly_with_the_feature() {
        let t = Instant::now();
        slow_l_msm();
        let waited = t.elapsed();
        if ENABLED {
            assert!(waited >= Duration::from_millis(SLOW_MS), "{waited:?}");
        } else {
            assert!(waited < Duration::from_millis(SLOW_MS), "{waited:?}");
        }
    }
}
