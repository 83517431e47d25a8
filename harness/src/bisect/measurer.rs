//! The seam between the bisect's search and the machine: whatever builds and
//! measures variants (real builds, a mock, a pair of checkouts).

use crate::model::{Run, Variant};
use crate::HarnessError;

/// Builds (cached by feature set) and measures variants.
pub trait Measurer {
    /// Runs `reps` measured repetitions of each variant (interleaved) on the
    /// measurer's benchmark case and returns them as a run. Variant names are
    /// the caller's; a variant whose feature set was built before is not rebuilt.
    fn measure(&mut self, variants: &[Variant], reps: usize) -> Result<Run, HarnessError>;
}
