//! Radix-2 NTT over Fr, parallel with rayon, plus the coset variants and
//! the quotient step that Groth16's H polynomial needs.

use blstrs::Scalar as Fr;
use ff::{Field, PrimeField};
use rayon::prelude::*;

/// Parallel threshold: below this many elements, stay on one thread.
const PAR_MIN: usize = 1 << 12;

/// A power-of-two evaluation domain.
pub struct Domain {
    pub log2: u32,
    pub n: usize,
    omega: Fr,
    omega_inv: Fr,
    n_inv: Fr,
}

impl Domain {
    /// The smallest domain holding `len` points; `None` when beyond 2^32.
    pub fn for_len(len: usize) -> Option<Domain> {
        let n = len.max(1).next_power_of_two();
        let log2 = n.trailing_zeros();
        if log2 > Fr::S {
            return None;
        }
        let mut omega = Fr::ROOT_OF_UNITY;
        for _ in log2..Fr::S {
            omega = omega.square();
        }
        let omega_inv = omega.invert().unwrap();
        let n_inv = Fr::from(n as u64).invert().unwrap();
        Some(Domain {
            log2,
            n,
            omega,
            omega_inv,
            n_inv,
        })
    }

    pub fn ntt(&self, v: &mut [Fr]) {
        transform(v, self.omega, self.log2);
    }

    pub fn intt(&self, v: &mut [Fr]) {
        transform(v, self.omega_inv, self.log2);
        let ninv = self.n_inv;
        v.par_iter_mut().with_min_len(PAR_MIN).for_each(|x| *x *= ninv);
    }

    /// Evaluations on the coset g*H of the polynomial with coefficients `v`.
    pub fn coset_ntt(&self, v: &mut [Fr]) {
        distribute_powers(v, Fr::MULTIPLICATIVE_GENERATOR);
        self.ntt(v);
    }

    /// Coefficients from evaluations on the coset g*H.
    pub fn coset_intt(&self, v: &mut [Fr]) {
        self.intt(v);
        distribute_powers(v, Fr::MULTIPLICATIVE_GENERATOR.invert().unwrap());
    }

    /// 1 / Z(g) where Z(x) = x^n - 1, constant on the coset g*H.
    pub fn z_inv_on_coset(&self) -> Fr {
        let g = Fr::MULTIPLICATIVE_GENERATOR;
        (g.pow_vartime([self.n as u64]) - Fr::ONE).invert().unwrap()
    }
}

/// Multiplies `v[i]` by `g^i`.
pub fn distribute_powers(v: &mut [Fr], g: Fr) {
    let chunk = (v.len() / rayon::current_num_threads().max(1)).max(PAR_MIN);
    v.par_chunks_mut(chunk).enumerate().for_each(|(ci, c)| {
        let mut p = g.pow_vartime([(ci * chunk) as u64]);
        for x in c.iter_mut() {
            *x *= p;
            p *= g;
        }
    });
}

fn bit_reverse(v: &mut [Fr], log2: u32) {
    let n = v.len();
    for i in 0..n {
        let j = i.reverse_bits() >> (usize::BITS - log2);
        if i < j {
            v.swap(i, j);
        }
    }
}

fn transform(v: &mut [Fr], omega: Fr, log2: u32) {
    let n = v.len();
    assert_eq!(n, 1usize << log2, "NTT length must be the domain size");
    if n == 1 {
        return;
    }
    bit_reverse(v, log2);
    // twiddles[k] = omega^k, k < n/2
    let half = n / 2;
    let mut tw = vec![Fr::ONE; half];
    let chunk = (half / rayon::current_num_threads().max(1)).max(PAR_MIN);
    tw.par_chunks_mut(chunk).enumerate().for_each(|(ci, c)| {
        let mut p = omega.pow_vartime([(ci * chunk) as u64]);
        for x in c.iter_mut() {
            *x = p;
            p *= omega;
        }
    });
    let mut m = 1;
    while m < n {
        let stride = n / (2 * m);
        let blocks = n / (2 * m);
        let butterfly = |blk: &mut [Fr]| {
            let (lo, hi) = blk.split_at_mut(m);
            for j in 0..m {
                let t = hi[j] * tw[j * stride];
                hi[j] = lo[j] - t;
                lo[j] += t;
            }
        };
        if n < PAR_MIN {
            v.chunks_mut(2 * m).for_each(butterfly);
        } else if blocks >= rayon::current_num_threads() * 4 {
            v.par_chunks_mut(2 * m).for_each(butterfly);
        } else {
            for blk in v.chunks_mut(2 * m) {
                let (lo, hi) = blk.split_at_mut(m);
                lo.par_iter_mut()
                    .zip(hi.par_iter_mut())
                    .enumerate()
                    .with_min_len(PAR_MIN / 4)
                    .for_each(|(j, (l, h))| {
                        let t = *h * tw[j * stride];
                        *h = *l - t;
                        *l += t;
                    });
            }
        }
        m *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    fn naive_eval(coeffs: &[Fr], x: Fr) -> Fr {
        coeffs.iter().rev().fold(Fr::ZERO, |acc, c| acc * x + c)
    }

    #[test]
    fn ntt_matches_naive_and_inverts() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for log2 in [0u32, 1, 3, 6, 13] {
            let d = Domain::for_len(1 << log2).unwrap();
            let coeffs: Vec<Fr> = (0..d.n).map(|_| Fr::random(&mut rng)).collect();
            let mut v = coeffs.clone();
            d.ntt(&mut v);
            for k in [0usize, d.n / 2, d.n - 1] {
                assert_eq!(v[k], naive_eval(&coeffs, d.omega.pow_vartime([k as u64])));
            }
            d.intt(&mut v);
            assert_eq!(v, coeffs);
            let mut w = coeffs.clone();
            d.coset_ntt(&mut w);
            let g = Fr::MULTIPLICATIVE_GENERATOR;
            assert_eq!(
                w[d.n - 1],
                naive_eval(&coeffs, g * d.omega.pow_vartime([(d.n - 1) as u64]))
            );
            d.coset_intt(&mut w);
            assert_eq!(w, coeffs);
        }
    }
}
