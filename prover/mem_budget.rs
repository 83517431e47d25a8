//! `--mem-budget SIZE`: how many synthesized partitions a pipelined proof may
//! hold at once, from the bytes one partition measurably holds.

use crate::error::ProverError;
use std::fmt;
use std::str::FromStr;

/// A host-memory budget in bytes, for the synthesized partitions in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemBudget(pub u64);

impl FromStr for MemBudget {
    type Err = ProverError;

    /// Bytes (`1048576`) or a whole number with a unit: `500MiB`, `64GiB`,
    /// `2GB` (powers of 1000), `8G` (= `8GiB`). Case of the unit matters
    /// only between `KiB` and `KB` style; zero is refused.
    fn from_str(s: &str) -> Result<Self, ProverError> {
        phaseline_record::parse_size(s)
            .map(MemBudget)
            .map_err(|why| ProverError::InvalidArgument(format!("--mem-budget `{s}`: {why}")))
    }
}

impl fmt::Display for MemBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes", self.0)
    }
}

impl MemBudget {
    /// Partitions of `partition` bytes each that fit: floor(budget / bytes),
    /// refused with [`ProverError::OverBudget`] when not even one does.
    pub fn depth(self, partition: u64) -> Result<usize, ProverError> {
        let fit = self.0.checked_div(partition).unwrap_or(u64::MAX);
        if fit == 0 {
            return Err(ProverError::OverBudget {
                budget: self.0,
                partition,
            });
        }
        Ok(usize::try_from(fit).unwrap_or(usize::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_and_without_units() {
        let ok = |s: &str| s.parse::<MemBudget>().unwrap().0;
        assert_eq!(ok("1048576"), 1 << 20);
        assert_eq!(ok("500MiB"), 500 << 20);
        assert_eq!(ok("64GiB"), 64 << 30);
        assert_eq!(ok("64gib"), 64 << 30);
        assert_eq!(ok("2GB"), 2_000_000_000);
        assert_eq!(ok("8G"), 8 << 30);
        assert_eq!(ok("12 B"), 12);
        for bad in [
            "",
            "GiB",
            "-1",
            "1.5GiB",
            "12XB",
            "0",
            "0GiB",
            "99999999999999999999",
            "20000000TiB",
        ] {
            assert!(
                matches!(bad.parse::<MemBudget>(), Err(ProverError::InvalidArgument(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn depth_is_the_partitions_that_fit() {
        assert_eq!(MemBudget(1000).depth(300).unwrap(), 3);
        assert_eq!(MemBudget(300).depth(300).unwrap(), 1);
        match MemBudget(299).depth(300) {
            Err(ProverError::OverBudget { budget, partition }) => assert_eq!((budget, partition), (299, 300)),
            other => panic!("{other:?}"),
        }
    }
}
