//! Windowed fixed-base tables ([`Table`]): `k * 2^(w*i) * base` for every
//! window, so one scalar multiplication is one mixed addition per window
//! with signed digits. Built on the host for every fixed-base engine (the
//! GPU's uploads them); the CPU's multiplies with them here and in
//! `super::batch_affine`.

use super::normalize::Normalize;
use blstrs::Scalar as Fr;
use group::Curve;
use rayon::prelude::*;

/// Scalars per work item (window-major inner loop over these).
const BATCH: usize = 1024;
/// Largest window: 2^15 affine points per window (3 MiB in G1, 6 MiB in G2).
pub(crate) const MAX_WBITS: usize = 16;

/// Precomputed `k * 2^(w*i) * base` for k in 1..=2^(w-1), every window i,
/// so a scalar multiplication is one mixed addition per window with signed digits.
pub struct Table<G: Curve> {
    wbits: usize,
    windows: usize,
    points: Vec<G::AffineRepr>,
}

/// Windows so that the top window has at most `w - 1` bits of a 255-bit scalar
/// (the signed recoding's final carry then fits).
fn windows_for(w: usize) -> usize {
    256usize.div_ceil(w)
}

/// The window minimizing additions for `n` scalars (table build counted too).
pub fn best_wbits(n: usize) -> usize {
    (2..=MAX_WBITS)
        .min_by_key(|&w| {
            let wins = windows_for(w) as u128;
            wins * n as u128 * 2 + wins * (1u128 << (w - 1)) * 3
        })
        .unwrap_or(8)
}

