//! bellpepper's `ConstraintSystem` over our [`Cs`] trait, so a bellpepper
//! circuit (filecoin-proofs' C2 circuit) runs on our synthesis engine and our
//! shape recorder. Names and namespaces are never built.

use bellpepper_core::{ConstraintSystem, Index, LinearCombination, SynthesisError, Variable};
use blstrs::Scalar as Fr;
use phaseline_circuits::cs::{Cs, CsError, Lc, Var};

/// A [`Cs`] seen as a bellpepper constraint system. Input 0 is the constant
/// one on both sides.
pub struct OnCs<'a, C: Cs> {
    cs: &'a mut C,
}

impl<'a, C: Cs> OnCs<'a, C> {
    pub fn new(cs: &'a mut C) -> Self {
        OnCs { cs }
    }
}

fn to_var(v: Var) -> Variable {
    match v {
        Var::Input(i) => Variable::new_unchecked(Index::Input(i as usize)),
        Var::Aux(i) => Variable::new_unchecked(Index::Aux(i as usize)),
    }
}

fn to_lc(lc: &LinearCombination<Fr>) -> Lc {
    let mut out = Lc::with_capacity(lc.iter().count());
    for (v, c) in lc.iter() {
        let var = match v.get_unchecked() {
            Index::Input(i) => Var::Input(i as u32),
            Index::Aux(i) => Var::Aux(i as u32),
        };
        out.push(*c, var);
    }
    out
}

fn err(e: CsError) -> SynthesisError {
    match e {
        CsError::MissingValue => SynthesisError::AssignmentMissing,
        CsError::Bellpepper(_) => SynthesisError::Unsatisfiable,
    }
}

impl<C: Cs> OnCs<'_, C> {
    /// The value when the system wants values, else `None` (the closure is
    /// not called: a blank circuit's closures fail).
    fn value<F>(&self, f: F) -> Result<Option<Fr>, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
    {
        if self.cs.wants_values() {
            f().map(Some)
        } else {
            Ok(None)
        }
    }
}

impl<C: Cs> ConstraintSystem<Fr> for OnCs<'_, C> {
    type Root = Self;

    fn alloc<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        let v = self.value(f)?;
        self.cs.alloc(v).map(to_var).map_err(err)
    }

    fn alloc_input<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        let v = self.value(f)?;
        self.cs.alloc_input(v).map(to_var).map_err(err)
    }

    fn enforce<A, AR, LA, LB, LC>(&mut self, _: A, a: LA, b: LB, c: LC)
    where
        A: FnOnce() -> AR,
        AR: Into<String>,
        LA: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LB: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LC: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
    {
        if !self.cs.wants_constraints() {
            // A witness-only system counts the constraint and never reads
            // the combinations: the closures (pure builders) are not called.
            self.cs.enforce(Lc::default(), Lc::default(), Lc::default());
            return;
        }
        let a = to_lc(&a(LinearCombination::zero()));
        let b = to_lc(&b(LinearCombination::zero()));
        let c = to_lc(&c(LinearCombination::zero()));
        self.cs.enforce(a, b, c);
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
