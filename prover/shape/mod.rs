//! The recorded R1CS shape of a circuit: A, B, C in CSR form with 32-bit
//! column indices into `[inputs | aux]` and 32-bit indices into a table of
//! distinct coefficients, plus counts and a content hash. Recorded once by
//! synthesizing in shape mode ([`record`]), stored in a raw file ([`file`]);
//! the types are in [`csr`], the content hash in [`hash`].

pub mod csr;
pub mod file;
pub mod hash;
pub mod record;

pub use csr::{Densities, DensityCounts, Matrix, Shape, COEFF_MINUS_ONE, COEFF_ONE};
pub use file::{read_shape, write_shape, ShapeError};
pub use record::{record_shape, ShapeCs};
