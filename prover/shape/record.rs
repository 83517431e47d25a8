//! Shape mode: a [`Cs`] that records the R1CS instead of evaluating it.

use super::csr::{Matrix, Shape, COEFF_MINUS_ONE, COEFF_ONE};
use crate::cs::{is_minus_one_vartime, is_one_vartime, Circuit, Cs, CsError, Lc, Var};
use blstrs::Scalar as Fr;
use ff::Field;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Columns are recorded tagged (inputs carry this bit) and remapped to
/// `[inputs | aux]` at the end, when the input count is known.
const INPUT_TAG: u32 = 1 << 31;

/// A hasher for field-element limbs, which are already uniformly spread.
#[derive(Default)]
struct LimbHasher(u64);

impl Hasher for LimbHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

type CoeffMap = HashMap<[u64; 4], u32, BuildHasherDefault<LimbHasher>>;

/// Records A, B, C while a circuit synthesizes.
pub struct ShapeCs {
    num_inputs: u32,
    num_aux: u32,
    mats: [Matrix; 3],
    table: Vec<Fr>,
    index: CoeffMap,
    error: Option<String>,
}

impl Default for ShapeCs {
    fn default() -> Self {
        Self::new(0, 0)
    }
}

impl ShapeCs {
    /// A recorder with room for `rows` rows and about `nnz` entries per matrix.
    pub fn new(rows: usize, nnz: usize) -> Self {
        let m = || {
            let mut row_ptr = Vec::with_capacity(rows + 1);
            row_ptr.push(0);
            Matrix {
                row_ptr,
                cols: Vec::with_capacity(nnz),
                coeffs: Vec::with_capacity(nnz),
            }
        };
        let mut cs = ShapeCs {
            num_inputs: 1,
            num_aux: 0,
            mats: [m(), m(), m()],
            table: vec![],
            index: CoeffMap::default(),
            error: None,
        };
        assert_eq!(cs.coeff(Fr::ONE), COEFF_ONE);
        assert_eq!(cs.coeff(-Fr::ONE), COEFF_MINUS_ONE);
        cs
    }

    fn coeff(&mut self, c: Fr) -> u32 {
        if self.table.len() > 1 {
            if is_one_vartime(&c) {
                return COEFF_ONE;
            }
            if is_minus_one_vartime(&c) {
                return COEFF_MINUS_ONE;
            }
        }
        let key = blst::blst_fr::from(c).l;
        let next = self.table.len() as u32;
        let idx = *self.index.entry(key).or_insert(next);
        if idx == next {
            self.table.push(c);
        }
        idx
    }

    fn push_row(&mut self, which: usize, terms: impl Iterator<Item = (Var, Fr)>) {
        for (v, c) in terms {
            let col = match v {
                Var::Input(i) => i | INPUT_TAG,
                Var::Aux(i) => i,
            };
            let k = self.coeff(c);
            let m = &mut self.mats[which];
            m.cols.push(col);
            m.coeffs.push(k);
        }
        let m = &mut self.mats[which];
        match u32::try_from(m.cols.len()) {
            Ok(n) => m.row_ptr.push(n),
            Err(_) => {
                self.error
                    .get_or_insert_with(|| "a matrix has more than 2^32 - 1 nonzero entries".into());
                m.row_ptr.push(u32::MAX);
            }
        }
    }

    /// Appends the input rows, remaps the columns and hashes the result.
    pub fn finish(mut self, shape_id: String) -> Result<Shape, CsError> {
        if let Some(e) = self.error.take() {
            return Err(CsError::Bellpepper(format!("shape too large: {e}")));
        }
        let num_constraints = self.mats[0].rows();
        for i in 0..self.num_inputs {
            self.push_row(0, std::iter::once((Var::Input(i), Fr::ONE)));
            self.push_row(1, std::iter::empty());
            self.push_row(2, std::iter::empty());
        }
        if let Some(e) = self.error.take() {
            return Err(CsError::Bellpepper(format!("shape too large: {e}")));
        }
        let ni = self.num_inputs;
        if (ni as u64 + self.num_aux as u64) > u32::MAX as u64 {
            return Err(CsError::Bellpepper(
                "shape too large: more than 2^32 - 1 variables".into(),
            ));
        }
        for m in self.mats.iter_mut() {
            m.cols.par_iter_mut().with_min_len(1 << 14).for_each(|c| {
                *c = if *c & INPUT_TAG != 0 { *c & !INPUT_TAG } else { *c + ni };
            });
        }
        let [a, b, c] = self.mats;
        let mut s = Shape {
            shape_id,
            num_inputs: ni as usize,
            num_aux: self.num_aux as usize,
            num_constraints,
            coeff_table: self.table,
            a,
            b,
            c,
            hash: [0; 32],
        };
        s.hash = s.compute_hash();
        Ok(s)
    }
}

impl Cs for ShapeCs {
    fn alloc(&mut self, _: Option<Fr>) -> Result<Var, CsError> {
        if self.num_aux >= INPUT_TAG - 1 {
            return Err(CsError::Bellpepper(
                "shape too large: more than 2^31 aux variables".into(),
            ));
        }
        self.num_aux += 1;
        Ok(Var::Aux(self.num_aux - 1))
    }
    fn alloc_input(&mut self, _: Option<Fr>) -> Result<Var, CsError> {
        if self.num_inputs >= INPUT_TAG - 1 {
            return Err(CsError::Bellpepper("shape too large: more than 2^31 inputs".into()));
        }
        self.num_inputs += 1;
        Ok(Var::Input(self.num_inputs - 1))
    }
    fn enforce(&mut self, a: Lc, b: Lc, c: Lc) {
        self.push_row(0, a.terms.into_iter());
        self.push_row(1, b.terms.into_iter());
        self.push_row(2, c.terms.into_iter());
    }
    fn wants_values(&self) -> bool {
        false
    }
}

/// Synthesizes `circuit` in shape mode and returns its recorded R1CS.
pub fn record_shape<C: Circuit>(circuit: &C) -> Result<Shape, CsError> {
    let h = circuit.size_hint();
    let rows = h.constraints + h.inputs;
    let mut cs = ShapeCs::new(rows, rows.saturating_mul(3));
    circuit.synthesize(&mut cs)?;
    cs.finish(circuit.shape_id())
}