impl<G> Table<G>
where
    G: Curve + Normalize + Send + Sync,
    G::AffineRepr: Copy + Send + Sync + Default,
{
    pub fn new(base: G, wbits: usize) -> Self {
        let wbits = wbits.clamp(2, MAX_WBITS);
        let windows = windows_for(wbits);
        let half = 1usize << (wbits - 1);
        let mut starts = Vec::with_capacity(windows);
        let mut b = base;
        for _ in 0..windows {
            starts.push(b);
            for _ in 0..wbits {
                b = b.double();
            }
        }
        let mut proj = vec![G::identity(); windows * half];
        proj.par_chunks_mut(half).zip(starts).for_each(|(row, s)| {
            let mut acc = s;
            for p in row.iter_mut() {
                *p = acc;
                acc += s;
            }
        });
        let mut points = vec![G::AffineRepr::default(); proj.len()];
        G::normalize_par(&proj, &mut points);
        Table { wbits, windows, points }
    }

    pub fn wbits(&self) -> usize {
        self.wbits
    }
    /// Every window's row, window after window (`windows * half` points).
    pub fn points(&self) -> &[G::AffineRepr] {
        &self.points
    }
    pub(crate) fn windows(&self) -> usize {
        self.windows
    }
    pub(crate) fn half(&self) -> usize {
        1 << (self.wbits - 1)
    }
    /// Window `i`'s multiples 1..=half of 2^(w*i) * base.
    pub(crate) fn row(&self, i: usize, half: usize) -> &[G::AffineRepr] {
        &self.points[i * half..(i + 1) * half]
    }

    /// Signed digits of `s` (little-endian windows), each in [-2^(w-1), 2^(w-1)].
    pub(crate) fn digits(&self, s: &Fr, out: &mut [i32]) {
        let b = s.to_bytes_le();
        let limbs: [u64; 4] = std::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()));
        let w = self.wbits;
        let (full, half) = (1i64 << w, 1i64 << (w - 1));
        let mut carry = 0i64;
        for (i, d) in out.iter_mut().enumerate().take(self.windows) {
            let bit = i * w;
            let (limb, off) = (bit / 64, bit % 64);
            let mut v = if limb < 4 { limbs[limb] >> off } else { 0 };
            if off + w > 64 && limb + 1 < 4 {
                v |= limbs[limb + 1] << (64 - off);
            }
            let mut x = (v & ((1u64 << w) - 1)) as i64 + carry;
            carry = 0;
            if x > half {
                x -= full;
                carry = 1;
            }
            *d = x as i32;
        }
    }

    /// `out[k] = scalars[k] * base` (projective), window-major over a batch
    /// so each window's slice of the table stays in cache.
    pub fn mul_batch(&self, scalars: &[Fr], out: &mut [G]) {
        let half = 1usize << (self.wbits - 1);
        let mut dig = vec![0i32; scalars.len() * self.windows];
        for (s, d) in scalars.iter().zip(dig.chunks_mut(self.windows)) {
            self.digits(s, d);
        }
        out.iter_mut().for_each(|o| *o = G::identity());
        for i in 0..self.windows {
            let row = &self.points[i * half..(i + 1) * half];
            for (k, o) in out.iter_mut().enumerate() {
                let d = dig[k * self.windows + i];
                if d > 0 {
                    *o += &row[(d - 1) as usize];
                } else if d < 0 {
                    *o -= &row[(-d - 1) as usize];
                }
            }
        }
    }

    /// Multiplies every segment in parallel (one work list across segments).
    pub fn mul_segments(&self, segs: &[&[Fr]]) -> Vec<Vec<G>> {
        let mut outs: Vec<Vec<G>> = segs.iter().map(|s| vec![G::identity(); s.len()]).collect();
        let mut items: Vec<(&[Fr], &mut [G])> = Vec::new();
        for (s, o) in segs.iter().zip(outs.iter_mut()) {
            items.extend(s.chunks(BATCH).zip(o.chunks_mut(BATCH)));
        }
        items.into_par_iter().for_each(|(s, o)| self.mul_batch(s, o));
        outs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blstrs::{G1Projective, G2Projective};
    use ff::Field;
    use group::Group;
    use rand_core::SeedableRng;

    fn edge_scalars() -> Vec<Fr> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut v = vec![Fr::ZERO, Fr::ONE, -Fr::ONE, Fr::from(2u64), Fr::from(u64::MAX)];
        v.push(Fr::from(1u64 << 15) + Fr::from(1u64 << 31));
        // 14 * 2^252 mod r: with 4-, 12- (and 6-, 7-, 9-, 14-) bit windows the
        // top window adds a point equal to the accumulator (the doubling branch).
        v.push(Fr::from(14u64) * Fr::from(2u64).pow_vartime([252]));
        v.extend((0..40).map(|_| Fr::random(&mut rng)));
        v
    }

    #[test]
    fn windowed_matches_plain_multiplication_g1_and_g2() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let (b1, b2) = (G1Projective::random(&mut rng), G2Projective::random(&mut rng));
        let s = edge_scalars();
        for w in [2, 3, 4, 5, 8, 12, 13, 16] {
            let t1 = Table::new(b1, w);
            let got = t1.mul_segments(&[&s[..7], &s[7..]]).concat();
            for (x, g) in s.iter().zip(&got) {
                assert_eq!(*g, b1 * x, "G1 w={w}");
            }
            if w > 12 {
                continue; // the largest G2 tables take seconds to build
            }
            let aff = t1.mul_segments_affine(&[&s], 7).concat();
            for (x, g) in s.iter().zip(&aff) {
                assert_eq!(*g, (b1 * x).to_affine(), "G1 affine w={w}");
            }
            let t2 = Table::new(b2, w);
            let mut out = vec![G2Projective::identity(); s.len()];
            t2.mul_batch(&s, &mut out);
            for (x, g) in s.iter().zip(&out) {
                assert_eq!(*g, b2 * x, "G2 w={w}");
            }
            let aff = t2.mul_segments_affine(&[&s], 5).concat();
            for (x, g) in s.iter().zip(&aff) {
                assert_eq!(*g, (b2 * x).to_affine(), "G2 affine w={w}");
            }
        }
    }

    #[test]
    fn window_choice_grows_with_count() {
        assert!(best_wbits(10) < best_wbits(1 << 20));
        assert!(best_wbits(1 << 24) <= MAX_WBITS);
    }
}
