//! The GPU fixed-base backend (`--backend cuda`, cargo feature `cuda`): the
//! window tables are built on the host ([`Table`], the CPU backend's own),
//! uploaded once per group, and `cuda/pl_fixed_base.cuh` multiplies every
//! scalar (one mixed XYZZ addition per window) and batch-normalizes the
//! results to affine on the device, chunk by chunk.
//!
//! Phases: `fixed_base_g1` and `fixed_base_g2` are host wall time of each
//! group (table build, transfers, kernels) with the device spans, summed
//! over chunks, nested under them (`fb_table`, `fb_h2d`, `fb_mul`,
//! `fb_norm`, `fb_d2h`); `normalize` is the summed device time of the
//! normalization kernels of both groups (they run inside the two phases
//! above, so it overlaps them; `extra.within_fixed_base` says so).
//!
//! `--backend cuda-host` ([`Exec::Host`]) runs the same per-element code
//! (`cuda/pl_fb_math.cuh`) built for the host, so a machine without a GPU
//! checks it against the CPU backend; it records no device spans, and its
//! `normalize` is 0 ms with `extra.host_emulated` (the normalization is
//! inside the two phases above).

use super::error::SetupError;
use super::fixed_base::{FixedBase, FixedBaseJob, FixedBaseOut};
use super::normalize::Normalize;
use super::table::Table;
use crate::gpu::ffi::{self, PhaseBuf, PlError, PlPhases};
use crate::phases::Recorder;
use blstrs::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar as Fr};
use group::Curve;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::time::{Duration, Instant};

/// Window bits when none is asked for: 12-bit windows give 22 additions per
/// scalar with a G1 table of 4.3 MiB (8.6 MiB in G2), well inside the L2.
pub const DEFAULT_WBITS: usize = 12;
/// Scalars per device chunk, passed to the device code (which bounds its
/// memory by it): 2^22 G1 scalars use 2.7 GB over both buffer sets.
pub const CHUNK_G1: usize = 1 << 22;
pub const CHUNK_G2: usize = 1 << 21;

type DeviceFn =
    unsafe extern "C" fn(*const c_void, u32, u32, *const c_void, usize, usize, *mut c_void, *mut PlPhases) -> PlError;
type HostFn = unsafe extern "C" fn(*const c_void, u32, u32, *const c_void, usize, usize, usize, *mut c_void) -> PlError;

/// A curve group the device code handles.
trait GpuGroup: Curve + Normalize + Send + Sync
where
    Self::AffineRepr: Copy + Send + Sync + Default,
{
    const DEVICE: DeviceFn;
    const HOST: HostFn;
    const CHUNK: usize;
}

impl GpuGroup for G1Projective {
    const DEVICE: DeviceFn = ffi::pl_fixed_base_g1;
    const HOST: HostFn = ffi::pl_fixed_base_host_g1;
    const CHUNK: usize = CHUNK_G1;
}

impl GpuGroup for G2Projective {
    const DEVICE: DeviceFn = ffi::pl_fixed_base_g2;
    const HOST: HostFn = ffi::pl_fixed_base_host_g2;
    const CHUNK: usize = CHUNK_G2;
}

// The device reads the host types as blst's affine layout.
const _: () = assert!(std::mem::size_of::<G1Affine>() == 96);
const _: () = assert!(std::mem::size_of::<G2Affine>() == 192);
const _: () = assert!(std::mem::size_of::<Fr>() == 32);

/// Device spans of one group, summed per name over chunks and segments.
#[derive(Default)]
struct SpanSums {
    /// name -> (earliest start, summed ms, summed count, spans)
    by_name: BTreeMap<String, (Instant, f64, u64, u64)>,
}

impl SpanSums {
    fn add(&mut self, t0: Instant, buf: &PhaseBuf) -> Result<(), SetupError> {
        if buf.raw.dropped > 0 {
            return Err(SetupError::Gpu(format!("{} device spans did not fit", buf.raw.dropped)));
        }
        for p in buf.filled() {
            let start = t0 + Duration::from_secs_f64(p.start_ms.max(0.0) / 1e3);
            let e = self.by_name.entry(ffi::cstr(&p.name)).or_insert((start, 0.0, 0, 0));
            e.0 = e.0.min(start);
            e.1 += p.ms;
            e.2 += p.count;
            e.3 += 1;
        }
        Ok(())
    }

    fn record(&self, rec: &Recorder, parent: &str) {
        for (name, (start, ms, count, spans)) in &self.by_name {
            let mut extra = serde_json::Map::new();
            extra.insert("count".into(), (*count).into());
            extra.insert("spans_summed".into(), (*spans).into());
            rec.push_at(name, Some(parent), *start, *ms, "gpu-device", extra);
        }
    }
}

/// Where the fixed-base code runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exec {
    /// On the CUDA device, in chunks of [`CHUNK_G1`] / [`CHUNK_G2`] scalars.
    Device,
    /// The same per-element code built for the host (`cuda/pl_fb_host.cpp`):
    /// chunks of `chunk` scalars, each chunk's normalization split into
    /// `threads` strided runs as the device's threads split it; calls of
    /// `piece` scalars run in parallel on the host's cores.
    Host { chunk: usize, threads: usize, piece: usize },
}

/// The GPU backend; `wbits` overrides the window size (2..=16).
pub struct CudaFixedBase {
    pub wbits: usize,
    pub exec: Exec,
}

impl Default for CudaFixedBase {
    fn default() -> Self {
        CudaFixedBase {
            wbits: DEFAULT_WBITS,
            exec: Exec::Device,
        }
    }
}

