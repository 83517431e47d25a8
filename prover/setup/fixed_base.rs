//! Fixed-base batch scalar multiplication: every query point of a setup is
//! `scalar * g1` or `scalar * g2`. The [`FixedBase`] trait is the boundary a
//! backend implements (this file: the CPU one, windowed tables on all cores);
//! a GPU backend implements the same trait.

use super::normalize::Normalize;
use super::SetupError;
use crate::phases::Recorder;
use blstrs::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar as Fr};
use group::Curve;
use rayon::prelude::*;

/// One batch: segments of scalars for each base; outputs keep the segments.
pub struct FixedBaseJob<'a> {
    pub g1: G1Projective,
    pub g1_scalars: Vec<&'a [Fr]>,
    pub g2: G2Projective,
    pub g2_scalars: Vec<&'a [Fr]>,
}

/// Affine results, one vector per input segment, in order.
pub struct FixedBaseOut {
    pub g1: Vec<Vec<G1Affine>>,
    pub g2: Vec<Vec<G2Affine>>,
}

/// A fixed-base backend. It records the phases `fixed_base_g1`,
/// `fixed_base_g2` and `normalize` on `rec`.
pub trait FixedBase: Sync {
    fn name(&self) -> &'static str;
    fn run(&self, job: &FixedBaseJob<'_>, rec: &Recorder) -> Result<FixedBaseOut, SetupError>;
}

/// Scalars per work item (window-major inner loop over these).
const BATCH: usize = 1024;
/// Largest window: 2^15 affine points per window (3 MiB in G1, 6 MiB in G2).
const MAX_WBITS: usize = 16;

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

fn normalize_segments<G>(segs: &[Vec<G>]) -> Vec<Vec<G::AffineRepr>>
where
    G: Curve + Normalize + Send + Sync,
    G::AffineRepr: Copy + Send + Sync + Default,
{
    segs.iter()
        .map(|s| {
            let mut out = vec![G::AffineRepr::default(); s.len()];
            G::normalize_par(s, &mut out);
            out
        })
        .collect()
}

/// The CPU backend: windowed tables, rayon over all cores, accumulation in
/// affine coordinates with batched inversions ([`super::batch_affine`]), so
/// the results are affine as computed and the `normalize` phase is empty.
pub struct CpuFixedBase;

impl FixedBase for CpuFixedBase {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn run(&self, job: &FixedBaseJob<'_>, rec: &Recorder) -> Result<FixedBaseOut, SetupError> {
        let n1: usize = job.g1_scalars.iter().map(|s| s.len()).sum();
        let n2: usize = job.g2_scalars.iter().map(|s| s.len()).sum();
        let (w1, w2) = (best_wbits(n1), best_wbits(n2));
        let g1 = rec.time("fixed_base_g1", || {
            Table::new(job.g1, w1).mul_segments_affine(&job.g1_scalars, AFFINE_BATCH)
        });
        annotate(rec, "fixed_base_g1", n1, w1);
        let g2 = rec.time("fixed_base_g2", || {
            Table::new(job.g2, w2).mul_segments_affine(&job.g2_scalars, AFFINE_BATCH)
        });
        annotate(rec, "fixed_base_g2", n2, w2);
        rec.time("normalize", || ());
        rec.annotate("normalize", "affine_accumulation", true.into());
        Ok(FixedBaseOut { g1, g2 })
    }
}

/// Scalars per affine batch (one inversion per window per batch).
const AFFINE_BATCH: usize = 2048;

fn annotate(rec: &Recorder, phase: &str, n: usize, w: usize) {
    rec.annotate(phase, "points", n.into());
    rec.annotate(phase, "window_bits", w.into());
}

/// The same windowed tables with mixed Jacobian additions, then blst's batch
/// conversion to affine (a real `normalize` phase). Kept as a cross-check
/// and for comparison.
pub struct CpuProjectiveFixedBase;

impl FixedBase for CpuProjectiveFixedBase {
    fn name(&self) -> &'static str {
        "cpu-projective"
    }

    fn run(&self, job: &FixedBaseJob<'_>, rec: &Recorder) -> Result<FixedBaseOut, SetupError> {
        let n1: usize = job.g1_scalars.iter().map(|s| s.len()).sum();
        let n2: usize = job.g2_scalars.iter().map(|s| s.len()).sum();
        let (w1, w2) = (best_wbits(n1), best_wbits(n2));
        let g1 = rec.time("fixed_base_g1", || Table::new(job.g1, w1).mul_segments(&job.g1_scalars));
        annotate(rec, "fixed_base_g1", n1, w1);
        let g2 = rec.time("fixed_base_g2", || Table::new(job.g2, w2).mul_segments(&job.g2_scalars));
        annotate(rec, "fixed_base_g2", n2, w2);
        let out = rec.time("normalize", || FixedBaseOut {
            g1: normalize_segments(&g1),
            g2: normalize_segments(&g2),
        });
        Ok(out)
    }
}

