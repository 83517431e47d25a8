//! A circuit shaped like a Filecoin PoRep partition: chained SHA-256
//! compressions over seeded data (nearly all witnesses 0/1), the final digest
//! packed into two field elements and hashed into a Poseidon leaf, then a
//! Poseidon Merkle path whose root is the one public input.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use blstrs::Scalar as Fr;
use ff::{Field, PrimeField};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use crate::circuits::boolean::{pack_lc, Bit, Word};
use crate::circuits::poseidon::{hash2, hash2_native, Lin};
use crate::circuits::sha256::{compress, compress_native, iv_words, message_words, IV};
use crate::cs::{presized, Circuit, Cs, CsError, Lc, SizeHint, Var};

/// Bumped whenever the R1CS this file produces changes.
pub const SHAPE_VERSION: u32 = 2;

#[derive(Clone)]
pub struct PorepCircuit {
    pub rounds: usize,
    pub n_sha: usize,
    pub merkle_depth: usize,
    pub seed: u64,
    /// Percent of aux values neither 0 nor 1 added to the shape's own (0: the
    /// plain shape, whose own share is about 0.5% at `medium`). Reached by squaring constraints over
    /// seeded random field elements (`x * x = y`, x in A and B), so the split
    /// MSMs' tails and B_G2's tail grow as in the real PoRep circuit, whose
    /// C2 partitions have 1.6-3.3% such values.
    pub mix_pct: u32,
}

impl std::fmt::Debug for PorepCircuit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PorepCircuit({}, seed {})", self.shape_id(), self.seed)
    }
}

/// The witness data a seed determines.
struct Witness {
    blocks: Vec<[u32; 16]>,
    siblings: Vec<Fr>,
    dirs: Vec<bool>,
}

fn digest_halves(state: &[u32; 8]) -> (Fr, Fr) {
    let half = |ws: &[u32]| Fr::from_u128(ws.iter().rev().fold(0u128, |acc, w| (acc << 32) | *w as u128));
    (half(&state[..4]), half(&state[4..]))
}

impl PorepCircuit {
    pub fn new(rounds: usize, n_sha: usize, merkle_depth: usize, seed: u64) -> Self {
        assert!((1..=64).contains(&rounds), "rounds must be in 1..=64");
        assert!(n_sha >= 1, "at least one compression");
        PorepCircuit {
            rounds,
            n_sha,
            merkle_depth,
            seed,
            mix_pct: 0,
        }
    }

    /// This shape with `pct` percent of aux values neither 0 nor 1 (see `mix_pct`).
    pub fn with_mix(mut self, pct: u32) -> Self {
        assert!(pct < 100, "a mix below 100%");
        self.mix_pct = pct;
        self
    }

    /// Squaring constraints added for the mix: each adds two full field
    /// elements, so m = p * aux / (2 (1 - p)) over the plain shape's aux.
    fn mix_squares(&self) -> usize {
        if self.mix_pct == 0 {
            return 0;
        }
        let p = self.mix_pct as f64 / 100.0;
        let aux = self.plain_hint().aux as f64;
        (p * aux / (2.0 * (1.0 - p))).ceil() as usize
    }

    /// The same shape with another witness seed (partition `i` uses `base + i`).
    pub fn with_seed(&self, seed: u64) -> Self {
        let mut c = self.clone();
        c.seed = seed;
        c
    }

    fn witness(&self) -> Witness {
        let mut rng = ChaCha20Rng::seed_from_u64(self.seed);
        let blocks = (0..self.n_sha)
            .map(|_| std::array::from_fn(|_| rng.next_u32()))
            .collect();
        let siblings = (0..self.merkle_depth).map(|_| Fr::random(&mut rng)).collect();
        let dirs = (0..self.merkle_depth).map(|_| rng.next_u32() & 1 == 1).collect();
        Witness { blocks, siblings, dirs }
    }

