//! A Poseidon-style permutation over Fr: width 3, x^5 S-box, full rounds on
//! all lanes and partial rounds on lane 0, with round constants and a Cauchy
//! MDS matrix derived deterministically from SHA-256 of a domain string.

use std::sync::OnceLock;

use blstrs::Scalar as Fr;
use ff::Field;
use sha2::{Digest, Sha256};

use crate::cs::{presized, Cs, CsError, Lc, Var, PRESIZE};

pub const WIDTH: usize = 3;
pub const FULL_ROUNDS: usize = 8;
pub const PARTIAL_ROUNDS: usize = 57;
const DOMAIN: &[u8] = b"phaseline-poseidon-w3-v1";

/// Constraints of one permutation: 3 per S-box.
pub const CONSTRAINTS_PER_PERM: usize = 3 * (FULL_ROUNDS * WIDTH + PARTIAL_ROUNDS);

pub struct Params {
    pub round_constants: Vec<[Fr; WIDTH]>,
    pub mds: [[Fr; WIDTH]; WIDTH],
}

/// 64 bytes of SHA-256 output reduced into Fr.
fn hash_to_fr(tag: &str, index: u64) -> Fr {
    let mut acc = Fr::ZERO;
    let base = Fr::from(256u64);
    for half in 0u8..2 {
        let mut h = Sha256::new();
        h.update(DOMAIN);
        h.update(tag.as_bytes());
        h.update(index.to_le_bytes());
        h.update([half]);
        for byte in h.finalize() {
            acc = acc * base + Fr::from(byte as u64);
        }
    }
    acc
}

pub fn params() -> &'static Params {
    static P: OnceLock<Params> = OnceLock::new();
    P.get_or_init(|| {
        let rounds = FULL_ROUNDS + PARTIAL_ROUNDS;
        let round_constants = (0..rounds)
            .map(|r| std::array::from_fn(|i| hash_to_fr("rc", (r * WIDTH + i) as u64)))
            .collect();
        let xs: [Fr; WIDTH] = std::array::from_fn(|i| hash_to_fr("mds-x", i as u64));
        let ys: [Fr; WIDTH] = std::array::from_fn(|j| hash_to_fr("mds-y", j as u64));
        let mds = std::array::from_fn(|i| {
            std::array::from_fn(|j| (xs[i] + ys[j]).invert().expect("Cauchy entries are nonzero"))
        });
        Params { round_constants, mds }
    })
}

fn is_full(round: usize) -> bool {
    !(FULL_ROUNDS / 2..FULL_ROUNDS / 2 + PARTIAL_ROUNDS).contains(&round)
}

fn pow5(x: Fr) -> Fr {
    let x2 = x.square();
    x2.square() * x
}

/// The native permutation.
pub fn permute_native(state: &mut [Fr; WIDTH]) {
    let p = params();
    for (r, rc) in p.round_constants.iter().enumerate() {
        for i in 0..WIDTH {
            state[i] += rc[i];
        }
        if is_full(r) {
            state.iter_mut().for_each(|x| *x = pow5(*x));
        } else {
            state[0] = pow5(state[0]);
        }
        let old = *state;
        for (lane, row) in state.iter_mut().zip(&p.mds) {
            *lane = row.iter().zip(&old).fold(Fr::ZERO, |acc, (m, x)| acc + *m * x);
        }
    }
}

/// Native 2-to-1 hash.
pub fn hash2_native(l: Fr, r: Fr) -> Fr {
    let mut s = [Fr::from(2u64), l, r];
    permute_native(&mut s);
    s[1]
}

/// A linear combination with merged terms, carrying its value.
#[derive(Clone, Debug)]
pub struct Lin {
    pub terms: Vec<(Var, Fr)>,
    pub value: Option<Fr>,
}

/// One term; with `presize` with room for a second (the round constant or
/// the other operand that usually follows).
fn one_term(v: Var, c: Fr) -> Vec<(Var, Fr)> {
    if PRESIZE {
        let mut t = Vec::with_capacity(2);
        t.push((v, c));
        t
    } else {
        vec![(v, c)]
    }
}

