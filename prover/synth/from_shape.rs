//! Synthesis from the recorded shape: the witness alone (`super::witness`),
//! then A·z, B·z and C·z as parallel sparse matrix-vector products over the
//! shape's CSR matrices, `z = [inputs | aux]`. The shape's rows already
//! include Groth16's `input_i * 1 = 0` rows and its densities are the
//! engine's, so the result is the engine's [`Synthesized`], value for value.
//!
//! A cached shape that is not the circuit's is refused ([`ShapeSynthError`]):
//! by identifier and counts against the witness, and by the products
//! themselves, which must satisfy `a[r] * b[r] == c[r]` on every row (a
//! shape with the right counts but other matrices fails that on all but
//! negligibly few witnesses).

use super::witness::{witness, Witness};
use super::Synthesized;
use crate::cs::{is_one_vartime, is_zero_vartime, Circuit, CsError, SizeHint};
use crate::error::ProverError;
use crate::shape::{Densities, Matrix, Shape, COEFF_MINUS_ONE, COEFF_ONE};
use blstrs::Scalar as Fr;
use ff::Field;
use rayon::prelude::*;

/// Rows per parallel task of the matrix-vector products.
const ROWS_PER_TASK: usize = 1 << 12;

/// Why synthesis from a shape was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum ShapeSynthError {
    /// The shape is not the circuit's (identifier, counts or matrices).
    #[error("cached shape `{shape_id}` (hash {hash}) does not match the circuit: {reason}; delete the cached shape file to record it again")]
    Mismatch {
        shape_id: String,
        hash: String,
        reason: String,
    },
    /// The witness-only synthesis itself failed.
    #[error("witness synthesis failed: {0}")]
    Witness(#[from] CsError),
}

impl From<ShapeSynthError> for ProverError {
    fn from(e: ShapeSynthError) -> Self {
        match e {
            ShapeSynthError::Mismatch { .. } => ProverError::ShapeMismatch(e.to_string()),
            ShapeSynthError::Witness(e) => ProverError::Synthesis(e.to_string()),
        }
    }
}

/// A shape ready for synthesis: the shape and its densities, computed once.
#[derive(Clone, Debug)]
pub struct ShapeSynth {
    pub shape: Shape,
    pub densities: Densities,
}

impl ShapeSynth {
    pub fn new(shape: Shape) -> Self {
        let densities = shape.densities();
        ShapeSynth { shape, densities }
    }

    fn mismatch(&self, reason: String) -> ShapeSynthError {
        ShapeSynthError::Mismatch {
            shape_id: self.shape.shape_id.clone(),
            hash: self.shape.hash_hex(),
            reason,
        }
    }

    /// Checks the circuit's identifier and the witness's counts against the shape.
    pub fn check(&self, shape_id: &str, w: &Witness) -> Result<(), ShapeSynthError> {
        let s = &self.shape;
        if s.shape_id != shape_id {
            return Err(self.mismatch(format!("the circuit's shape is `{shape_id}`")));
        }
        let counts = |i, a, c| format!("{i} inputs, {a} aux, {c} constraints");
        let (want, got) = (
            counts(s.num_inputs, s.num_aux, s.num_constraints),
            counts(w.inputs.len(), w.aux.len(), w.constraints),
        );
        if want != got {
            return Err(self.mismatch(format!("the shape has {want}, the circuit {got}")));
        }
        Ok(())
    }

