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
use crate::circuits::mix::{Chains, Mix, WitnessCounts};
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
    /// The SHA-256 majority gadget with its factors swapped
    /// ([`crate::circuits::Bit::maj_a_dense`]): A covers every compression value.
    pub maj_a_dense: bool,
    /// The scalar mix (`None`: the plain shape, whose own share of aux values
    /// neither 0 nor 1 is about 0.5% at `medium`). The real PoRep C2
    /// partitions have 1.3-3.3% such values (docs/presets.md). Private: set
    /// only through [`Self::with_mix`], which checks that it can be reached.
    mix: Option<Mix>,
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
            maj_a_dense: false,
            mix: None,
        }
    }

    /// This shape with the A-dense majority gadget (see `maj_a_dense`).
    pub fn with_maj_a_dense(mut self) -> Self {
        self.maj_a_dense = true;
        self
    }

    /// This shape with the scalar mix `mix`; an error when the shape's own
    /// values already exceed the mix's shares.
    pub fn with_mix(mut self, mix: Mix) -> Result<Self, String> {
        self.mix = Some(mix);
        self.padding()?;
        Ok(self)
    }

    /// The scalar mix, if any.
    pub fn mix(&self) -> Option<Mix> {
        self.mix
    }

    /// This shape without its scalar mix.
    pub fn without_mix(mut self) -> Self {
        self.mix = None;
        self
    }

    /// The padding of the mix: (squares of `-mixN`, chains of a share target).
    fn padding(&self) -> Result<(usize, Chains), String> {
        match self.mix {
            None => Ok((0, Chains::default())),
            Some(Mix::Squares(pct)) => {
                // Each square adds two full field elements, so
                // m = p * aux / (2 (1 - p)) over the plain shape's aux.
                let p = pct as f64 / 100.0;
                let aux = self.plain().0.aux as f64;
                Ok(((p * aux / (2.0 * (1.0 - p))).ceil() as usize, Chains::default()))
            }
            Some(Mix::Shares(t)) => Ok((0, Chains::solve(self.plain().1, t)?)),
        }
    }

    /// The padding, for a circuit whose mix [`Self::with_mix`] accepted.
    fn chains(&self) -> (usize, Chains) {
        self.padding().unwrap_or_default()
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
        let (squares, chains) = self.chains();
        let h = self.plain().0;
        SizeHint {
            constraints: h.constraints + squares + chains.constraints(),
            aux: h.aux + 2 * squares + chains.aux(),
            inputs: h.inputs,
        }
    }

    /// The hint and witness counts of the plain shape (no mix), counted
    /// once per process.
    fn plain(&self) -> (SizeHint, WitnessCounts) {
        type Key = (usize, usize, usize, bool);
        static PLAIN: OnceLock<Mutex<HashMap<Key, (SizeHint, WitnessCounts)>>> = OnceLock::new();
        let key = (self.rounds, self.n_sha, self.merkle_depth, self.maj_a_dense);
        let mut map = PLAIN
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        *map.entry(key).or_insert_with(|| self.count_plain())
    }

    /// Counts by synthesizing small instances of the plain shape: the counts
    /// are affine in `n_sha` and `merkle_depth`, so three cheap passes give
    /// them (the witness counts for random data, where a SHA word or a
    /// Poseidon value of 0 or 1 has negligible odds).
    fn count_plain(&self) -> (SizeHint, WitnessCounts) {
        let count = |n, d| {
            let mut c = CountCs::default();
            let mut plain = PorepCircuit::new(self.rounds, n, d, 0);
            plain.maj_a_dense = self.maj_a_dense;
            plain.synthesize(&mut c).expect("counting synthesis");
            c
        };
        let base = count(1, 0);
        let sha = count(2, 0);
        let lvl = count(1, 1);
        let f = |get: fn(&CountCs) -> usize| {
            let (b, s, l) = (get(&base), get(&sha), get(&lvl));
            b + (s - b) * (self.n_sha - 1) + (l - b) * self.merkle_depth
        };
        let hint = SizeHint {
            constraints: f(|c| c.constraints),
            aux: f(|c| c.aux.len()),
            inputs: base.inputs + 1,
        };
        let counts = WitnessCounts {
            aux: hint.aux,
            other: f(|c| c.aux.iter().filter(|a| a.other).count()),
            b_other: f(|c| c.aux.iter().filter(|a| a.other && a.in_b).count()),
            b: f(|c| c.aux.iter().filter(|a| a.in_b).count()),
        };
        (hint, counts)
    }
}