    /// The root computed natively.
    pub fn root(&self) -> Fr {
        let w = self.witness();
        let mut state = IV;
        for b in &w.blocks {
            state = compress_native(state, b, self.rounds);
        }
        let (lo, hi) = digest_halves(&state);
        let mut cur = hash2_native(lo, hi);
        for (s, d) in w.siblings.iter().zip(&w.dirs) {
            cur = if *d {
                hash2_native(*s, cur)
            } else {
                hash2_native(cur, *s)
            };
        }
        cur
    }

    /// The hint of this shape, counted once per process: every repetition
    /// builds new circuit values (new witness seeds), and counting is itself
    /// three small syntheses, which would otherwise land inside each timed
    /// synthesis.
    fn shared_hint(&self) -> SizeHint {
        let m = self.mix_squares();
        let h = self.plain_hint();
        SizeHint {
            constraints: h.constraints + m,
            aux: h.aux + 2 * m,
            inputs: h.inputs,
        }
    }

    /// The hint of the plain shape (no mix), counted once per process.
    fn plain_hint(&self) -> SizeHint {
        type Key = (usize, usize, usize);
        static HINTS: OnceLock<Mutex<HashMap<Key, SizeHint>>> = OnceLock::new();
        let key = (self.rounds, self.n_sha, self.merkle_depth);
        let mut map = HINTS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        *map.entry(key).or_insert_with(|| self.compute_hint())
    }

    /// Counts by synthesizing small instances: the count is affine in
    /// `n_sha` and `merkle_depth`, so three cheap passes give it exactly.
    fn compute_hint(&self) -> SizeHint {
        let count = |n, d| {
            let mut c = CountCs::default();
            PorepCircuit::new(self.rounds, n, d, 0)
                .synthesize(&mut c)
                .expect("counting synthesis");
            c
        };
        let base = count(1, 0);
        let sha = count(2, 0);
        let lvl = count(1, 1);
        let f = |b: usize, s: usize, l: usize| b + (s - b) * (self.n_sha - 1) + (l - b) * self.merkle_depth;
        SizeHint {
            constraints: f(base.constraints, sha.constraints, lvl.constraints),
            aux: f(base.aux, sha.aux, lvl.aux),
            inputs: base.inputs + 1,
        }
    }
}

impl Circuit for PorepCircuit {
    fn synthesize<C: Cs>(&self, cs: &mut C) -> Result<(), CsError> {
        let w = self.witness();
        let mut state = iv_words();
        let mut native = IV;
        for block in &w.blocks {
            let mut msg = presized(message_words(self.rounds));
            for x in &block[..message_words(self.rounds)] {
                msg.push(Word::alloc(cs, Some(*x))?);
            }
            state = compress(cs, &state, &msg, self.rounds)?;
            native = compress_native(native, block, self.rounds);
        }
        let mut bits: Vec<Bit> = presized(256);
        bits.extend(state.iter().flat_map(|wd| wd.bits));
        let (lo_v, hi_v) = digest_halves(&native);
        let lo = Lin::from_lc(&pack_lc(&bits[..128]), Some(lo_v));
        let hi = Lin::from_lc(&pack_lc(&bits[128..]), Some(hi_v));
        let mut cur = hash2(cs, &lo, &hi)?;
        for (s, d) in w.siblings.iter().zip(&w.dirs) {
            let sib = Lin::var(cs.alloc(Some(*s))?, Some(*s));
            let dir = Bit::alloc(cs, Some(*d))?;
            // left = cur + dir * (sib - cur); right = cur + sib - left
            let left_v = cur.value.map(|c| if *d { *s } else { c });
            let left = Lin::var(cs.alloc(left_v)?, left_v);
            let mut diff = sib.with_room(cur.len());
            diff.add_scaled(-Fr::ONE, &cur);
            let mut left_minus_cur = left.with_room(cur.len());
            left_minus_cur.add_scaled(-Fr::ONE, &cur);
            cs.enforce(dir.lc(), diff.lc(), left_minus_cur.lc());
            let mut right = cur.with_room(sib.len() + left.len());
            right.add_scaled(Fr::ONE, &sib);
            right.add_scaled(-Fr::ONE, &left);
            cur = hash2(cs, &left, &right)?;
        }
        let mut mix = ChaCha20Rng::seed_from_u64(self.seed ^ 0x6d69_785f_7365_6564);
        for _ in 0..self.mix_squares() {
            let x_v = cs.wants_values().then(|| Fr::random(&mut mix));
            let x = cs.alloc(x_v)?;
            let y = cs.alloc(x_v.map(|x| x.square()))?;
            cs.enforce(Lc::var(x), Lc::var(x), Lc::var(y));
        }
        let root = cs.alloc_input(cur.value)?;
        cs.enforce(cur.lc(), Lc::one(), Lc::var(root));
        Ok(())
    }