    /// A·z, B·z, C·z for the witness `w` (checked by [`Self::check`] first),
    /// refused when a row is not satisfied.
    pub fn abc(&self, w: &Witness) -> Result<[Vec<Fr>; 3], ShapeSynthError> {
        let s = &self.shape;
        let z = Z {
            inputs: &w.inputs,
            aux: &w.aux,
        };
        let t = &s.coeff_table[..];
        let [a, b, c] = [&s.a, &s.b, &s.c].map(|m| mat_vec(m, t, &z));
        let bad = a
            .par_chunks(ROWS_PER_TASK)
            .zip(b.par_chunks(ROWS_PER_TASK))
            .zip(c.par_chunks(ROWS_PER_TASK))
            .enumerate()
            .filter_map(|(k, ((a, b), c))| {
                (0..a.len())
                    .find(|&i| !satisfied(&a[i], &b[i], &c[i]))
                    .map(|i| k * ROWS_PER_TASK + i)
            })
            .min();
        if let Some(r) = bad {
            return Err(self.mismatch(format!(
                "row {r} is not satisfied (a * b != c), so the matrices are not this circuit's (or its witness is wrong)"
            )));
        }
        Ok([a, b, c])
    }

    /// The [`Synthesized`] of the circuit with identifier `shape_id` and witness `w`.
    pub fn synthesized(&self, shape_id: &str, w: Witness) -> Result<Synthesized, ShapeSynthError> {
        self.check(shape_id, &w)?;
        let [a, b, c] = self.abc(&w)?;
        let d = &self.densities;
        Ok(Synthesized {
            inputs: w.inputs,
            aux: w.aux,
            a,
            b,
            c,
            a_aux_density: d.a_aux.clone(),
            b_input_density: d.b_input.clone(),
            b_aux_density: d.b_aux.clone(),
        })
    }
}

/// Witness-only synthesis of `circuit`, then its A, B, C from `shape`.
pub fn synthesize_from_shape<C: Circuit>(
    circuit: &C,
    shape: &ShapeSynth,
    hint: Option<SizeHint>,
) -> Result<Synthesized, ShapeSynthError> {
    let w = witness(circuit, hint)?;
    shape.synthesized(&circuit.shape_id(), w)
}

/// `z = [inputs | aux]` without copying the two vectors.
struct Z<'w> {
    inputs: &'w [Fr],
    aux: &'w [Fr],
}

impl Z<'_> {
    #[inline]
    fn get(&self, col: u32) -> &Fr {
        let col = col as usize;
        match col.checked_sub(self.inputs.len()) {
            Some(j) => &self.aux[j],
            None => &self.inputs[col],
        }
    }
}

/// `m · z`, rows in parallel.
fn mat_vec(m: &Matrix, table: &[Fr], z: &Z) -> Vec<Fr> {
    let mut out = Vec::with_capacity(m.rows());
    (0..m.rows())
        .into_par_iter()
        .with_min_len(ROWS_PER_TASK)
        .map(|r| row_dot(m, r, table, z))
        .collect_into_vec(&mut out);
    out
}

/// Row `r` of `m` times `z`. Variable time in the witness values, as the
/// engine's evaluation is: most are 0 or 1, and a product costs ~20 ns.
#[inline]
fn row_dot(m: &Matrix, r: usize, table: &[Fr], z: &Z) -> Fr {
    let (s, e) = (m.row_ptr[r] as usize, m.row_ptr[r + 1] as usize);
    let mut acc = Fr::ZERO;
    for (&col, &k) in m.cols[s..e].iter().zip(&m.coeffs[s..e]) {
        let x = z.get(col);
        match k {
            COEFF_ONE => acc += x,
            COEFF_MINUS_ONE => acc -= x,
            _ => {
                if is_zero_vartime(x) {
                } else if is_one_vartime(x) {
                    acc += &table[k as usize];
                } else {
                    acc += *x * table[k as usize];
                }
            }
        }
    }
    acc
}

/// Whether `a * b == c`, without a product where either factor is 0 or 1.
#[inline]
fn satisfied(a: &Fr, b: &Fr, c: &Fr) -> bool {
    if is_zero_vartime(a) || is_zero_vartime(b) {
        is_zero_vartime(c)
    } else if is_one_vartime(a) {
        b == c
    } else if is_one_vartime(b) {
        a == c
    } else {
        *a * b == *c
    }
}
