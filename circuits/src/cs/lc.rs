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

/// Whether `c` is minus one, in variable time (see [`is_zero_vartime`]).
#[inline]
pub fn is_minus_one_vartime(c: &Fr) -> bool {
    limbs(c) == MINUS_ONE_LIMBS
}

/// Montgomery limbs of minus one (checked against `-Fr::ONE` by a test).
const MINUS_ONE_LIMBS: [u64; 4] = [
    0xffff_fffd_0000_0003,
    0xfb38_ec08_fffb_13fc,
    0x99ad_8818_1ce5_880f,
    0x5bc8_f5f9_7cd8_77d8,
];

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
        let nonzero = other.terms.iter().filter(|(_, c)| !is_zero_vartime(c));
        if is_one_vartime(&coeff) {
            // The common cases: no product.
            self.terms.extend(nonzero.copied());
        } else if is_minus_one_vartime(&coeff) {
            self.terms.extend(nonzero.map(|(v, c)| (*v, -*c)));
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
        assert_eq!(MINUS_ONE_LIMBS, limbs(&-Fr::ONE));
        for (c, z, o, m) in [
            (Fr::ZERO, true, false, false),
            (Fr::ONE, false, true, false),
            (-Fr::ONE, false, false, true),
            (Fr::from(2u64), false, false, false),
            (-Fr::from(2u64), false, false, false),
            (Fr::ONE + Fr::ONE - Fr::ONE, false, true, false),
            (Fr::from(7u64) - Fr::from(7u64), true, false, false),
        ] {
            let got = (is_zero_vartime(&c), is_one_vartime(&c), is_minus_one_vartime(&c));
            assert_eq!(got, (z, o, m), "{c:?}");
            assert_eq!(is_zero_vartime(&c), bool::from(c.is_zero()));
            assert_eq!(is_one_vartime(&c), c == Fr::ONE);
            assert_eq!(is_minus_one_vartime(&c), c == -Fr::ONE);
        }
    }

    #[test]
    fn add_lc_scales_by_one_minus_one_and_others() {
        let (x, y) = (Var::Aux(0), Var::Aux(1));
        let other = Lc::zero().add(Fr::from(3u64), x).add(-Fr::ONE, y);
        for k in [Fr::ONE, -Fr::ONE, Fr::from(5u64), Fr::ZERO] {
            let got = Lc::var(y).add_lc(k, &other);
            let mut want = vec![(y, Fr::ONE)];
            for (v, c) in &other.terms {
                if !bool::from((*c * k).is_zero()) {
                    want.push((*v, *c * k));
                }
            }
            assert_eq!(got.terms.to_vec(), want, "factor {k:?}");
        }
    }
}
