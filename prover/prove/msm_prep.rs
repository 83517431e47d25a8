//! `msm_prep`: splits each MSM's scalars by class on the CPU, once per
//! circuit, for every proving engine. Zeros are dropped, ones become an index
//! list for batch addition, the rest (the "tail") an index list plus scalars
//! for Pippenger.

use crate::cs::{is_one_vartime, is_zero_vartime};
use crate::synth::Synthesized;
use blstrs::Scalar as Fr;
use rayon::prelude::*;

const CHUNK: usize = 1 << 15;

/// One MSM's scalars split by class; indices refer to the point vector.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Split {
    pub ones: Vec<u32>,
    pub tail_idx: Vec<u32>,
    pub tail: Vec<Fr>,
}

impl Split {
    /// Splits `scalars` (at most 2^32 of them).
    pub fn of(scalars: &[Fr]) -> Split {
        let parts: Vec<Split> = scalars
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(ci, chunk)| {
                let base = (ci * CHUNK) as u32;
                let mut s = Split::default();
                // Variable time, as the split itself is: it branches on values.
                for (i, v) in chunk.iter().enumerate() {
                    if is_zero_vartime(v) {
                        continue;
                    }
                    let idx = base + i as u32;
                    if is_one_vartime(v) {
                        s.ones.push(idx);
                    } else {
                        s.tail_idx.push(idx);
                        s.tail.push(*v);
                    }
                }
                s
            })
            .collect();
        let mut out = Split {
            ones: Vec::with_capacity(parts.iter().map(|p| p.ones.len()).sum()),
            tail_idx: Vec::with_capacity(parts.iter().map(|p| p.tail.len()).sum()),
            tail: Vec::with_capacity(parts.iter().map(|p| p.tail.len()).sum()),
        };
        for p in parts {
            out.ones.extend_from_slice(&p.ones);
            out.tail_idx.extend_from_slice(&p.tail_idx);
            out.tail.extend_from_slice(&p.tail);
        }
        out
    }
}

fn filtered(values: &[Fr], density: &[bool], out: &mut Vec<Fr>) {
    out.extend(values.iter().zip(density).filter(|(_, d)| **d).map(|(v, _)| *v));
}

/// A scalars in parameter order: every input, then aux with A density.
pub fn a_scalars(s: &Synthesized) -> Vec<Fr> {
    let mut v = s.inputs.clone();
    filtered(&s.aux, &s.a_aux_density, &mut v);
    v
}

/// B scalars in parameter order: inputs with B density, then aux with B density.
pub fn b_scalars(s: &Synthesized) -> Vec<Fr> {
    let mut v = Vec::new();
    filtered(&s.inputs, &s.b_input_density, &mut v);
    filtered(&s.aux, &s.b_aux_density, &mut v);
    v
}

/// The three split MSMs of one circuit (B serves both B_G1 and B_G2).
pub struct CircuitSplits {
    pub l: Split,
    pub a: Split,
    pub b: Split,
}

/// Splits the L, A and B scalars of one circuit (three splits in parallel).
pub fn circuit_splits(s: &Synthesized) -> CircuitSplits {
    let ((l, a), b) = rayon::join(
        || rayon::join(|| Split::of(&s.aux), || Split::of(&a_scalars(s))),
        || Split::of(&b_scalars(s)),
    );
    CircuitSplits { l, a, b }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ff::Field;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn split_classifies_and_keeps_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let n = CHUNK * 2 + 77;
        let v: Vec<Fr> = (0..n)
            .map(|i| match i % 5 {
                0 | 1 => Fr::ZERO,
                2 => Fr::ONE,
                _ => Fr::random(&mut rng),
            })
            .collect();
        let s = Split::of(&v);
        assert_eq!(
            s.ones.len() + s.tail.len() + v.iter().filter(|x| bool::from(x.is_zero())).count(),
            n
        );
        assert!(s.ones.windows(2).all(|w| w[0] < w[1]));
        assert!(s.tail_idx.windows(2).all(|w| w[0] < w[1]));
        for (i, x) in s.tail_idx.iter().zip(&s.tail) {
            assert_eq!(v[*i as usize], *x);
            assert_ne!(*x, Fr::ONE);
        }
        for i in &s.ones {
            assert_eq!(v[*i as usize], Fr::ONE);
        }
    }
}
