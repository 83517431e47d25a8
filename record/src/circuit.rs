//! Circuit facts of a record.

use serde::{Deserialize, Serialize};

/// The circuit a record's proof (or synthesis) was made for.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CircuitInfo {
    pub name: String,
    pub shape_id: String,
    /// Rows of the constraint system, including one `input * 1 = 0` row per input.
    pub constraints: usize,
    pub aux: usize,
    /// Public inputs, including the constant one.
    pub inputs: usize,
    pub partitions: usize,
    pub domain_log2: u32,
    pub aux_zero: usize,
    pub aux_one: usize,
    pub aux_other: usize,
    /// Fraction of aux variables used in A.
    pub a_aux_density: f64,
    /// Fraction of aux variables used in B.
    pub b_aux_density: f64,
    /// Fraction of inputs used in B.
    pub b_input_density: f64,
}