    fn size_hint(&self) -> SizeHint {
        self.shared_hint()
    }

    fn public_inputs(&self) -> Vec<Fr> {
        vec![self.root()]
    }

    fn shape_id(&self) -> String {
        let mix = if self.mix_pct == 0 {
            String::new()
        } else {
            format!("-mix{}", self.mix_pct)
        };
        format!(
            "porep-v{SHAPE_VERSION}-sha{}x{}r-poseidon-d{}{mix}",
            self.n_sha, self.rounds, self.merkle_depth
        )
    }
}

/// Counts allocations and constraints, ignoring values.
#[derive(Default)]
struct CountCs {
    constraints: usize,
    aux: usize,
    inputs: usize,
}

impl Cs for CountCs {
    fn alloc(&mut self, _: Option<Fr>) -> Result<Var, CsError> {
        self.aux += 1;
        Ok(Var::Aux(self.aux as u32 - 1))
    }
    fn alloc_input(&mut self, _: Option<Fr>) -> Result<Var, CsError> {
        self.inputs += 1;
        Ok(Var::Input(self.inputs as u32))
    }
    fn enforce(&mut self, _: Lc, _: Lc, _: Lc) {
        self.constraints += 1;
    }
    fn wants_values(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuits::presets::preset;
    use crate::circuits::testcs::TestCs;

    fn check(c: &PorepCircuit) -> TestCs {
        let mut cs = TestCs::new();
        c.synthesize(&mut cs).unwrap();
        assert_eq!(cs.first_failure(), None, "{}", c.shape_id());
        assert_eq!(cs.inputs[1..], c.public_inputs()[..]);
        let h = c.size_hint();
        assert_eq!(h.constraints, cs.num_constraints());
        assert_eq!(h.aux, cs.aux.len());
        assert_eq!(h.inputs, cs.inputs.len());
        cs
    }

    #[test]
    fn tiny_and_small_satisfied_and_hint_exact() {
        for name in ["tiny", "small"] {
            let c = preset(name, 7).unwrap();
            check(&c);
            let c2 = preset(name, 8).unwrap();
            check(&c2);
            assert_eq!(c.shape_id(), c2.shape_id());
            assert_eq!(c.size_hint(), c2.size_hint());
            assert_ne!(c.public_inputs(), c2.public_inputs());
        }
    }

    #[test]
    fn scalar_mix_reaches_its_share_and_is_satisfied() {
        let plain = preset("small", 3).unwrap();
        let c = preset("small-mix3", 3).unwrap();
        let full = |cs: &TestCs| cs.aux.iter().filter(|v| **v != Fr::ZERO && **v != Fr::ONE).count();
        let cs = check(&c);
        let added = (full(&cs) - full(&check(&plain))) as f64 / cs.aux.len() as f64;
        assert!((0.0295..0.0305).contains(&added), "added share {added}");
        assert_ne!(c.shape_id(), plain.shape_id());
        assert_eq!(
            c.public_inputs(),
            plain.public_inputs(),
            "the mix leaves the root alone"
        );
    }

    #[test]
    fn mixed_shapes_satisfied() {
        for (r, n, d) in [(1, 1, 0), (5, 2, 3), (20, 3, 1), (64, 2, 2)] {
            let c = PorepCircuit::new(r, n, d, 99);
            check(&c);
            let w = c.with_seed(100);
            assert_eq!(w.shape_id(), c.shape_id());
            assert_ne!(w.public_inputs(), c.public_inputs());
        }
    }
}