impl CudaFixedBase {
    /// The device code on the host, with small chunks and an odd thread count
    /// so chunk edges and uneven strided runs are exercised.
    pub fn host_emulated() -> Self {
        CudaFixedBase {
            wbits: DEFAULT_WBITS,
            exec: Exec::Host {
                chunk: 1000,
                threads: 37,
                piece: 1 << 13,
            },
        }
    }
}

fn gpu_err(e: crate::error::ProverError) -> SetupError {
    SetupError::Gpu(e.to_string())
}

/// `out[i] = scalars[i] * base` for every segment, where `exec` says.
fn run_group<G>(
    base: G,
    segs: &[&[Fr]],
    wbits: usize,
    exec: Exec,
    sums: &mut SpanSums,
) -> Result<Vec<Vec<G::AffineRepr>>, SetupError>
where
    G: GpuGroup,
    G::AffineRepr: Copy + Send + Sync + Default,
{
    let mut outs: Vec<Vec<G::AffineRepr>> = segs
        .iter()
        .map(|s| (0..s.len()).into_par_iter().map(|_| G::AffineRepr::default()).collect())
        .collect();
    if bool::from(base.is_identity()) || segs.iter().all(|s| s.is_empty()) {
        return Ok(outs); // every multiple of the identity is the identity
    }
    let table = Table::new(base, wbits);
    let (w, windows) = (table.wbits() as u32, table.windows() as u32);
    let tab = table.points();
    for (s, o) in segs.iter().zip(outs.iter_mut()) {
        if s.is_empty() {
            continue;
        }
        match exec {
            Exec::Device => {
                let mut buf = PhaseBuf::new(4 * s.len().div_ceil(G::CHUNK) + 8);
                let t0 = Instant::now();
                // SAFETY: the table holds windows * 2^(w-1) affine points in
                // blst's layout, `s` and `o` hold s.len() scalars (blst_fr)
                // and points, and the phase buffer its stated capacity; the
                // call returns before any of them is dropped.
                let e = unsafe {
                    G::DEVICE(
                        tab.as_ptr().cast(),
                        w,
                        windows,
                        s.as_ptr().cast(),
                        s.len(),
                        G::CHUNK,
                        o.as_mut_ptr().cast(),
                        &mut buf.raw,
                    )
                };
                ffi::check(e).map_err(gpu_err)?;
                sums.add(t0, &buf)?;
            }
            Exec::Host { chunk, threads, piece } => {
                s.par_chunks(piece.max(1))
                    .zip(o.par_chunks_mut(piece.max(1)))
                    .try_for_each(|(sp, op)| {
                        // SAFETY: as above, for the piece `sp` / `op` of
                        // equal length; the host code keeps no pointer.
                        let e = unsafe {
                            G::HOST(
                                tab.as_ptr().cast(),
                                w,
                                windows,
                                sp.as_ptr().cast(),
                                sp.len(),
                                chunk,
                                threads,
                                op.as_mut_ptr().cast(),
                            )
                        };
                        ffi::check(e).map_err(gpu_err)
                    })?;
            }
        }
    }
    Ok(outs)
}

impl FixedBase for CudaFixedBase {
    fn name(&self) -> &'static str {
        match self.exec {
            Exec::Device => "cuda",
            Exec::Host { .. } => "cuda-host",
        }
    }

    fn run(&self, job: &FixedBaseJob<'_>, rec: &Recorder) -> Result<FixedBaseOut, SetupError> {
        let device = match self.exec {
            Exec::Device => crate::gpu::device::init().map_err(gpu_err)?.name,
            Exec::Host { .. } => "host (the device code built for the CPU)".to_string(),
        };
        let n1: usize = job.g1_scalars.iter().map(|s| s.len()).sum();
        let n2: usize = job.g2_scalars.iter().map(|s| s.len()).sum();
        let (mut s1, mut s2) = (SpanSums::default(), SpanSums::default());
        let g1 = rec.time("fixed_base_g1", || {
            run_group(job.g1, &job.g1_scalars, self.wbits, self.exec, &mut s1)
        })?;
        annotate(rec, "fixed_base_g1", n1, self.wbits, &device);
        s1.record(rec, "fixed_base_g1");
        let g2 = rec.time("fixed_base_g2", || {
            run_group(job.g2, &job.g2_scalars, self.wbits, self.exec, &mut s2)
        })?;
        annotate(rec, "fixed_base_g2", n2, self.wbits, &device);
        s2.record(rec, "fixed_base_g2");
        let norms: Vec<_> = [&s1, &s2].iter().filter_map(|s| s.by_name.get("fb_norm")).collect();
        let start = norms.iter().map(|n| n.0).min().unwrap_or_else(Instant::now);
        let mut extra = serde_json::Map::new();
        extra.insert("device_ms_summed".into(), true.into());
        let thread = match self.exec {
            Exec::Device => "gpu-device",
            Exec::Host { .. } => {
                extra.insert("host_emulated".into(), true.into());
                "host"
            }
        };
        extra.insert("within_fixed_base".into(), true.into());
        extra.insert("count".into(), norms.iter().map(|n| n.2).sum::<u64>().into());
        extra.insert("spans_summed".into(), norms.iter().map(|n| n.3).sum::<u64>().into());
        rec.push_at(
            "normalize",
            None,
            start,
            norms.iter().fold(0.0, |a, n| a + n.1),
            thread,
            extra,
        );
        Ok(FixedBaseOut { g1, g2 })
    }
}

fn annotate(rec: &Recorder, phase: &str, n: usize, w: usize, device: &str) {
    rec.annotate(phase, "points", n.into());
    rec.annotate(phase, "window_bits", w.into());
    rec.annotate(phase, "windows", 256usize.div_ceil(w).into());
    rec.annotate(phase, "device", device.into());
}
