//! The linear-combination type that synthesis builds: our own, so the A1
//! optimization (`smallvec`) can change how its terms are stored.

use blstrs::Scalar as Fr;
use ff::Field;

/// A variable of the constraint system. `Input(0)` is the constant one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    Input(u32),
    Aux(u32),
}

impl Var {
    pub const ONE: Var = Var::Input(0);
}

/// Inline capacity of the small-vector term storage (feature `smallvec`).
pub const INLINE_TERMS: usize = 4;

#[cfg(feature = "smallvec")]
pub type Terms = smallvec::SmallVec<[(Var, Fr); INLINE_TERMS]>;
#[cfg(not(feature = "smallvec"))]
pub type Terms = Vec<(Var, Fr)>;

/// A linear combination of variables.
#[derive(Clone, Debug, Default)]
pub struct Lc {
    pub terms: Terms,
}

impl Lc {
    /// An empty combination; with `presize` it has room for the typical few terms.
    pub fn zero() -> Self {
        if cfg!(feature = "presize") {
            Lc {
                terms: Terms::with_capacity(INLINE_TERMS),
            }
        } else {
            Lc { terms: Terms::new() }
        }
    }
    pub fn with_capacity(n: usize) -> Self {
        Lc {
            terms: Terms::with_capacity(n),
        }
    }
    pub fn var(v: Var) -> Self {
        let mut lc = Lc::zero();
        lc.terms.push((v, Fr::ONE));
        lc
    }
    pub fn one() -> Self {
        Lc::var(Var::ONE)
    }
    pub fn constant(c: Fr) -> Self {
        let mut lc = Lc::zero();
        if !bool::from(c.is_zero()) {
            lc.terms.push((Var::ONE, c));
        }
        lc
    }
    /// Adds `coeff * v`; a zero coefficient adds nothing.
    pub fn add(mut self, coeff: Fr, v: Var) -> Self {
        self.push(coeff, v);
        self
    }
    pub fn push(&mut self, coeff: Fr, v: Var) {
        if !bool::from(coeff.is_zero()) {
            self.terms.push((v, coeff));
        }
    }
    pub fn plus(mut self, v: Var) -> Self {
        self.terms.push((v, Fr::ONE));
        self
    }
    pub fn minus(mut self, v: Var) -> Self {
        self.terms.push((v, -Fr::ONE));
        self
    }
    pub fn add_lc(mut self, coeff: Fr, other: &Lc) -> Self {
        for (v, c) in other.terms.iter() {
            self.push(*c * coeff, *v);
        }
        self
    }
    pub fn len(&self) -> usize {
        self.terms.len()
    }
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }
}
