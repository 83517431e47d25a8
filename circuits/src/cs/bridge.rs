//! Runs a circuit written against [`Cs`] on any bellpepper `ConstraintSystem`,
//! so bellperson can set up, prove and verify the very same circuit.

use super::{Circuit, Cs, CsError, Lc, Var};
use bellpepper_core::{ConstraintSystem, LinearCombination, SynthesisError, Variable};
use blstrs::Scalar as Fr;

/// Adapter: a bellpepper constraint system seen as a [`Cs`]. Variables and
/// constraints get unique names (`aux7`, `input1`, `c42`), built only by
/// systems that ask for names (bellpepper's test system does, bellperson's
/// prover and setup never call the naming closure).
pub struct Bridge<'a, CS: ConstraintSystem<Fr>> {
    cs: &'a mut CS,
    inputs: Vec<Variable>,
    aux: Vec<Variable>,
    n: usize,
}

impl<'a, CS: ConstraintSystem<Fr>> Bridge<'a, CS> {
    pub fn new(cs: &'a mut CS) -> Self {
        Bridge {
            cs,
            inputs: vec![CS::one()],
            aux: Vec::new(),
            n: 0,
        }
    }
    fn lc(&self, lc: &Lc) -> LinearCombination<Fr> {
        let mut out = LinearCombination::zero();
        for (v, c) in lc.terms.iter() {
            let var = match v {
                Var::Input(i) => self.inputs[*i as usize],
                Var::Aux(i) => self.aux[*i as usize],
            };
            out = out + (*c, var);
        }
        out
    }
}

impl<CS: ConstraintSystem<Fr>> Cs for Bridge<'_, CS> {
    fn alloc(&mut self, value: Option<Fr>) -> Result<Var, CsError> {
        let n = self.aux.len();
        let v = self
            .cs
            .alloc(|| format!("aux{n}"), || value.ok_or(SynthesisError::AssignmentMissing))
            .map_err(|e| CsError::Bellpepper(e.to_string()))?;
        self.aux.push(v);
        Ok(Var::Aux(self.aux.len() as u32 - 1))
    }
    fn alloc_input(&mut self, value: Option<Fr>) -> Result<Var, CsError> {
        let n = self.inputs.len();
        let v = self
            .cs
            .alloc_input(
                || format!("input{n}"),
                || value.ok_or(SynthesisError::AssignmentMissing),
            )
            .map_err(|e| CsError::Bellpepper(e.to_string()))?;
        self.inputs.push(v);
        Ok(Var::Input(self.inputs.len() as u32 - 1))
    }
    fn enforce(&mut self, a: Lc, b: Lc, c: Lc) {
        let (a, b, c) = (self.lc(&a), self.lc(&b), self.lc(&c));
        let n = self.n;
        self.n += 1;
        self.cs.enforce(|| format!("c{n}"), |_| a, |_| b, |_| c);
    }
}

/// A [`Circuit`] as a bellpepper `Circuit`, for bellperson's own prover and setup.
pub struct AsBellpepper<'c, C: Circuit>(pub &'c C);

impl<C: Circuit> bellpepper_core::Circuit<Fr> for AsBellpepper<'_, C> {
    fn synthesize<CS: ConstraintSystem<Fr>>(self, cs: &mut CS) -> Result<(), SynthesisError> {
        let mut b = Bridge::new(cs);
        self.0.synthesize(&mut b).map_err(|e| match e {
            CsError::MissingValue => SynthesisError::AssignmentMissing,
            CsError::Bellpepper(_) => SynthesisError::Unsatisfiable,
        })
    }
}
