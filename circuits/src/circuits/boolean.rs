//! Bit and 32-bit word gadgets.

use blstrs::Scalar as Fr;
use ff::{Field, PrimeField};

use crate::cs::{presized, Cs, CsError, Lc, Var};

/// A boolean: a constant, or an allocated variable (possibly negated).
#[derive(Clone, Copy, Debug)]
pub enum Bit {
    Const(bool),
    Var { var: Var, value: Option<bool>, neg: bool },
}

fn fr_bool(b: bool) -> Fr {
    if b {
        Fr::ONE
    } else {
        Fr::ZERO
    }
}

impl Bit {
    /// Allocates a witness bit with the booleanity constraint `b * (1 - b) = 0`.
    pub fn alloc<C: Cs>(cs: &mut C, value: Option<bool>) -> Result<Bit, CsError> {
        let var = cs.alloc(value.map(fr_bool))?;
        cs.enforce_with(|| (Lc::var(var), Lc::one().minus(var), Lc::zero()));
        Ok(Bit::Var { var, value, neg: false })
    }

    /// Allocates a bit whose booleanity follows from the constraint the caller adds.
    fn alloc_unchecked<C: Cs>(cs: &mut C, value: Option<bool>) -> Result<Bit, CsError> {
        let var = cs.alloc(value.map(fr_bool))?;
        Ok(Bit::Var { var, value, neg: false })
    }

    pub fn value(&self) -> Option<bool> {
        match *self {
            Bit::Const(b) => Some(b),
            Bit::Var { value, neg, .. } => value.map(|v| v ^ neg),
        }
    }

    pub fn is_const(&self) -> bool {
        matches!(self, Bit::Const(_))
    }

    /// The bit as a linear combination.
    pub fn lc(&self) -> Lc {
        self.scaled_lc(Fr::ONE)
    }

    /// `coeff * bit` as a linear combination.
    pub fn scaled_lc(&self, coeff: Fr) -> Lc {
        let mut lc = Lc::zero();
        self.add_to(&mut lc, coeff);
        lc
    }

    /// Adds `coeff * bit` to `lc`.
    pub fn add_to(&self, lc: &mut Lc, coeff: Fr) {
        match *self {
            Bit::Const(true) => lc.push(coeff, Var::ONE),
            Bit::Const(false) => {}
            Bit::Var { var, neg: false, .. } => lc.push(coeff, var),
            Bit::Var { var, neg: true, .. } => {
                lc.push(coeff, Var::ONE);
                lc.push(-coeff, var);
            }
        }
    }

    pub fn not(&self) -> Bit {
        match *self {
            Bit::Const(b) => Bit::Const(!b),
            Bit::Var { var, value, neg } => Bit::Var { var, value, neg: !neg },
        }
    }

    /// `a ^ b`: one constraint `2a * b = a + b - c` (free with a constant).
    pub fn xor<C: Cs>(cs: &mut C, a: &Bit, b: &Bit) -> Result<Bit, CsError> {
        match (a, b) {
            (Bit::Const(x), o) | (o, Bit::Const(x)) => Ok(if *x { o.not() } else { *o }),
            _ => {
                let v = a.value().zip(b.value()).map(|(x, y)| x ^ y);
                let c = Bit::alloc_unchecked(cs, v)?;
                cs.enforce_with(|| {
                    let rhs = a.lc().add_lc(Fr::ONE, &b.lc()).add_lc(-Fr::ONE, &c.lc());
                    (a.scaled_lc(Fr::ONE.double()), b.lc(), rhs)
                });
                Ok(c)
            }
        }
    }

    /// `a & b`: one constraint (free with a constant).
    pub fn and<C: Cs>(cs: &mut C, a: &Bit, b: &Bit) -> Result<Bit, CsError> {
        match (a, b) {
            (Bit::Const(x), o) | (o, Bit::Const(x)) => Ok(if *x { *o } else { Bit::Const(false) }),
            _ => {
                let v = a.value().zip(b.value()).map(|(x, y)| x & y);
                let c = Bit::alloc_unchecked(cs, v)?;
                cs.enforce_with(|| (a.lc(), b.lc(), c.lc()));
                Ok(c)
            }
        }
    }

