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

/// What a synthesized circuit's witness looks like, as shares of its aux values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shares {
    /// Aux values neither 0 nor 1.
    pub other: f64,
    /// Aux values neither 0 nor 1 whose variable appears in B.
    pub b_other: f64,
    /// Aux variables appearing in A.
    pub a_density: f64,
    /// Aux variables appearing in B.
    pub b_density: f64,
}

impl TestCs {
    /// The shares of this system's aux values (see [`Shares`]).
    pub fn shares(&self) -> Shares {
        let n = self.aux.len();
        let (mut in_a, mut in_b) = (vec![false; n], vec![false; n]);
        for (a, b, _) in &self.constraints {
            for (lc, seen) in [(a, &mut in_a), (b, &mut in_b)] {
                for (v, _) in &lc.terms {
                    if let Var::Aux(i) = v {
                        seen[*i as usize] = true;
                    }
                }
            }
        }
        let other: Vec<bool> = self.aux.iter().map(|v| *v != Fr::ZERO && *v != Fr::ONE).collect();
        let share = |k: usize| k as f64 / n.max(1) as f64;
        Shares {
            other: share(other.iter().filter(|x| **x).count()),
            b_other: share((0..n).filter(|&i| other[i] && in_b[i]).count()),
            a_density: share(in_a.iter().filter(|x| **x).count()),
            b_density: share(in_b.iter().filter(|x| **x).count()),
        }
    }
}
