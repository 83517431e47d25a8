//! A PoRep-partition-shaped circuit: chained SHA-256-style compressions over
//! seeded data (nearly all witnesses 0/1), then an x^5 permutation over the
//! packed digest (the full-field part), whose output is the public input.

use super::gadgets::{pow5, Bit, Word};
use crate::cs::{Circuit, Cs, CsError, Lc, SizeHint, Var};
use blstrs::Scalar as Fr;
use ff::Field;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::sync::OnceLock;

const K: [u32; 64] = {
    // first 32 bits of the fractional parts of the cube roots of the first 64 primes
    [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ]
};
const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];
const VERSION: u32 = 1;

/// Shape parameters (the witness comes from `seed`).
#[derive(Clone, Debug)]
pub struct PorepCircuit {
    pub name: String,
    pub n_sha: usize,
    pub rounds: usize,
    pub perm_rounds: usize,
    pub seed: u64,
    hint: std::sync::Arc<OnceLock<SizeHint>>,
}

impl PorepCircuit {
    pub fn new(name: &str, n_sha: usize, rounds: usize, perm_rounds: usize, seed: u64) -> Self {
        PorepCircuit {
            name: name.into(),
            n_sha,
            rounds: rounds.clamp(1, 64),
            perm_rounds,
            seed,
            hint: Default::default(),
        }
    }
}

fn compress<C: Cs>(cs: &mut C, state: &[Word], block: &[Word], rounds: usize) -> Result<Vec<Word>, CsError> {
    let mut w: Vec<Word> = Vec::with_capacity(if cfg!(feature = "presize") { rounds.max(16) } else { 0 });
    w.extend_from_slice(block);
    for t in 16..rounds.max(16) {
        if t >= rounds {
            break;
        }
        let s0 = Word::xor3(
            cs,
            &w[t - 15].rotr(7).bits(),
            &w[t - 15].rotr(18).bits(),
            &w[t - 15].shr(3),
        )?;
        let s1 = Word::xor3(
            cs,
            &w[t - 2].rotr(17).bits(),
            &w[t - 2].rotr(19).bits(),
            &w[t - 2].shr(10),
        )?;
        let x = Word::add_many(cs, &[&w[t - 16], &s0, &w[t - 7], &s1], 0)?;
        w.push(x);
    }
    let mut v: Vec<Word> = state.to_vec();
    for (t, k) in K.iter().enumerate().take(rounds) {
        let (a, b, c, d, e, f, g, h) = (&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
        let s1 = Word::xor3(cs, &e.rotr(6).bits(), &e.rotr(11).bits(), &e.rotr(25).bits())?;
        let ch = Word(
            (0..32)
                .map(|i| Bit::ch(cs, e.0[i], f.0[i], g.0[i]))
                .collect::<Result<_, _>>()?,
        );
        let s0 = Word::xor3(cs, &a.rotr(2).bits(), &a.rotr(13).bits(), &a.rotr(22).bits())?;
        let maj = Word(
            (0..32)
                .map(|i| Bit::maj(cs, a.0[i], b.0[i], c.0[i]))
                .collect::<Result<_, _>>()?,
        );
        let new_a = Word::add_many(cs, &[h, &s1, &ch, &w[t % w.len()], &s0, &maj], *k)?;
        let new_e = Word::add_many(cs, &[d, h, &s1, &ch, &w[t % w.len()]], *k)?;
        v = vec![
            new_a,
            a.clone(),
            b.clone(),
            c.clone(),
            new_e,
            e.clone(),
            f.clone(),
            g.clone(),
        ];
    }
    (0..8).map(|i| Word::add_many(cs, &[&state[i], &v[i]], 0)).collect()
}

fn pack(word: &Word, acc: Lc, base: Fr) -> Lc {
    let mut lc = acc;
    let mut c = base;
    for b in &word.0 {
        lc.push(c, b.var);
        c = c.double();
    }
    lc
}

impl Circuit for PorepCircuit {
    fn synthesize<C: Cs>(&self, cs: &mut C) -> Result<(), CsError> {
        let mut rng = ChaCha20Rng::seed_from_u64(self.seed);
        let vals = cs.wants_values();
        let mut state: Vec<Word> = IV
            .iter()
            .map(|iv| Word::alloc(cs, Some(*iv)))
            .collect::<Result<_, _>>()?;
        for _ in 0..self.n_sha {
            let block: Vec<Word> = (0..16)
                .map(|_| Word::alloc(cs, Some(rng.next_u32()).filter(|_| vals)))
                .collect::<Result<_, _>>()?;
            state = compress(cs, &state, &block, self.rounds)?;
        }
        // full-field part: lanes from the packed digest, then x^5 rounds with a linear mix
        let mut lanes: Vec<(Lc, Option<Fr>)> = (0..3)
            .map(|j| {
                let lc = pack(&state[j], Lc::zero(), Fr::ONE);
                let v = state[j].value().map(|x| Fr::from(x as u64));
                (lc, v)
            })
            .collect();
        for r in 0..self.perm_rounds {
            let mut out = Vec::with_capacity(3);
            for (lc, v) in &lanes {
                let (y, yv) = pow5(cs, lc, *v)?;
                out.push((y, yv));
            }
            let rc = Fr::from(r as u64 * 3 + 7);
            lanes = (0..3)
                .map(|j| {
                    let mut lc = Lc::constant(rc + Fr::from(j as u64));
                    let mut v = Some(rc + Fr::from(j as u64));
                    for (k, (y, yv)) in out.iter().enumerate() {
                        let m = Fr::from(((j + 1) * (k + 2)) as u64);
                        lc.push(m, *y);
                        v = v.zip(*yv).map(|(a, b)| a + m * b);
                    }
                    (lc, v)
                })
                .collect();
        }
        let (lc, v) = &lanes[0];
        let out: Var = cs.alloc_input(*v)?;
        cs.enforce(lc.clone(), Lc::one(), Lc::var(out));
        Ok(())
    }

    fn size_hint(&self) -> SizeHint {
        *self.hint.get_or_init(|| {
            let mut c = Counter::default();
            let _ = self.synthesize(&mut c);
            SizeHint {
                constraints: c.constraints,
                aux: c.aux,
                inputs: c.inputs + 1,
            }
        })
    }

    fn public_inputs(&self) -> Vec<Fr> {
        let mut c = Counter {
            keep: true,
            ..Default::default()
        };
        let _ = self.synthesize(&mut c);
        c.input_values
    }

    fn shape_id(&self) -> String {
        format!(
            "porep-v{VERSION}-sha{}x{}-perm{}",
            self.n_sha, self.rounds, self.perm_rounds
        )
    }
}

/// Counts sizes (and optionally keeps input values) without evaluating anything else.
#[derive(Default)]
struct Counter {
    constraints: usize,
    aux: usize,
    inputs: usize,
    keep: bool,
    input_values: Vec<Fr>,
}

impl Cs for Counter {
    fn alloc(&mut self, _: Option<Fr>) -> Result<Var, CsError> {
        self.aux += 1;
        Ok(Var::Aux(self.aux as u32 - 1))
    }
    fn alloc_input(&mut self, v: Option<Fr>) -> Result<Var, CsError> {
        self.inputs += 1;
        if self.keep {
            self.input_values.push(v.ok_or(CsError::MissingValue)?);
        }
        Ok(Var::Input(self.inputs as u32))
    }
    fn enforce(&mut self, _: Lc, _: Lc, _: Lc) {
        self.constraints += 1;
    }
    fn wants_values(&self) -> bool {
        self.keep
    }
}
