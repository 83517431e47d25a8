//! A bellpepper constraint system that keeps only what the anchor must know
//! before proving: sizes, the query densities (marked as bellperson's prover
//! marks them: a variable counts when it occurs with a nonzero coefficient)
//! and the 0 / 1 / other split of the aux values.

use bellpepper_core::{ConstraintSystem, Index, LinearCombination, SynthesisError, Variable};
use blstrs::Scalar as Fr;
use ff::Field;

/// Sizes and densities of one synthesized circuit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shape {
    /// Constraints the circuit enforced (without the per-input rows).
    pub circuit_constraints: usize,
    /// Inputs, the constant one included.
    pub inputs: usize,
    pub aux: usize,
    pub a_aux: Vec<bool>,
    pub b_input: Vec<bool>,
    pub b_aux: Vec<bool>,
    pub aux_zero: usize,
    pub aux_one: usize,
}

/// The constraint system that records a [`Shape`].
#[derive(Default)]
pub struct ShapeCs {
    pub shape: Shape,
}

impl ShapeCs {
    pub fn new_with_one() -> Self {
        let mut cs = ShapeCs::default();
        cs.shape.inputs = 1;
        cs.shape.b_input.push(false);
        cs
    }
}

fn mark(lc: &LinearCombination<Fr>, inputs: Option<&mut [bool]>, aux: &mut [bool]) {
    for (i, c) in lc.iter_aux() {
        if !bool::from(c.is_zero()) {
            if let Some(x) = aux.get_mut(*i) {
                *x = true;
            }
        }
    }
    if let Some(inp) = inputs {
        for (i, c) in lc.iter_inputs() {
            if !bool::from(c.is_zero()) {
                if let Some(x) = inp.get_mut(*i) {
                    *x = true;
                }
            }
        }
    }
}

impl ConstraintSystem<Fr> for ShapeCs {
    type Root = Self;

    fn alloc<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        let v = f()?;
        if bool::from(v.is_zero()) {
            self.shape.aux_zero += 1;
        } else if v == Fr::ONE {
            self.shape.aux_one += 1;
        }
        self.shape.aux += 1;
        self.shape.a_aux.push(false);
        self.shape.b_aux.push(false);
        Ok(Variable::new_unchecked(Index::Aux(self.shape.aux - 1)))
    }

    fn alloc_input<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        f()?;
        self.shape.inputs += 1;
        self.shape.b_input.push(false);
        Ok(Variable::new_unchecked(Index::Input(self.shape.inputs - 1)))
    }

    fn enforce<A, AR, LA, LB, LC>(&mut self, _: A, a: LA, b: LB, _c: LC)
    where
        A: FnOnce() -> AR,
        AR: Into<String>,
        LA: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LB: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LC: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
    {
        let s = &mut self.shape;
        mark(&a(LinearCombination::zero()), None, &mut s.a_aux);
        mark(
            &b(LinearCombination::zero()),
            Some(s.b_input.as_mut_slice()),
            &mut s.b_aux,
        );
        s.circuit_constraints += 1;
    }

    fn push_namespace<NR, N>(&mut self, _: N)
    where
        NR: Into<String>,
        N: FnOnce() -> NR,
    {
    }

    fn pop_namespace(&mut self) {}

    fn get_root(&mut self) -> &mut Self::Root {
        self
    }
}

fn count(v: &[bool]) -> usize {
    v.iter().filter(|x| **x).count()
}

impl Shape {
    /// Rows of the constraint system bellperson proves: one extra per input.
    pub fn rows(&self) -> usize {
        self.circuit_constraints + self.inputs
    }

    /// log2 of the NTT domain (rows rounded up to a power of two).
    pub fn domain_log2(&self) -> u32 {
        self.rows().next_power_of_two().trailing_zeros()
    }

    /// The point counts a parameter file for this shape must hold.
    pub fn expected_sizes(&self) -> crate::params::Sizes {
        let b = count(&self.b_input) + count(&self.b_aux);
        crate::params::Sizes {
            ic: self.inputs,
            h: (1usize << self.domain_log2()) - 1,
            l: self.aux,
            a: self.inputs + count(&self.a_aux),
            b_g1: b,
            b_g2: b,
        }
    }

    /// Density fractions (A over aux, B over aux, B over inputs without the one).
    pub fn densities(&self) -> (f64, f64, f64) {
        let frac = |v: &[bool]| {
            if v.is_empty() {
                0.0
            } else {
                count(v) as f64 / v.len() as f64
            }
        };
        (
            frac(&self.a_aux),
            frac(&self.b_aux),
            frac(self.b_input.get(1..).unwrap_or(&[])),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bellpepper_core::ConstraintSystem;

    #[test]
    fn records_sizes_densities_and_classes() {
        let mut cs = ShapeCs::new_with_one();
        let x = cs.alloc(|| "x", || Ok(Fr::from(3u64))).unwrap();
        let z = cs.alloc(|| "z", || Ok(Fr::ZERO)).unwrap();
        let o = cs.alloc(|| "o", || Ok(Fr::ONE)).unwrap();
        let p = cs.alloc_input(|| "p", || Ok(Fr::from(9u64))).unwrap();
        // x * x = p; zero coefficients do not mark a variable.
        cs.enforce(|| "sq", |lc| lc + x + (Fr::ZERO, z), |lc| lc + x + p, |lc| lc + p);
        cs.enforce(|| "b", |lc| lc + o, |lc| lc + ShapeCs::one(), |lc| lc + o);
        let s = cs.shape;
        assert_eq!((s.inputs, s.aux, s.circuit_constraints, s.rows()), (2, 3, 2, 4));
        assert_eq!(s.a_aux, vec![true, false, true]);
        assert_eq!(s.b_aux, vec![true, false, false]);
        assert_eq!(s.b_input, vec![true, true]);
        assert_eq!((s.aux_zero, s.aux_one), (1, 1));
        let e = s.expected_sizes();
        assert_eq!((e.ic, e.h, e.l, e.a, e.b_g1), (2, 3, 3, 4, 3));
        assert_eq!(s.domain_log2(), 2);
    }

    #[test]
    fn missing_value_is_an_error() {
        let mut cs = ShapeCs::new_with_one();
        let r = cs.alloc(|| "x", || Err(SynthesisError::AssignmentMissing));
        assert!(r.is_err());
    }
}
