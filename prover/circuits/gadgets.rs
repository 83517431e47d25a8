//! Bit, word and x^5 gadgets over our [`Cs`].

use crate::cs::{Cs, CsError, Lc, Var};
use blstrs::Scalar as Fr;
use ff::Field;

/// A constrained boolean.
#[derive(Clone, Copy)]
pub struct Bit {
    pub var: Var,
    pub value: Option<bool>,
}

fn fr(b: bool) -> Fr {
    if b {
        Fr::ONE
    } else {
        Fr::ZERO
    }
}

impl Bit {
    pub fn alloc<C: Cs>(cs: &mut C, value: Option<bool>) -> Result<Bit, CsError> {
        let var = cs.alloc(value.map(fr))?;
        cs.enforce(Lc::var(var), Lc::one().minus(var), Lc::zero());
        Ok(Bit { var, value })
    }
    /// a xor b: 2a*b = a + b - c.
    pub fn xor<C: Cs>(cs: &mut C, a: Bit, b: Bit) -> Result<Bit, CsError> {
        let value = a.value.zip(b.value).map(|(x, y)| x ^ y);
        let var = cs.alloc(value.map(fr))?;
        cs.enforce(
            Lc::zero().add(Fr::from(2u64), a.var),
            Lc::var(b.var),
            Lc::var(a.var).plus(b.var).minus(var),
        );
        Ok(Bit { var, value })
    }
    /// ch(e, f, g) = e*f + (1-e)*g: e*(f - g) = ch - g.
    pub fn ch<C: Cs>(cs: &mut C, e: Bit, f: Bit, g: Bit) -> Result<Bit, CsError> {
        let value = e
            .value
            .zip(f.value)
            .zip(g.value)
            .map(|((e, f), g)| if e { f } else { g });
        let var = cs.alloc(value.map(fr))?;
        cs.enforce(Lc::var(e.var), Lc::var(f.var).minus(g.var), Lc::var(var).minus(g.var));
        Ok(Bit { var, value })
    }
    /// maj(a, b, c) with bc = b*c and a*(b + c - 2bc) = maj - bc.
    pub fn maj<C: Cs>(cs: &mut C, a: Bit, b: Bit, c: Bit) -> Result<Bit, CsError> {
        let bcv = b.value.zip(c.value).map(|(x, y)| x & y);
        let bc = cs.alloc(bcv.map(fr))?;
        cs.enforce(Lc::var(b.var), Lc::var(c.var), Lc::var(bc));
        let value = a
            .value
            .zip(b.value)
            .zip(c.value)
            .map(|((a, b), c)| (a & b) | (a & c) | (b & c));
        let var = cs.alloc(value.map(fr))?;
        cs.enforce(
            Lc::var(a.var),
            Lc::var(b.var).plus(c.var).add(-Fr::from(2u64), bc),
            Lc::var(var).minus(bc),
        );
        Ok(Bit { var, value })
    }
}

/// A 32-bit word, least significant bit first.
#[derive(Clone)]
pub struct Word(pub Vec<Bit>);

impl Word {
    pub fn alloc<C: Cs>(cs: &mut C, v: Option<u32>) -> Result<Word, CsError> {
        (0..32)
            .map(|i| Bit::alloc(cs, v.map(|v| (v >> i) & 1 == 1)))
            .collect::<Result<_, _>>()
            .map(Word)
    }
    pub fn value(&self) -> Option<u32> {
        self.0
            .iter()
            .enumerate()
            .try_fold(0u32, |acc, (i, b)| b.value.map(|v| acc | ((v as u32) << i)))
    }
    pub fn rotr(&self, n: usize) -> Word {
        Word((0..32).map(|i| self.0[(i + n) % 32]).collect())
    }
    /// xor of three rotations/shifts; `None` entries are constant zero (shifts).
    pub fn xor3<C: Cs>(cs: &mut C, a: &[Option<Bit>], b: &[Option<Bit>], c: &[Option<Bit>]) -> Result<Word, CsError> {
        let mut out = Vec::with_capacity(32);
        for i in 0..32 {
            let mut acc: Option<Bit> = None;
            for x in [a[i], b[i], c[i]].into_iter().flatten() {
                acc = Some(match acc {
                    None => x,
                    Some(y) => Bit::xor(cs, y, x)?,
                });
            }
            out.push(match acc {
                Some(b) => b,
                None => Bit::alloc(cs, Some(false).filter(|_| cs.wants_values()))?,
            });
        }
        Ok(Word(out))
    }
    pub fn bits(&self) -> Vec<Option<Bit>> {
        self.0.iter().map(|b| Some(*b)).collect()
    }
    pub fn shr(&self, n: usize) -> Vec<Option<Bit>> {
        (0..32)
            .map(|i| if i + n < 32 { Some(self.0[i + n]) } else { None })
            .collect()
    }
    /// Sum of words and a constant modulo 2^32: one packing constraint.
    pub fn add_many<C: Cs>(cs: &mut C, words: &[&Word], k: u32) -> Result<Word, CsError> {
        let vals: Option<u64> = words.iter().try_fold(k as u64, |a, w| w.value().map(|v| a + v as u64));
        let out = Word::alloc(cs, vals.map(|v| v as u32))?;
        let extra = 64 - ((words.len() as u64 + 1).leading_zeros() as usize);
        let carry: Vec<Bit> = (0..extra)
            .map(|i| Bit::alloc(cs, vals.map(|v| (v >> (32 + i)) & 1 == 1)))
            .collect::<Result<_, _>>()?;
        let mut lhs = Lc::with_capacity(32 * words.len() + 1);
        let mut coeff = Fr::ONE;
        let mut pows = Vec::with_capacity(32 + extra);
        for _ in 0..32 + extra {
            pows.push(coeff);
            coeff = coeff.double();
        }
        for w in words {
            for (i, b) in w.0.iter().enumerate() {
                lhs.push(pows[i], b.var);
            }
        }
        lhs.push(Fr::from(k as u64), Var::ONE);
        let mut rhs = Lc::with_capacity(32 + extra);
        for (i, b) in out.0.iter().chain(carry.iter()).enumerate() {
            rhs.push(pows[i], b.var);
        }
        cs.enforce(lhs, Lc::one(), rhs);
        Ok(out)
    }
}

/// y = x^5 with three constraints.
pub fn pow5<C: Cs>(cs: &mut C, x: &Lc, xv: Option<Fr>) -> Result<(Var, Option<Fr>), CsError> {
    let x2v = xv.map(|v| v.square());
    let x2 = cs.alloc(x2v)?;
    cs.enforce(x.clone(), x.clone(), Lc::var(x2));
    let x4v = x2v.map(|v| v.square());
    let x4 = cs.alloc(x4v)?;
    cs.enforce(Lc::var(x2), Lc::var(x2), Lc::var(x4));
    let x5v = x4v.zip(xv).map(|(a, b)| a * b);
    let x5 = cs.alloc(x5v)?;
    cs.enforce(Lc::var(x4), x.clone(), Lc::var(x5));
    Ok((x5, x5v))
}