    /// `a ^ b ^ c`: two xors.
    pub fn xor3<C: Cs>(cs: &mut C, a: &Bit, b: &Bit, c: &Bit) -> Result<Bit, CsError> {
        let t = Bit::xor(cs, a, b)?;
        Bit::xor(cs, &t, c)
    }

    /// SHA-256 choose: `e ? f : g`, one constraint `e * (f - g) = ch - g`.
    pub fn ch<C: Cs>(cs: &mut C, e: &Bit, f: &Bit, g: &Bit) -> Result<Bit, CsError> {
        if let (Some(ev), Some(fv), Some(gv)) = (const_of(e), const_of(f), const_of(g)) {
            return Ok(Bit::Const(if ev { fv } else { gv }));
        }
        let v = match (e.value(), f.value(), g.value()) {
            (Some(ev), Some(fv), Some(gv)) => Some(if ev { fv } else { gv }),
            _ => None,
        };
        let c = Bit::alloc_unchecked(cs, v)?;
        cs.enforce_with(|| {
            let fg = f.lc().add_lc(-Fr::ONE, &g.lc());
            let rhs = c.lc().add_lc(-Fr::ONE, &g.lc());
            (e.lc(), fg, rhs)
        });
        Ok(c)
    }

    /// SHA-256 majority: `bc = b*c`, then `a * (b + c - 2bc) = maj - bc`.
    pub fn maj<C: Cs>(cs: &mut C, a: &Bit, b: &Bit, c: &Bit) -> Result<Bit, CsError> {
        Self::maj_with(cs, a, b, c, false)
    }

    /// [`Bit::maj`] with the factors of its second constraint swapped,
    /// `(b + c - 2bc) * a = maj - bc`: the same system, but `bc` appears in
    /// A (with [`Bit::maj`] it is in B and C only, one aux value in 13 of a
    /// compression that A never covers).
    pub fn maj_a_dense<C: Cs>(cs: &mut C, a: &Bit, b: &Bit, c: &Bit) -> Result<Bit, CsError> {
        Self::maj_with(cs, a, b, c, true)
    }

    fn maj_with<C: Cs>(cs: &mut C, a: &Bit, b: &Bit, c: &Bit, swap: bool) -> Result<Bit, CsError> {
        if let (Some(av), Some(bv), Some(cv)) = (const_of(a), const_of(b), const_of(c)) {
            return Ok(Bit::Const((av & bv) | (av & cv) | (bv & cv)));
        }
        let bc = Bit::and(cs, b, c)?;
        let v = match (a.value(), b.value(), c.value()) {
            (Some(x), Some(y), Some(z)) => Some((x & y) | (x & z) | (y & z)),
            _ => None,
        };
        let m = Bit::alloc_unchecked(cs, v)?;
        cs.enforce_with(|| {
            let inner = b.lc().add_lc(Fr::ONE, &c.lc()).add_lc(-Fr::ONE.double(), &bc.lc());
            let rhs = m.lc().add_lc(-Fr::ONE, &bc.lc());
            if swap {
                (inner, a.lc(), rhs)
            } else {
                (a.lc(), inner, rhs)
            }
        });
        Ok(m)
    }
}

fn const_of(b: &Bit) -> Option<bool> {
    match b {
        Bit::Const(v) => Some(*v),
        _ => None,
    }
}

/// A 32-bit word, bits least significant first.
#[derive(Clone, Debug)]
pub struct Word {
    pub bits: [Bit; 32],
}

impl Word {
    pub fn constant(v: u32) -> Word {
        Word {
            bits: std::array::from_fn(|i| Bit::Const((v >> i) & 1 == 1)),
        }
    }

    /// Allocates 32 witness bits (32 booleanity constraints).
    pub fn alloc<C: Cs>(cs: &mut C, value: Option<u32>) -> Result<Word, CsError> {
        let mut bits = [Bit::Const(false); 32];
        for (i, b) in bits.iter_mut().enumerate() {
            *b = Bit::alloc(cs, value.map(|v| (v >> i) & 1 == 1))?;
        }
        Ok(Word { bits })
    }

    pub fn value(&self) -> Option<u32> {
        let mut v = 0u32;
        for (i, b) in self.bits.iter().enumerate() {
            if b.value()? {
                v |= 1 << i;
            }
        }
        Some(v)
    }

