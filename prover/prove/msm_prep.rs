//! `msm_prep`: splits each MSM's scalars by class on the CPU, once per
//! circuit, for every proving engine. Zeros are dropped, ones become an index
//! list for batch addition, the rest (the "tail") an index list plus scalars
//! for Pippenger.
//!
//! A circuit's A and B scalars are the witness filtered by density; they are
//! split straight from the witness ([`Split::of_segments`]): a counting pass,
//! then each chunk writes its indices and tail scalars at its own offsets, so
//! no filtered copy of the witness and no per-chunk vectors are made (on a
//! GPU host `msm_prep` runs beside H on the device and was longer than it).

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
        Split::of_segments(&[Segment::all(scalars)])
    }
}

/// Scalars in parameter order from the witness: a run of values, all kept
/// (`density: None`) or those whose density bit is set.
#[derive(Clone, Copy)]
pub struct Segment<'a> {
    pub values: &'a [Fr],
    pub density: Option<&'a [bool]>,
}

impl<'a> Segment<'a> {
    /// Every value kept.
    pub fn all(values: &'a [Fr]) -> Self {
        Segment { values, density: None }
    }
    /// The values whose bit in `density` is set.
    pub fn masked(values: &'a [Fr], density: &'a [bool]) -> Self {
        Segment {
            values,
            density: Some(density),
        }
    }
}

/// What one chunk of a segment holds: kept values, ones and tail entries.
#[derive(Clone, Copy, Default)]
struct Counts {
    kept: usize,
    ones: usize,
    tail: usize,
}

/// One chunk of one segment: `values[start..end]` of segment `seg`.
#[derive(Clone, Copy)]
struct Piece {
    seg: usize,
    start: usize,
    end: usize,
}