impl Lin {
    pub fn var(v: Var, value: Option<Fr>) -> Lin {
        Lin {
            terms: one_term(v, Fr::ONE),
            value,
        }
    }
    pub fn constant(c: Fr) -> Lin {
        Lin {
            terms: one_term(Var::ONE, c),
            value: Some(c),
        }
    }
    /// A copy; with `presize` with room for `extra` more terms.
    pub fn with_room(&self, extra: usize) -> Lin {
        if PRESIZE {
            let mut terms = Vec::with_capacity(self.terms.len() + extra);
            terms.extend_from_slice(&self.terms);
            Lin {
                terms,
                value: self.value,
            }
        } else {
            self.clone()
        }
    }
    pub fn len(&self) -> usize {
        self.terms.len()
    }
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }
    pub fn from_lc(lc: &Lc, value: Option<Fr>) -> Lin {
        let mut l = Lin {
            terms: presized(lc.len() + 1),
            value,
        };
        for (v, c) in lc.terms.iter() {
            l.push(*v, *c);
        }
        l
    }
    fn push(&mut self, v: Var, c: Fr) {
        match self.terms.iter_mut().find(|(w, _)| *w == v) {
            Some((_, d)) => *d += c,
            None => self.terms.push((v, c)),
        }
    }
    /// `self + coeff * other`.
    pub fn add_scaled(&mut self, coeff: Fr, other: &Lin) {
        for (v, c) in &other.terms {
            self.push(*v, *c * coeff);
        }
        self.value = self.value.zip(other.value).map(|(a, b)| a + coeff * b);
    }
    pub fn lc(&self) -> Lc {
        let mut lc = Lc::with_capacity(self.terms.len());
        for (v, c) in &self.terms {
            lc.push(*c, *v);
        }
        lc
    }
}

fn sbox<C: Cs>(cs: &mut C, x: &Lin) -> Result<Lin, CsError> {
    let x2v = x.value.map(|v| v.square());
    let x4v = x2v.map(|v| v.square());
    let x5v = x4v.zip(x.value).map(|(a, b)| a * b);
    let x2 = cs.alloc(x2v)?;
    cs.enforce_with(|| (x.lc(), x.lc(), Lc::var(x2)));
    let x4 = cs.alloc(x4v)?;
    cs.enforce_with(|| (Lc::var(x2), Lc::var(x2), Lc::var(x4)));
    let x5 = cs.alloc(x5v)?;
    cs.enforce_with(|| (Lc::var(x4), x.lc(), Lc::var(x5)));
    Ok(Lin::var(x5, x5v))
}

/// The in-circuit permutation (`CONSTRAINTS_PER_PERM` constraints).
pub fn permute<C: Cs>(cs: &mut C, state: &mut [Lin; WIDTH]) -> Result<(), CsError> {
    let p = params();
    for (r, rc) in p.round_constants.iter().enumerate() {
        for i in 0..WIDTH {
            state[i].add_scaled(Fr::ONE, &Lin::constant(rc[i]));
        }
        if is_full(r) {
            for lane in state.iter_mut() {
                *lane = sbox(cs, lane)?;
            }
        } else {
            state[0] = sbox(cs, &state[0])?;
        }
        let old = state.clone();
        // a lane is a combination of every old lane (merged), plus the next
        // round's constant
        let bound = old.iter().map(Lin::len).sum::<usize>() + 1;
        for (lane, row) in state.iter_mut().zip(&p.mds) {
            let mut acc = Lin {
                terms: presized(bound),
                value: Some(Fr::ZERO),
            };
            for (m, x) in row.iter().zip(&old) {
                acc.add_scaled(*m, x);
            }
            *lane = acc;
        }
    }
    Ok(())
}

/// In-circuit 2-to-1 hash.
pub fn hash2<C: Cs>(cs: &mut C, l: &Lin, r: &Lin) -> Result<Lin, CsError> {
    let mut s = [Lin::constant(Fr::from(2u64)), l.with_room(1), r.with_room(1)];
    permute(cs, &mut s)?;
    let [_, out, _] = s;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuits::testcs::TestCs;

    #[test]
    fn circuit_matches_native() {
        let mut cs = TestCs::new();
        let (a, b) = (Fr::from(12345u64), hash_to_fr("test", 7));
        let va = cs.alloc(Some(a)).unwrap();
        let vb = cs.alloc(Some(b)).unwrap();
        let out = hash2(&mut cs, &Lin::var(va, Some(a)), &Lin::var(vb, Some(b))).unwrap();
        assert_eq!(cs.num_constraints(), CONSTRAINTS_PER_PERM);
        assert!(cs.is_satisfied());
        let native = hash2_native(a, b);
        assert_eq!(out.value, Some(native));
        // The output LC evaluates to the native value too.
        let ov = cs.alloc(Some(native)).unwrap();
        cs.enforce(out.lc(), Lc::one(), Lc::var(ov));
        assert!(cs.is_satisfied());
        assert_ne!(hash2_native(b, a), native);
    }
}
