//! A bellpepper-compatible entry: any `bellpepper_core::Circuit` can be
//! synthesized by our engine and proven by our prover, or synthesized for
//! its witness only ([`BellpepperWitness`]), the linear-combination closures
//! never called.

use super::engine::{Engine, Which};
use super::witness::{Witness, WitnessCs};
use super::Synthesized;
use crate::cs::{Cs, SizeHint, Var};
use bellpepper_core::{ConstraintSystem, Index, LinearCombination, SynthesisError, Variable};
use blstrs::Scalar as Fr;

/// Our engine behind bellpepper's `ConstraintSystem` trait.
pub struct BellpepperEngine(pub Engine);

fn var(v: Variable) -> Var {
    match v.get_unchecked() {
        Index::Input(i) => Var::Input(i as u32),
        Index::Aux(i) => Var::Aux(i as u32),
    }
}

impl ConstraintSystem<Fr> for BellpepperEngine {
    type Root = Self;

    fn alloc<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        let Var::Aux(i) = self.0.push_aux(f()?) else {
            unreachable!()
        };
        Ok(Variable::new_unchecked(Index::Aux(i as usize)))
    }

    fn alloc_input<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        let Var::Input(i) = self.0.push_input(f()?) else {
            unreachable!()
        };
        Ok(Variable::new_unchecked(Index::Input(i as usize)))
    }

    fn enforce<A, AR, LA, LB, LC>(&mut self, _: A, a: LA, b: LB, c: LC)
    where
        A: FnOnce() -> AR,
        AR: Into<String>,
        LA: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LB: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LC: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
    {
        let (la, lb, lc) = (
            a(LinearCombination::zero()),
            b(LinearCombination::zero()),
            c(LinearCombination::zero()),
        );
        let ea = self.0.eval_terms(la.iter().map(|(v, c)| (var(v), c)), Which::A);
        let eb = self.0.eval_terms(lb.iter().map(|(v, c)| (var(v), c)), Which::B);
        let ec = self.0.eval_terms(lc.iter().map(|(v, c)| (var(v), c)), Which::C);
        self.0.push_row(ea, eb, ec);
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

/// Synthesizes a bellpepper circuit with our engine.
pub fn synthesize_bellpepper<C: bellpepper_core::Circuit<Fr>>(
    circuit: C,
    hint: SizeHint,
) -> Result<Synthesized, SynthesisError> {
    let mut e = BellpepperEngine(Engine::new(hint));
    circuit.synthesize(&mut e)?;
    Ok(e.0.finish())
}

/// Witness-only synthesis behind bellpepper's `ConstraintSystem` trait:
/// values are kept, constraints counted, and the closures that build the
/// linear combinations are never called (they only build combinations).
pub struct BellpepperWitness(pub WitnessCs);

fn aux_var(v: Var) -> Variable {
    match v {
        Var::Input(i) => Variable::new_unchecked(Index::Input(i as usize)),
        Var::Aux(i) => Variable::new_unchecked(Index::Aux(i as usize)),
    }
}

impl ConstraintSystem<Fr> for BellpepperWitness {
    type Root = Self;

    fn alloc<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        let v = self
            .0
            .alloc(Some(f()?))
            .map_err(|_| SynthesisError::AssignmentMissing)?;
        Ok(aux_var(v))
    }

    fn alloc_input<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        let v = self
            .0
            .alloc_input(Some(f()?))
            .map_err(|_| SynthesisError::AssignmentMissing)?;
        Ok(aux_var(v))
    }

    fn enforce<A, AR, LA, LB, LC>(&mut self, _: A, _: LA, _: LB, _: LC)
    where
        A: FnOnce() -> AR,
        AR: Into<String>,
        LA: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LB: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LC: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
    {
        self.0.out.constraints += 1;
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

/// Synthesizes a bellpepper circuit for its witness only.
pub fn witness_bellpepper<C: bellpepper_core::Circuit<Fr>>(
    circuit: C,
    hint: SizeHint,
) -> Result<Witness, SynthesisError> {
    let mut w = BellpepperWitness(WitnessCs::new(hint));
    circuit.synthesize(&mut w)?;
    Ok(w.0.out)
}
