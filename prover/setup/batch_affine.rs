//! Fixed-base accumulation in affine coordinates: every accumulator of a
//! batch adds its table point in the same step, sharing one field inversion
//! per window (Montgomery's trick). An affine addition then costs about six
//! field multiplications against eleven for a mixed Jacobian addition, and
//! the results need no normalization afterwards.

use super::fixed_base::Table;
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
}

impl AffinePt for G1Affine {
    type F = Fp;
    fn xy(&self) -> (Fp, Fp) {
        (self.x(), self.y())
    }
    fn from_xy(x: Fp, y: Fp) -> Self {
        G1Affine::from_raw_unchecked(x, y, false)
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
    /// one shared inversion per window of the batch.
    pub fn mul_batch_affine(&self, scalars: &[Fr], out: &mut [G::AffineRepr]) {
        type F<G> = <<G as Curve>::AffineRepr as AffinePt>::F;
        let (w, half) = (self.windows(), self.half());
        let mut dig = vec![0i32; scalars.len() * w];
        for (s, d) in scalars.iter().zip(dig.chunks_mut(w)) {
            self.digits(s, d);
        }
        out.iter_mut().for_each(|o| *o = G::AffineRepr::identity());
        let (mut den, mut prefix): (Vec<F<G>>, Vec<F<G>>) = (vec![], vec![]);
        let mut todo: Vec<(usize, G::AffineRepr)> = vec![];
        for i in 0..w {
            let row = self.row(i, half);
            den.clear();
            todo.clear();
            for (k, o) in out.iter_mut().enumerate() {
                let d = dig[k * w + i];
                if d == 0 {
                    continue;
                }
                let p = if d > 0 {
                    row[(d - 1) as usize]
                } else {
                    -row[(-d - 1) as usize]
                };
                if bool::from(o.is_identity()) {
                    *o = p;
                    continue;
                }
                let (x1, x2) = (o.xy().0, p.xy().0);
                if x1 == x2 {
                    // Same or opposite point: rare, done in projective form.
                    *o = if p == *o {
                        o.to_curve().double().to_affine()
                    } else {
                        G::AffineRepr::identity()
                    };
                    continue;
                }
                den.push(x2 - x1);
                todo.push((k, p));
            }
            batch_invert(&mut den, &mut prefix);
            for ((k, p), inv) in todo.iter().zip(&den) {
                let ((x1, y1), (x2, y2)) = (out[*k].xy(), p.xy());
                let l = (y2 - y1) * inv;
                let x3 = l.square() - x1 - x2;
                let y3 = l * (x1 - x3) - y1;
                out[*k] = G::AffineRepr::from_xy(x3, y3);
            }
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
