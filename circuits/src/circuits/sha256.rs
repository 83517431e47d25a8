//! The SHA-256 compression function, in-circuit and native, with a round count
//! (64 is real SHA-256; fewer rounds give tiny test circuits).

use crate::circuits::boolean::{Bit, Word};
use crate::cs::{Cs, CsError, PRESIZE};

pub const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

pub const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
];

/// How many message words a compression with `rounds` rounds reads.
pub fn message_words(rounds: usize) -> usize {
    rounds.min(16)
}

/// Native compression: `state` updated by `block` (only the first
/// `message_words(rounds)` words are read).
pub fn compress_native(state: [u32; 8], block: &[u32; 16], rounds: usize) -> [u32; 8] {
    assert!((1..=64).contains(&rounds));
    let mut w = [0u32; 64];
    w[..message_words(rounds)].copy_from_slice(&block[..message_words(rounds)]);
    for t in 16..rounds {
        let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
        let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16].wrapping_add(s0).wrapping_add(w[t - 7]).wrapping_add(s1);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = state;
    for t in 0..rounds {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = h
            .wrapping_add(s1)
            .wrapping_add(ch)
            .wrapping_add(K[t])
            .wrapping_add(w[t]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0.wrapping_add(maj);
        h = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    let out = [a, b, c, d, e, f, g, h];
    std::array::from_fn(|i| state[i].wrapping_add(out[i]))
}

/// In-circuit compression. `block` must hold `message_words(rounds)` words.
/// One compression of `rounds` rounds; `maj_a_dense` selects [`Bit::maj_a_dense`]
/// over [`Bit::maj`] (same constraint count, more of its aux in A).
pub fn compress<C: Cs>(
    cs: &mut C,
    state: &[Word; 8],
    block: &[Word],
    rounds: usize,
    maj_a_dense: bool,
) -> Result<[Word; 8], CsError> {
    assert!((1..=64).contains(&rounds));
    assert_eq!(block.len(), message_words(rounds));
    let mut w: Vec<Word> = if PRESIZE {
        let mut w = Vec::with_capacity(rounds.max(block.len()));
        w.extend_from_slice(block);
        w
    } else {
        block.to_vec()
    };
    for t in 16..rounds {
        let x = &w[t - 15];
        let s0 = Word::xor3(cs, &x.rotr(7), &x.rotr(18), &x.shr(3))?;
        let y = &w[t - 2];
        let s1 = Word::xor3(cs, &y.rotr(17), &y.rotr(19), &y.shr(10))?;
        let wt = Word::add_many(cs, &[&w[t - 16], &s0, &w[t - 7], &s1], 0)?;
        w.push(wt);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = state.clone();
    for (t, wt) in w.iter().enumerate() {
        let s1 = Word::xor3(cs, &e.rotr(6), &e.rotr(11), &e.rotr(25))?;
        let ch = Word::map3(cs, &e, &f, &g, Bit::ch)?;
        let s0 = Word::xor3(cs, &a.rotr(2), &a.rotr(13), &a.rotr(22))?;
        let maj = if maj_a_dense {
            Word::map3(cs, &a, &b, &c, Bit::maj_a_dense)?
        } else {
            Word::map3(cs, &a, &b, &c, Bit::maj)?
        };
        let new_e = Word::add_many(cs, &[&d, &h, &s1, &ch, wt], K[t])?;
        let new_a = Word::add_many(cs, &[&h, &s1, &ch, wt, &s0, &maj], K[t])?;
        h = g;
        g = f;
        f = e;
        e = new_e;
        d = c;
        c = b;
        b = a;
        a = new_a;
    }
    let out = [a, b, c, d, e, f, g, h];
    let mut res: Vec<Word> = Vec::with_capacity(8);
    for i in 0..8 {
        res.push(Word::add_many(cs, &[&state[i], &out[i]], 0)?);
    }
    Ok(res.try_into().expect("8 words"))
}

/// The IV as constant words.
pub fn iv_words() -> [Word; 8] {
    std::array::from_fn(|i| Word::constant(IV[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuits::testcs::TestCs;
    use sha2::Digest;

    fn abc_block() -> [u32; 16] {
        let mut bytes = [0u8; 64];
        bytes[..3].copy_from_slice(b"abc");
        bytes[3] = 0x80;
        bytes[63] = 24;
        std::array::from_fn(|i| u32::from_be_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()))
    }

    #[test]
    fn native_matches_sha2_abc() {
        let out = compress_native(IV, &abc_block(), 64);
        let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_be_bytes()).collect();
        assert_eq!(bytes, sha2::Sha256::digest(b"abc").to_vec());
    }

    fn circuit_out(state: [u32; 8], from_iv: bool, rounds: usize) -> (Vec<u32>, usize) {
        let block = abc_block();
        let mut cs = TestCs::new();
        let st: [Word; 8] = if from_iv {
            iv_words()
        } else {
            let v: Vec<Word> = state.iter().map(|s| Word::alloc(&mut cs, Some(*s)).unwrap()).collect();
            v.try_into().unwrap()
        };
        let before = cs.num_constraints();
        let msg: Vec<Word> = block[..message_words(rounds)]
            .iter()
            .map(|x| Word::alloc(&mut cs, Some(*x)).unwrap())
            .collect();
        let out = compress(&mut cs, &st, &msg, rounds, rounds.is_multiple_of(2)).unwrap();
        assert!(cs.is_satisfied(), "unsatisfied: {:?}", cs.first_failure());
        let count = cs.num_constraints() - before;
        (out.iter().map(|w| w.value().unwrap()).collect(), count)
    }

    #[test]
    fn circuit_matches_native() {
        for rounds in [1, 3, 17, 64] {
            let (out, _) = circuit_out(IV, true, rounds);
            assert_eq!(out, compress_native(IV, &abc_block(), rounds).to_vec());
            let st = compress_native(IV, &abc_block(), 64);
            let (out, _) = circuit_out(st, false, rounds);
            assert_eq!(out, compress_native(st, &abc_block(), rounds).to_vec());
        }
    }

    #[test]
    fn constraints_per_compression() {
        let st = compress_native(IV, &abc_block(), 64);
        let (_, n) = circuit_out(st, false, 64);
        eprintln!("sha256 compression (64 rounds, variable state, incl. 512 msg bits): {n}");
        assert!((25_000..30_000).contains(&n), "{n}");
        let (_, n_iv) = circuit_out(IV, true, 64);
        eprintln!("sha256 compression from constant IV: {n_iv}");
        assert!(n_iv < n);
    }
}
