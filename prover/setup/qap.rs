//! The QAP at tau: the Lagrange basis of the domain evaluated at tau in O(n)
//! (one batch inversion, no interpolation), then u_j(tau), v_j(tau), w_j(tau)
//! per variable accumulated from the recorded CSR matrices.

use crate::shape::{Matrix, Shape, COEFF_ONE};
use blstrs::Scalar as Fr;
use ff::{Field, PrimeField};
use rayon::prelude::*;

const CHUNK: usize = 1 << 14;

/// The size-`n` radix-2 root of unity, as bellperson's domain picks it.
pub fn omega(log2: u32) -> Fr {
    let mut w = Fr::ROOT_OF_UNITY;
    for _ in log2..Fr::S {
        w = w.square();
    }
    w
}

/// Z(tau) = tau^n - 1, the domain's vanishing polynomial at tau.
pub fn vanishing(tau: &Fr, n: usize) -> Fr {
    tau.pow_vartime([n as u64]) - Fr::ONE
}

/// `out[i] = start * step^i`, in parallel chunks.
pub fn geometric(start: Fr, step: Fr, n: usize) -> Vec<Fr> {
    let mut out = vec![Fr::ZERO; n];
    out.par_chunks_mut(CHUNK).enumerate().for_each(|(c, ch)| {
        let mut x = start * step.pow_vartime([(c * CHUNK) as u64]);
        for v in ch {
            *v = x;
            x *= step;
        }
    });
    out
}

/// In-place Montgomery batch inversion of nonzero elements.
fn batch_invert(v: &mut [Fr]) {
    let mut prefix = Vec::with_capacity(v.len());
    let mut acc = Fr::ONE;
    for x in v.iter() {
        prefix.push(acc);
        acc *= x;
    }
    let mut inv = acc.invert().unwrap_or(Fr::ZERO);
    for (x, p) in v.iter_mut().zip(prefix).rev() {
        let t = *x;
        *x = inv * p;
        inv *= t;
    }
}

/// L_i(tau) for i in 0..n on the domain of size `n = 2^log2`:
/// L_i(tau) = Z(tau)/n * omega^i / (tau - omega^i).
pub fn lagrange_at(tau: &Fr, log2: u32) -> Vec<Fr> {
    let n = 1usize << log2;
    let w = omega(log2);
    let mut pw = geometric(Fr::ONE, w, n);
    let z = vanishing(tau, n);
    if bool::from(z.is_zero()) {
        // tau is a domain point: the basis is an indicator.
        pw.par_iter_mut()
            .for_each(|x| *x = if *x == *tau { Fr::ONE } else { Fr::ZERO });
        return pw;
    }
    let scale = z * Fr::from(n as u64).invert().unwrap_or(Fr::ZERO);
    pw.par_chunks_mut(CHUNK).for_each(|ch| {
        let mut den: Vec<Fr> = ch.iter().map(|x| *tau - x).collect();
        batch_invert(&mut den);
        for (x, d) in ch.iter_mut().zip(den) {
            *x = scale * *x * d;
        }
    });
    pw
}

/// Sum over the rows of `m` of coefficient * lagrange[row], per column.
/// Columns are split into ranges; each worker scans all entries and adds
/// only those in its range, so there is no shared accumulator.
fn accumulate(m: &Matrix, table: &[Fr], lag: &[Fr], num_vars: usize) -> Vec<Fr> {
    let mut out = vec![Fr::ZERO; num_vars];
    let parts = (rayon::current_num_threads() * 2).clamp(1, num_vars.max(1));
    let per = num_vars.div_ceil(parts).max(1);
    out.par_chunks_mut(per).enumerate().for_each(|(p, acc)| {
        let lo = (p * per) as u32;
        let hi = lo + acc.len() as u32;
        for (w, l) in m.row_ptr.windows(2).zip(lag) {
            let (s, e) = (w[0] as usize, w[1] as usize);
            for (&col, &k) in m.cols[s..e].iter().zip(&m.coeffs[s..e]) {
                if col >= lo && col < hi {
                    let t = &mut acc[(col - lo) as usize];
                    if k == COEFF_ONE {
                        *t += l;
                    } else {
                        *t += table[k as usize] * l;
                    }
                }
            }
        }
    });
    out
}

/// u_j(tau), v_j(tau), w_j(tau) for every variable j of `[inputs | aux]`.
pub struct QapAtTau {
    pub u: Vec<Fr>,
    pub v: Vec<Fr>,
    pub w: Vec<Fr>,
}

/// Evaluates the QAP of `shape` at the Lagrange basis values `lag` (length >= rows).
pub fn eval(shape: &Shape, lag: &[Fr]) -> QapAtTau {
    let (nv, t) = (shape.num_vars(), &shape.coeff_table);
    QapAtTau {
        u: accumulate(&shape.a, t, lag, nv),
        v: accumulate(&shape.b, t, lag, nv),
        w: accumulate(&shape.c, t, lag, nv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    #[test]
    fn lagrange_basis_properties() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let tau = Fr::random(&mut rng);
        let log2 = 6;
        let l = lagrange_at(&tau, log2);
        // The basis sums to one and interpolates x: sum L_i(tau) w^i = tau.
        assert_eq!(l.iter().sum::<Fr>(), Fr::ONE);
        let w = geometric(Fr::ONE, omega(log2), 64);
        assert_eq!(l.iter().zip(&w).map(|(a, b)| *a * b).sum::<Fr>(), tau);
        // At a domain point the basis is the indicator of that point.
        let at = lagrange_at(&w[5], log2);
        assert!(at
            .iter()
            .enumerate()
            .all(|(i, x)| *x == if i == 5 { Fr::ONE } else { Fr::ZERO }));
    }

    #[test]
    fn batch_inversion_matches_single() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let v: Vec<Fr> = (0..33).map(|_| Fr::random(&mut rng)).collect();
        let mut b = v.clone();
        batch_invert(&mut b);
        for (x, y) in v.iter().zip(&b) {
            assert_eq!(*x * y, Fr::ONE);
        }
    }
}
