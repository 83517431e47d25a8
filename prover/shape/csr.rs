//! The recorded shape itself: A, B, C as CSR [`Matrix`]es over `[inputs |
//! aux]`, the coefficient table, counts, densities and the content hash
//! (computed by `super::hash`).

use blstrs::Scalar as Fr;

/// One constraint matrix in CSR form. Row `r` holds the entries
/// `row_ptr[r]..row_ptr[r + 1]` of `cols` (column = variable index into
/// `[inputs | aux]`) and `coeffs` (index into [`Shape::coeff_table`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matrix {
    pub row_ptr: Vec<u32>,
    pub cols: Vec<u32>,
    pub coeffs: Vec<u32>,
}

impl Matrix {
    pub fn rows(&self) -> usize {
        self.row_ptr.len().saturating_sub(1)
    }
    pub fn nnz(&self) -> usize {
        self.cols.len()
    }
    /// Entries of row `r` as (column, coefficient index) pairs.
    pub fn row(&self, r: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        let (s, e) = (self.row_ptr[r] as usize, self.row_ptr[r + 1] as usize);
        self.cols[s..e].iter().copied().zip(self.coeffs[s..e].iter().copied())
    }
    /// Which columns occur in this matrix.
    pub fn used_columns(&self, num_vars: usize) -> Vec<bool> {
        let mut used = vec![false; num_vars];
        for &c in &self.cols {
            used[c as usize] = true;
        }
        used
    }
    fn bytes(&self) -> usize {
        4 * (self.row_ptr.len() + self.cols.len() + self.coeffs.len())
    }
}

/// Index of the coefficient one in every coefficient table.
pub const COEFF_ONE: u32 = 0;
/// Index of the coefficient minus one in every coefficient table.
pub const COEFF_MINUS_ONE: u32 = 1;

/// The R1CS of a circuit. Rows are the circuit's constraints followed by one
/// `input_i * 0 = 0` row per public input (including the constant one), the
/// rows Groth16 adds so the IC query is fully dense; so
/// `rows = constraints + inputs` and the NTT domain covers `rows`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The circuit's shape identifier (`Circuit::shape_id`).
    pub shape_id: String,
    /// Public inputs, counting the constant one.
    pub num_inputs: usize,
    pub num_aux: usize,
    /// The circuit's own constraints (without the input rows).
    pub num_constraints: usize,
    /// Distinct coefficients; entry 0 is one, entry 1 is minus one.
    pub coeff_table: Vec<Fr>,
    pub a: Matrix,
    pub b: Matrix,
    pub c: Matrix,
    /// Content hash over counts, identifier, table and matrices ([`hash`]).
    pub hash: [u8; 32],
}

/// Densities of a shape, as counts (the bitmaps come from [`Shape::densities`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DensityCounts {
    pub a_aux: usize,
    pub b_input: usize,
    pub b_aux: usize,
}

/// Which variables occur in A and B, split into inputs and aux.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Densities {
    pub a_aux: Vec<bool>,
    pub b_input: Vec<bool>,
    pub b_aux: Vec<bool>,
}

impl Densities {
    pub fn counts(&self) -> DensityCounts {
        let n = |v: &[bool]| v.iter().filter(|x| **x).count();
        DensityCounts {
            a_aux: n(&self.a_aux),
            b_input: n(&self.b_input),
            b_aux: n(&self.b_aux),
        }
    }
}

impl Shape {
    pub fn num_vars(&self) -> usize {
        self.num_inputs + self.num_aux
    }
    /// Rows of each matrix: constraints plus the input rows.
    pub fn rows(&self) -> usize {
        self.num_constraints + self.num_inputs
    }
    pub fn nnz(&self) -> [usize; 3] {
        [self.a.nnz(), self.b.nnz(), self.c.nnz()]
    }
    /// Heap bytes held by the matrices and the coefficient table.
    pub fn heap_bytes(&self) -> usize {
        self.a.bytes() + self.b.bytes() + self.c.bytes() + 32 * self.coeff_table.len() + self.shape_id.len()
    }
    /// The A/B densities, the same bitmaps the synthesis engine reports.
    pub fn densities(&self) -> Densities {
        let ni = self.num_inputs;
        let a = self.a.used_columns(self.num_vars());
        let b = self.b.used_columns(self.num_vars());
        Densities {
            a_aux: a[ni..].to_vec(),
            b_input: b[..ni].to_vec(),
            b_aux: b[ni..].to_vec(),
        }
    }
    pub fn hash_hex(&self) -> String {
        hex::encode(self.hash)
    }
}

#[cfg(target_endian = "big")]
compile_error!("the shape file format and hash are defined on little-endian hosts only");
