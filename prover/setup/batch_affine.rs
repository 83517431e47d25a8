//! Fixed-base accumulation in affine coordinates: every accumulator of a
//! batch adds its table point in the same step, sharing one field inversion
//! per window (Montgomery's trick). An affine addition then costs about six
//! field multiplications against eleven for a mixed Jacobian addition, and
//! the results need no normalization afterwards.

use super::table::Table;
use blstrs::{Fp, Fp2, G1Affine, G2Affine, Scalar as Fr};
use ff::Field;
use group::prime::PrimeCurveAffine;
use group::Curve;
use rayon::prelude::*;

/// Affine coordinates of a curve point (blst encodes infinity as (0, 0)).
pub trait AffinePt: PrimeCurveAffine + Copy + Send + Sync + Default + PartialEq {
    type F: Field;
    fn xy(&self) -> (Self::F, Self::F);
    fn from_xy(x: Self::F, y: Self::F) -> Self;
    /// Equality of coordinates in variable time (the points of a setup are
    /// public, so `ff`'s constant-time comparison buys nothing here).
    fn eq_vartime(a: &Self::F, b: &Self::F) -> bool;
}

impl AffinePt for G1Affine {
    type F = Fp;
    fn xy(&self) -> (Fp, Fp) {
        (self.x(), self.y())
    }
    fn from_xy(x: Fp, y: Fp) -> Self {
        G1Affine::from_raw_unchecked(x, y, false)
    }
    #[inline]
    fn eq_vartime(a: &Fp, b: &Fp) -> bool {
        blst::blst_fp::from(*a).l == blst::blst_fp::from(*b).l
    }
}

impl AffinePt for G2Affine {
    type F = Fp2;
    fn xy(&self) -> (Fp2, Fp2) {
        (self.x(), self.y())
    }
    fn from_xy(x: Fp2, y: Fp2) -> Self {
        G2Affine::from_raw_unchecked(x, y, false)
    }
    #[inline]
    fn eq_vartime(a: &Fp2, b: &Fp2) -> bool {
        G1Affine::eq_vartime(&a.c0(), &b.c0()) && G1Affine::eq_vartime(&a.c1(), &b.c1())
    }
}

/// Inverts every (nonzero) element of `v` with one field inversion.
fn batch_invert<F: Field>(v: &mut [F], prefix: &mut Vec<F>) {
    prefix.clear();
    let mut acc = F::ONE;
    for x in v.iter() {
        prefix.push(acc);
        acc *= x;
    }
    let mut inv = Option::<F>::from(acc.invert()).unwrap_or(F::ZERO);
    for (x, p) in v.iter_mut().zip(prefix.iter()).rev() {
        let t = *x;
        *x = inv * p;
        inv *= t;
    }
}

impl<G> Table<G>
where
    G: Curve + super::normalize::Normalize + Send + Sync,
    G::AffineRepr: AffinePt<Curve = G>,
{
    /// `out[k] = scalars[k] * base` in affine coordinates, window-major with
    /// one shared inversion per window of the batch. Accumulators are kept
    /// as separate x and y arrays with a flag for "finite" (no infinity
    /// checks on points), and every comparison is variable-time.
    pub fn mul_batch_affine(&self, scalars: &[Fr], out: &mut [G::AffineRepr]) {
        type F<G> = <<G as Curve>::AffineRepr as AffinePt>::F;
        type A<G> = <G as Curve>::AffineRepr;
        let (w, half, n) = (self.windows(), self.half(), scalars.len());
        let mut dig = vec![0i32; n * w];
        for (s, d) in scalars.iter().zip(dig.chunks_mut(w)) {
            self.digits(s, d);
        }
        let mut x: Vec<F<G>> = vec![F::<G>::ZERO; n];
        let mut y: Vec<F<G>> = vec![F::<G>::ZERO; n];
        let mut live = vec![false; n];
        let (mut den, mut prefix): (Vec<F<G>>, Vec<F<G>>) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut todo: Vec<(usize, F<G>, F<G>)> = Vec::with_capacity(n);
        for i in 0..w {
            let row = self.row(i, half);
            den.clear();
            todo.clear();
            for k in 0..n {
                let d = dig[k * w + i];
                if d == 0 {
                    continue;
                }
                let (px, py) = row[(d.unsigned_abs() - 1) as usize].xy();
                let py = if d > 0 { py } else { -py };
                if !live[k] {
                    (x[k], y[k], live[k]) = (px, py, true);
                    continue;
                }
                if A::<G>::eq_vartime(&x[k], &px) {
                    // Same or opposite point: rare, done in projective form.
                    if A::<G>::eq_vartime(&y[k], &py) {
                        let p = A::<G>::from_xy(px, py).to_curve().double().to_affine();
                        (x[k], y[k]) = p.xy();
                    } else {
                        live[k] = false;
                    }
                    continue;
                }
                den.push(px - x[k]);
                todo.push((k, px, py));
            }
            batch_invert(&mut den, &mut prefix);
            for ((k, px, py), inv) in todo.iter().zip(&den) {
                let (x1, y1) = (x[*k], y[*k]);
                let l = (*py - y1) * inv;
                let x3 = l.square() - x1 - px;
                y[*k] = l * (x1 - x3) - y1;
                x[*k] = x3;
            }
        }
        for (k, o) in out.iter_mut().enumerate() {
            *o = if live[k] {
                A::<G>::from_xy(x[k], y[k])
            } else {
                A::<G>::identity()
            };
        }
    }

    /// Affine results for every segment, in parallel batches.
    pub fn mul_segments_affine(&self, segs: &[&[Fr]], batch: usize) -> Vec<Vec<G::AffineRepr>> {
        let mut outs: Vec<Vec<G::AffineRepr>> = segs.iter().map(|s| vec![Default::default(); s.len()]).collect();
        let mut items: Vec<(&[Fr], &mut [G::AffineRepr])> = Vec::new();
        for (s, o) in segs.iter().zip(outs.iter_mut()) {
            items.extend(s.chunks(batch).zip(o.chunks_mut(batch)));
        }
        items.into_par_iter().for_each(|(s, o)| self.mul_batch_affine(s, o));
        outs
    }
}
