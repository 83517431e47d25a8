//! A test constraint system that stores assignments and checks constraints.

use blstrs::Scalar as Fr;
use ff::Field;

use crate::cs::{Cs, CsError, Lc, Var};

pub struct TestCs {
    pub inputs: Vec<Fr>,
    pub aux: Vec<Fr>,
    pub constraints: Vec<(Lc, Lc, Lc)>,
}

impl TestCs {
    pub fn new() -> Self {
        TestCs {
            inputs: vec![Fr::ONE],
            aux: Vec::new(),
            constraints: Vec::new(),
        }
    }
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }
    fn eval(&self, lc: &Lc) -> Fr {
        lc.terms.iter().fold(Fr::ZERO, |acc, (v, c)| {
            let x = match v {
                Var::Input(i) => self.inputs[*i as usize],
                Var::Aux(i) => self.aux[*i as usize],
            };
            acc + x * c
        })
    }
    pub fn first_failure(&self) -> Option<usize> {
        self.constraints
            .iter()
            .position(|(a, b, c)| self.eval(a) * self.eval(b) != self.eval(c))
    }
    pub fn is_satisfied(&self) -> bool {
        self.first_failure().is_none()
    }
}

impl Cs for TestCs {
    fn alloc(&mut self, value: Option<Fr>) -> Result<Var, CsError> {
        self.aux.push(value.ok_or(CsError::MissingValue)?);
        Ok(Var::Aux(self.aux.len() as u32 - 1))
    }
    fn alloc_input(&mut self, value: Option<Fr>) -> Result<Var, CsError> {
        self.inputs.push(value.ok_or(CsError::MissingValue)?);
        Ok(Var::Input(self.inputs.len() as u32 - 1))
    }
    fn enforce(&mut self, a: Lc, b: Lc, c: Lc) {
        self.constraints.push((a, b, c));
    }
}
