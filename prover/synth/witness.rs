//! Witness-only synthesis: a [`Cs`] that keeps the values of the variables a
//! circuit allocates and only counts its constraints. The A, B, C
//! evaluations then come from the recorded shape (`super::from_shape`).
//!
//! What is skipped: `enforce` never reads its linear combinations (no
//! evaluation, no density marking), and it says so through
//! [`Cs::wants_constraints`], so the bellpepper adapter of the real circuits
//! does not call the combination closures, and our gadgets that enforce
//! through [`Cs::enforce_with`] (bits, xor, and, ch, maj, the S-box, the
//! mix chains) do not build their combinations. The rest of our circuits
//! (the 32-bit word addition, whose carry bits are allocated while its
//! combination is built; the Merkle step; the linear combinations Poseidon
//! and the digest packing carry as values) still build theirs, dropped unread.

use crate::cs::{presized, Circuit, Cs, CsError, Lc, SizeHint, Var};
use blstrs::Scalar as Fr;
use ff::Field;

/// The assignment a witness-only synthesis yields, with its constraint count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Witness {
    /// Input assignment, `inputs[0] == 1`.
    pub inputs: Vec<Fr>,
    pub aux: Vec<Fr>,
    /// The circuit's own constraints (without Groth16's input rows).
    pub constraints: usize,
}

/// The witness-only constraint system.
pub struct WitnessCs {
    pub out: Witness,
}

impl WitnessCs {
    /// A new system; with the `presize` feature its vectors are sized from `hint`.
    pub fn new(hint: SizeHint) -> Self {
        let mut inputs = presized(hint.inputs);
        inputs.push(Fr::ONE);
        WitnessCs {
            out: Witness {
                inputs,
                aux: presized(hint.aux),
                constraints: 0,
            },
        }
    }
}

impl Cs for WitnessCs {
    fn alloc(&mut self, value: Option<Fr>) -> Result<Var, CsError> {
        self.out.aux.push(value.ok_or(CsError::MissingValue)?);
        Ok(Var::Aux(self.out.aux.len() as u32 - 1))
    }
    fn alloc_input(&mut self, value: Option<Fr>) -> Result<Var, CsError> {
        self.out.inputs.push(value.ok_or(CsError::MissingValue)?);
        Ok(Var::Input(self.out.inputs.len() as u32 - 1))
    }
    fn enforce(&mut self, _: Lc, _: Lc, _: Lc) {
        self.out.constraints += 1;
    }
    fn wants_constraints(&self) -> bool {
        false
    }
}

/// Synthesizes `circuit` for its witness only.
pub fn witness<C: Circuit>(circuit: &C, hint: Option<SizeHint>) -> Result<Witness, CsError> {
    let hint = hint.unwrap_or_else(|| circuit.size_hint());
    let mut cs = WitnessCs::new(hint);
    circuit.synthesize(&mut cs)?;
    Ok(cs.out)
}