    fn const_value(&self) -> Option<u32> {
        if self.bits.iter().all(Bit::is_const) {
            self.value()
        } else {
            None
        }
    }

    pub fn rotr(&self, n: usize) -> Word {
        Word {
            bits: std::array::from_fn(|i| self.bits[(i + n) % 32]),
        }
    }

    pub fn shr(&self, n: usize) -> Word {
        Word {
            bits: std::array::from_fn(|i| {
                if i + n < 32 {
                    self.bits[i + n]
                } else {
                    Bit::Const(false)
                }
            }),
        }
    }

    pub fn xor3<C: Cs>(cs: &mut C, a: &Word, b: &Word, c: &Word) -> Result<Word, CsError> {
        let mut bits = [Bit::Const(false); 32];
        for (i, out) in bits.iter_mut().enumerate() {
            *out = Bit::xor3(cs, &a.bits[i], &b.bits[i], &c.bits[i])?;
        }
        Ok(Word { bits })
    }

    /// Bitwise map of a three-input bit function.
    pub fn map3<C: Cs>(
        cs: &mut C,
        a: &Word,
        b: &Word,
        c: &Word,
        f: fn(&mut C, &Bit, &Bit, &Bit) -> Result<Bit, CsError>,
    ) -> Result<Word, CsError> {
        let mut bits = [Bit::Const(false); 32];
        for (i, out) in bits.iter_mut().enumerate() {
            *out = f(cs, &a.bits[i], &b.bits[i], &c.bits[i])?;
        }
        Ok(Word { bits })
    }

    /// `sum(words) + k mod 2^32`: allocates 32 result bits and the carry bits
    /// (all boolean), with one packing constraint.
    pub fn add_many<C: Cs>(cs: &mut C, words: &[&Word], k: u32) -> Result<Word, CsError> {
        let mut const_sum = k as u64;
        let mut vars: Vec<&Word> = presized(words.len());
        for w in words {
            match w.const_value() {
                Some(v) => const_sum += v as u64,
                None => vars.push(w),
            }
        }
        if vars.is_empty() {
            return Ok(Word::constant(const_sum as u32));
        }
        let max_sum = vars.len() as u64 * u32::MAX as u64 + const_sum;
        let max_carry = max_sum >> 32;
        let carry_bits = (64 - max_carry.leading_zeros()) as usize;

        let total: Option<u64> = vars
            .iter()
            .try_fold(const_sum, |acc, w| w.value().map(|v| acc + v as u64));
        let result = Word::alloc(cs, total.map(|t| t as u32))?;
        let mut lhs = Lc::with_capacity(32 * vars.len() + 1);
        let mut pow = Fr::ONE;
        for i in 0..32 {
            for w in &vars {
                w.bits[i].add_to(&mut lhs, pow);
            }
            pow = pow.double();
        }
        lhs.push(Fr::from(const_sum), Var::ONE);
        let mut rhs = Lc::with_capacity(32 + carry_bits);
        let mut pow = Fr::ONE;
        for b in result.bits.iter() {
            b.add_to(&mut rhs, pow);
            pow = pow.double();
        }
        for j in 0..carry_bits {
            let cb = Bit::alloc(cs, total.map(|t| (t >> (32 + j)) & 1 == 1))?;
            cb.add_to(&mut rhs, pow);
            pow = pow.double();
        }
        cs.enforce(lhs, Lc::one(), rhs);
        Ok(result)
    }
}

/// Packs bits (LSB first, at most 253) into one field element, natively.
pub fn pack_native(bits: &[bool]) -> Fr {
    let mut acc = Fr::ZERO;
    for b in bits.iter().rev() {
        acc = acc.double();
        if *b {
            acc += Fr::ONE;
        }
    }
    acc
}

/// The linear combination `sum 2^i bits[i]`.
pub fn pack_lc(bits: &[Bit]) -> Lc {
    debug_assert!(bits.len() < Fr::NUM_BITS as usize);
    let mut lc = Lc::with_capacity(bits.len());
    let mut pow = Fr::ONE;
    for b in bits {
        b.add_to(&mut lc, pow);
        pow = pow.double();
    }
    lc
}