impl Split {
    /// The split of the concatenation of `segs`, each filtered by its density,
    /// indices counting kept values only: equal to `Split::of` of the filtered
    /// concatenation, without making it.
    pub fn of_segments(segs: &[Segment]) -> Split {
        for s in segs {
            if let Some(d) = s.density {
                assert_eq!(d.len(), s.values.len(), "a density bit for every value");
            }
        }
        let pieces: Vec<Piece> = segs
            .iter()
            .enumerate()
            .flat_map(|(seg, s)| {
                (0..s.values.len().div_ceil(CHUNK)).map(move |k| Piece {
                    seg,
                    start: k * CHUNK,
                    end: ((k + 1) * CHUNK).min(s.values.len()),
                })
            })
            .collect();
        // Each kept value of a piece, in order, with its class (None: zero).
        let visit = |p: &Piece, f: &mut dyn FnMut(bool, &Fr)| {
            let s = &segs[p.seg];
            for i in p.start..p.end {
                if s.density.is_some_and(|d| !d[i]) {
                    continue;
                }
                let v = &s.values[i];
                f(!is_zero_vartime(v), v);
            }
        };
        let counts: Vec<Counts> = pieces
            .par_iter()
            .map(|p| {
                let mut c = Counts::default();
                visit(p, &mut |nonzero, v| {
                    c.kept += 1;
                    if nonzero {
                        if is_one_vartime(v) {
                            c.ones += 1;
                        } else {
                            c.tail += 1;
                        }
                    }
                });
                c
            })
            .collect();
        let total = counts.iter().fold(Counts::default(), |a, c| Counts {
            kept: a.kept + c.kept,
            ones: a.ones + c.ones,
            tail: a.tail + c.tail,
        });
        assert!(u32::try_from(total.kept).is_ok(), "at most 2^32 scalars");
        let mut ones = vec![0u32; total.ones];
        let mut tail_idx = vec![0u32; total.tail];
        let mut tail = vec![<Fr as ff::Field>::ZERO; total.tail];
        // Every piece's own output slices, cut in order.
        let mut jobs = Vec::with_capacity(pieces.len());
        let (mut o_rest, mut ti_rest, mut t_rest) = (&mut ones[..], &mut tail_idx[..], &mut tail[..]);
        let mut base = 0u32;
        for (p, c) in pieces.iter().zip(&counts) {
            let (o, or) = std::mem::take(&mut o_rest).split_at_mut(c.ones);
            let (ti, tir) = std::mem::take(&mut ti_rest).split_at_mut(c.tail);
            let (t, tr) = std::mem::take(&mut t_rest).split_at_mut(c.tail);
            (o_rest, ti_rest, t_rest) = (or, tir, tr);
            jobs.push((p, base, o, ti, t));
            base += c.kept as u32;
        }
        jobs.into_par_iter().for_each(|(p, base, o, ti, t)| {
            let (mut idx, mut no, mut nt) = (base, 0, 0);
            visit(p, &mut |nonzero, v| {
                if nonzero {
                    if is_one_vartime(v) {
                        o[no] = idx;
                        no += 1;
                    } else {
                        ti[nt] = idx;
                        t[nt] = *v;
                        nt += 1;
                    }
                }
                idx += 1;
            });
        });
        Split { ones, tail_idx, tail }
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

/// Splits the L, A and B scalars of one circuit (three splits in parallel),
/// A and B straight from the witness in [`a_scalars`]' and [`b_scalars`]' order.
pub fn circuit_splits(s: &Synthesized) -> CircuitSplits {
    use Segment as S;
    let ((l, a), b) = rayon::join(
        || {
            rayon::join(
                || Split::of_segments(&[S::all(&s.aux)]),
                || Split::of_segments(&[S::all(&s.inputs), S::masked(&s.aux, &s.a_aux_density)]),
            )
        },
        || {
            Split::of_segments(&[
                S::masked(&s.inputs, &s.b_input_density),
                S::masked(&s.aux, &s.b_aux_density),
            ])
        },
    );
    CircuitSplits { l, a, b }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ff::Field;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    /// The plain sequential split, as the reference.
    fn naive(v: &[Fr]) -> Split {
        let mut s = Split::default();
        for (i, x) in v.iter().enumerate() {
            if bool::from(x.is_zero()) {
                continue;
            }
            if *x == Fr::ONE {
                s.ones.push(i as u32);
            } else {
                s.tail_idx.push(i as u32);
                s.tail.push(*x);
            }
        }
        s
    }

    /// The split straight from the witness equals the plain split of the
    /// filtered copy, for densities with runs, gaps, chunk edges and empty
    /// segments.
    #[test]
    fn segment_split_equals_split_of_the_filtered_copy() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for (ni, na) in [(0, 0), (1, 0), (3, CHUNK - 1), (5, CHUNK * 3 + 17), (CHUNK + 2, 1000)] {
            let val = |i: usize, rng: &mut ChaCha8Rng| match (i * 7 + i / 3) % 9 {
                0..=3 => Fr::ZERO,
                4..=6 => Fr::ONE,
                _ => Fr::random(&mut *rng),
            };
            let inputs: Vec<Fr> = (0..ni).map(|i| val(i, &mut rng)).collect();
            let aux: Vec<Fr> = (0..na).map(|i| val(i + 13, &mut rng)).collect();
            let da: Vec<bool> = (0..na).map(|i| i % 11 != 3 && i % 200 < 180).collect();
            let dbi: Vec<bool> = (0..ni).map(|i| i % 2 == 0).collect();
            let dba: Vec<bool> = (0..na).map(|i| (i / 5) % 3 == 1).collect();
            let mut fa = inputs.clone();
            filtered(&aux, &da, &mut fa);
            let mut fb = Vec::new();
            filtered(&inputs, &dbi, &mut fb);
            filtered(&aux, &dba, &mut fb);
            use Segment as S;
            assert_eq!(
                Split::of_segments(&[S::all(&inputs), S::masked(&aux, &da)]),
                naive(&fa),
                "A, {ni} inputs, {na} aux"
            );
            assert_eq!(
                Split::of_segments(&[S::masked(&inputs, &dbi), S::masked(&aux, &dba)]),
                naive(&fb),
                "B, {ni} inputs, {na} aux"
            );
            assert_eq!(Split::of(&aux), naive(&aux));
        }
    }

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
