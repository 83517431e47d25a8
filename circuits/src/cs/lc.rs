//! The linear-combination type that synthesis builds: our own, so the A1
//! optimization (`smallvec`) can change how its terms are stored.

use blstrs::Scalar as Fr;
use ff::Field;

/// The Montgomery limbs of a field element (a copy, no conversion).
#[inline]
fn limbs(c: &Fr) -> [u64; 4] {
    blst::blst_fr::from(*c).l
}

/// Whether `c` is zero, in variable time. Coefficients are public circuit
/// constants, so the constant-time comparison of `ff` (a `black_box` per
/// call, about a tenth of synthesis time when it was used here) buys nothing.
#[inline]
pub fn is_zero_vartime(c: &Fr) -> bool {
    limbs(c) == [0; 4]
}

/// Whether `c` is one, in variable time (see [`is_zero_vartime`]).
#[inline]
pub fn is_one_vartime(c: &Fr) -> bool {
    limbs(c) == limbs(&Fr::ONE)
}

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
        if !is_zero_vartime(&c) {
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
        if !is_zero_vartime(&coeff) {
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
        if is_one_vartime(&coeff) {
            // The common case: no product.
            let nonzero = other.terms.iter().filter(|(_, c)| !is_zero_vartime(c));
            self.terms.extend(nonzero.copied());
        } else {
            for (v, c) in other.terms.iter() {
                self.push(*c * coeff, *v);
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vartime_checks_agree_with_field_arithmetic() {
        for (c, z, o) in [
            (Fr::ZERO, true, false),
            (Fr::ONE, false, true),
            (-Fr::ONE, false, false),
            (Fr::from(2u64), false, false),
            (Fr::ONE + Fr::ONE - Fr::ONE, false, true),
            (Fr::from(7u64) - Fr::from(7u64), true, false),
        ] {
            assert_eq!((is_zero_vartime(&c), is_one_vartime(&c)), (z, o), "{c:?}");
            assert_eq!(is_zero_vartime(&c), bool::from(c.is_zero()));
            assert_eq!(is_one_vartime(&c), c == Fr::ONE);
        }
    }
}