/// The backend named `name`: `cpu`, `cpu-projective`, `cuda` or `cuda:BITS`
/// (the GPU backend with BITS-bit windows, 2..=16), `cuda-host[:BITS]` (the
/// GPU backend's code built for the host, one thread per call: a check on
/// machines without a GPU, not a fast path), or an error naming what is
/// wrong or missing.
pub fn backend(name: &str) -> Result<Box<dyn FixedBase>, SetupError> {
    const VALID: &str = "valid: cpu, cpu-projective, cuda, cuda:BITS, cuda-host, cuda-host:BITS";
    match name {
        "cpu" => return Ok(Box::new(CpuFixedBase)),
        "cpu-projective" => return Ok(Box::new(CpuProjectiveFixedBase)),
        _ => {}
    }
    let (host, rest) = match name.strip_prefix("cuda-host") {
        Some(r) => (true, r),
        None => match name.strip_prefix("cuda") {
            Some(r) => (false, r),
            None => {
                return Err(SetupError::BackendNotBuilt(format!(
                    "unknown setup backend `{name}` ({VALID})"
                )))
            }
        },
    };
    let wbits = match rest.strip_prefix(':') {
        None if rest.is_empty() => None,
        Some(b) => match b.parse::<usize>() {
            Ok(w) if (2..=MAX_WBITS).contains(&w) => Some(w),
            _ => {
                return Err(SetupError::BackendNotBuilt(format!(
                    "setup backend `{name}`: window bits must be a number in 2..={MAX_WBITS}"
                )))
            }
        },
        None => {
            return Err(SetupError::BackendNotBuilt(format!(
                "unknown setup backend `{name}` ({VALID})"
            )))
        }
    };
    cuda_backend(wbits, host)
}

#[cfg(feature = "cuda")]
fn cuda_backend(wbits: Option<usize>, host: bool) -> Result<Box<dyn FixedBase>, SetupError> {
    let mut b = if host {
        super::gpu::CudaFixedBase::host_emulated()
    } else {
        // Fail before the shape and the QAP are computed when there is no device.
        crate::gpu::device::init().map_err(|e| SetupError::Gpu(e.to_string()))?;
        super::gpu::CudaFixedBase::default()
    };
    if let Some(w) = wbits {
        b.wbits = w;
    }
    Ok(Box::new(b))
}

#[cfg(not(feature = "cuda"))]
fn cuda_backend(_wbits: Option<usize>, _host: bool) -> Result<Box<dyn FixedBase>, SetupError> {
    Err(SetupError::BackendNotBuilt(
        "the GPU setup (--backend cuda, cuda-host) is not built in this binary (cargo feature `cuda`); use --backend cpu".into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn cpu_backend_normalizes_including_infinity() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let (b1, b2) = (G1Projective::random(&mut rng), G2Projective::random(&mut rng));
        let s: Vec<Fr> = (0..5000)
            .map(|i| if i % 97 == 0 { Fr::ZERO } else { Fr::random(&mut rng) })
            .collect();
        let job = FixedBaseJob {
            g1: b1,
            g1_scalars: vec![&s[..10], &s[10..]],
            g2: b2,
            g2_scalars: vec![&s[..300]],
        };
        for fb in [&CpuFixedBase as &dyn FixedBase, &CpuProjectiveFixedBase] {
            let rec = Recorder::new();
            let out = fb.run(&job, &rec).unwrap();
            let g1 = out.g1.concat();
            for (x, g) in s.iter().zip(&g1) {
                assert_eq!(*g, (b1 * x).to_affine(), "{}", fb.name());
            }
            for (x, g) in s.iter().zip(&out.g2[0]) {
                assert_eq!(*g, (b2 * x).to_affine(), "{}", fb.name());
            }
            let names: Vec<String> = rec.into_phases().into_iter().map(|p| p.name).collect();
            assert_eq!(names, ["fixed_base_g1", "fixed_base_g2", "normalize"]);
        }
    }

    #[test]
    fn window_choice_grows_with_count_and_cuda_is_refused() {
        assert!(best_wbits(10) < best_wbits(1 << 20));
        assert!(best_wbits(1 << 24) <= MAX_WBITS);
        if !cfg!(feature = "cuda") {
            for name in ["cuda", "cuda:11"] {
                let e = backend(name).err().map(|e| e.to_string()).unwrap_or_default();
                assert!(e.contains("not built"), "{e}");
            }
        }
        assert!(backend("tpu").is_err());
        for bad in ["cuda:1", "cuda:17", "cuda:x", "cuda12", "cuda:"] {
            let e = backend(bad).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(e.contains("window bits") || e.contains("unknown"), "{bad}: {e}");
        }
    }
}
