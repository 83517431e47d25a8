//! The CPU's fixed-base engines: windowed tables ([`Table`]) on all cores,
//! accumulated in affine coordinates ([`CpuFixedBase`]) or in Jacobian ones
//! and then normalized ([`CpuProjectiveFixedBase`], a cross-check).

use super::error::SetupError;
use super::fixed_base::{FixedBase, FixedBaseJob, FixedBaseOut};
use super::normalize::Normalize;
use super::table::{best_wbits, Table};
use crate::phases::Recorder;
use group::Curve;

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

#[cfg(test)]
mod tests {
    use super::*;
    use blstrs::{G1Projective, G2Projective, Scalar as Fr};
    use ff::Field;
    use group::Group;
    use rand_core::SeedableRng;

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
}