/// Appends a chain of `links` constraints to `cs` (see [`Chains`]): each
/// value times itself (`square`) or times `k` gives the next; `start` the
/// first value.
fn chain<C: Cs>(cs: &mut C, links: usize, start: Option<Fr>, square: bool, k: Fr) -> Result<(), CsError> {
    if links == 0 {
        return Ok(());
    }
    let mut x_v = start;
    let mut x = cs.alloc(x_v)?;
    for _ in 0..links {
        let y_v = x_v.map(|x| if square { x.square() } else { x * k });
        let y = cs.alloc(y_v)?;
        cs.enforce_with(|| {
            let b = if square { Lc::var(x) } else { Lc::constant(k) };
            (Lc::var(x), b, Lc::var(y))
        });
        (x, x_v) = (y, y_v);
    }
    Ok(())
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
            state = compress(cs, &state, &msg, self.rounds, self.maj_a_dense)?;
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
        let (squares, chains) = self.chains();
        for _ in 0..squares {
            let x_v = cs.wants_values().then(|| Fr::random(&mut mix));
            let x = cs.alloc(x_v)?;
            let y = cs.alloc(x_v.map(|x| x.square()))?;
            cs.enforce_with(|| (Lc::var(x), Lc::var(x), Lc::var(y)));
        }
        let field = cs.wants_values().then(|| Fr::random(&mut mix));
        let bit = cs
            .wants_values()
            .then(|| if mix.next_u32() & 1 == 1 { Fr::ONE } else { Fr::ZERO });
        let three = Fr::from(3u64);
        chain(cs, chains.other_ab, field, true, Fr::ONE)?;
        chain(cs, chains.other_a, field.map(|f| f + Fr::ONE), false, three)?;
        chain(cs, chains.bits_a, bit, false, Fr::ONE)?;
        chain(cs, chains.bits_ab, bit, true, Fr::ONE)?;
        let root = cs.alloc_input(cur.value)?;
        cs.enforce_with(|| (cur.lc(), Lc::one(), Lc::var(root)));
        Ok(())
    }

    fn size_hint(&self) -> SizeHint {
        self.shared_hint()
    }

    fn public_inputs(&self) -> Vec<Fr> {
        vec![self.root()]
    }

    fn shape_id(&self) -> String {
        let mix = self.mix.map(|m| m.suffix()).unwrap_or_default();
        let maj = if self.maj_a_dense { "-amaj" } else { "" };
        format!(
            "porep-v{SHAPE_VERSION}-sha{}x{}r{maj}-poseidon-d{}{mix}",
            self.n_sha, self.rounds, self.merkle_depth
        )
    }
}

/// One aux value as counting sees it.
#[derive(Clone, Copy, Default)]
struct AuxFacts {
    other: bool,
    in_b: bool,
}

/// Counts allocations and constraints, and which aux values are neither 0
/// nor 1 and which appear in B.
#[derive(Default)]
struct CountCs {
    constraints: usize,
    aux: Vec<AuxFacts>,
    inputs: usize,
}

impl Cs for CountCs {
    fn alloc(&mut self, v: Option<Fr>) -> Result<Var, CsError> {
        let v = v.ok_or(CsError::MissingValue)?;
        self.aux.push(AuxFacts {
            other: v != Fr::ZERO && v != Fr::ONE,
            in_b: false,
        });
        Ok(Var::Aux(self.aux.len() as u32 - 1))
    }
    fn alloc_input(&mut self, _: Option<Fr>) -> Result<Var, CsError> {
        self.inputs += 1;
        Ok(Var::Input(self.inputs as u32))
    }
    fn enforce(&mut self, _: Lc, b: Lc, _: Lc) {
        self.constraints += 1;
        for (v, _) in &b.terms {
            if let Var::Aux(i) = v {
                self.aux[*i as usize].in_b = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuits::mix::MixShares;
    use crate::circuits::presets::{porep_32g_recipe, preset, MIX_32G};
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

    /// Share targets of the real partitions (docs/presets.md): measured by
    /// synthesizing, each within 0.02 percentage points.
    #[test]
    fn share_mix_lands_on_its_targets() {
        let real = [(0.0163, 0.0119), (0.0291, 0.0211), (0.0330, 0.0239)];
        for (i, (other, b_other)) in real.into_iter().enumerate() {
            let t = MixShares {
                other,
                b_other,
                b_density: None,
            };
            let c = PorepCircuit::new(64, 6, 4, 40 + i as u64)
                .with_mix(Mix::Shares(t))
                .unwrap();
            let s = check(&c).shares();
            eprintln!("{}: {s:?}", c.shape_id());
            assert!((s.other - other).abs() < 2e-4, "{}: other {}", c.shape_id(), s.other);
            assert!((s.b_other - b_other).abs() < 2e-4, "{}: B {}", c.shape_id(), s.b_other);
        }
        // below the shape's own share: refused, not padded
        let own = PorepCircuit::new(64, 1, 6, 1).with_mix(Mix::Shares(MixShares {
            other: 0.01,
            b_other: 0.005,
            b_density: None,
        }));
        assert!(own.unwrap_err().contains("above the target"));
    }

    /// `porep-32g`'s recipe on a smaller instance: the shares and the B
    /// density of the 32 GiB partition, A covering at least 99.7% of aux.
    #[test]
    fn porep_32g_recipe_reaches_its_shares() {
        let c = porep_32g_recipe(6, 4, 5).unwrap();
        let s = check(&c).shares();
        eprintln!("{}: {s:?}", c.shape_id());
        assert!((s.other - MIX_32G.other).abs() < 2e-4, "other {}", s.other);
        assert!((s.b_other - MIX_32G.b_other).abs() < 2e-4, "B other {}", s.b_other);
        assert!((s.b_density - 0.254).abs() < 2e-3, "B density {}", s.b_density);
        assert!(s.a_density >= 0.997, "A density {}", s.a_density);
        let plain = PorepCircuit::new(64, 6, 4, 5);
        assert!(
            check(&plain).shares().a_density < 0.95,
            "the plain majority gadget leaves some of A out"
        );
    }
}
