//! The C view of a scalar split ([`Split`], made by the backend-neutral
//! `msm_prep`), as the device code reads it.

use super::ffi::PlSplit;
use crate::prove::msm_prep::Split;

/// A split's borrowed C view.
pub trait RawSplit {
    /// The C view; valid while `self` lives and is not moved from.
    fn raw(&self) -> PlSplit;
}

impl RawSplit for Split {
    fn raw(&self) -> PlSplit {
        PlSplit {
            ones: self.ones.as_ptr(),
            n_ones: self.ones.len(),
            tail_idx: self.tail_idx.as_ptr(),
            tail_scalars: self.tail.as_ptr().cast(),
            n_tail: self.tail.len(),
        }
    }
}
