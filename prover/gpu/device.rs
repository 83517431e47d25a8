//! The device: initialisation, device-resident point sets, and the proving
//! parameters (SRS) uploaded once per process and kept on the device.

use super::ffi::{self, Group, PhaseBuf, PlOpts, PlPoints};
use super::timing;
use crate::error::{DeviceUpload, ProverError};
use crate::groth16::Params;
use crate::phases::Recorder;
use blstrs::{G1Affine, G2Affine};
use group::GroupEncoding;
use std::ffi::c_char;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What the device reports about itself.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub name: String,
    pub sm_count: u32,
    pub mem_bytes: u64,
}

/// Initialises the CUDA device (context, NTT tables); an error when there is none.
pub fn init() -> Result<DeviceInfo, ProverError> {
    let mut name = [0 as c_char; 256];
    let (mut sm, mut mem) = (0u32, 0u64);
    // SAFETY: buffers are valid for the sizes given.
    ffi::check(unsafe { ffi::pl_init(name.as_mut_ptr(), name.len(), &mut sm, &mut mem) })?;
    let bytes: Vec<u8> = name.iter().map(|c| *c as u8).collect();
    Ok(DeviceInfo {
        name: ffi::cstr(&bytes),
        sm_count: sm,
        mem_bytes: mem,
    })
}

/// The device's free and total memory, in bytes.
pub fn mem_info() -> Result<(u64, u64), ProverError> {
    let (mut free, mut total) = (0u64, 0u64);
    // SAFETY: both pointers are valid for one u64 each.
    ffi::check(unsafe { ffi::pl_mem_info(&mut free, &mut total) })?;
    Ok((free, total))
}

/// Fails with [`ProverError::DeviceMemory`] unless the device has `need`
/// bytes free for `what` (asked right before the upload; other work on
/// the device may still take memory in between).
pub fn ensure_free(what: DeviceUpload, need: u64) -> Result<(), ProverError> {
    let (free, _) = mem_info()?;
    if need > free {
        return Err(ProverError::DeviceMemory { what, need, free });
    }
    Ok(())
}

/// The device bytes of the parameters' points (the device's affine layout is the host's).
fn srs_bytes(p: &Params) -> u64 {
    [
        std::mem::size_of_val(&p.h[..]),
        std::mem::size_of_val(&p.l[..]),
        std::mem::size_of_val(&p.a[..]),
        std::mem::size_of_val(&p.b_g1[..]),
        std::mem::size_of_val(&p.b_g2[..]),
    ]
    .iter()
    .map(|b| *b as u64)
    .sum()
}

/// An affine point type the device holds: blst's affine layout (Montgomery
/// form), which sppark's affine types share.
pub trait DeviceAffine: Copy {
    const GROUP: Group;
}

impl DeviceAffine for G1Affine {
    const GROUP: Group = Group::G1;
}

impl DeviceAffine for G2Affine {
    const GROUP: Group = Group::G2;
}

/// Affine points of one group resident in device memory.
pub struct DevicePoints {
    ptr: *mut PlPoints,
    pub n: usize,
    pub group: Group,
}

// SAFETY: the handle is only used through the C entry points, which
// serialize all device work behind one mutex.
unsafe impl Send for DevicePoints {}
unsafe impl Sync for DevicePoints {}

impl DevicePoints {
    /// Copies `points` to the device; spans go to `rec` under `what`.
    pub fn upload<P: DeviceAffine>(
        points: &[P],
        opts: &PlOpts,
        rec: &Recorder,
        what: &str,
    ) -> Result<Self, ProverError> {
        let mut buf = PhaseBuf::new(8);
        let mut ptr = std::ptr::null_mut();
        let t0 = Instant::now();
        // SAFETY: G1Affine / G2Affine are blst_p1_affine (96 bytes) /
        // blst_p2_affine (192 bytes), the layouts the C side reads for the group.
        let e = unsafe {
            ffi::pl_points_upload(
                points.as_ptr().cast(),
                points.len(),
                P::GROUP,
                opts,
                &mut ptr,
                &mut buf.raw,
            )
        };
        ffi::check(e)?;
        timing::merge(rec, t0, &buf, Some("srs_upload"), Some(what));
        Ok(DevicePoints {
            ptr,
            n: points.len(),
            group: P::GROUP,
        })
    }
    pub fn raw(&self) -> *const PlPoints {
        self.ptr
    }
}

impl Drop for DevicePoints {
    fn drop(&mut self) {
        // SAFETY: ptr came from pl_points_upload and is freed once.
        unsafe { ffi::pl_points_free(self.ptr) }
    }
}

/// The parameter vectors on the device: H, L, A, B_G1 in G1 and B_G2 in G2.
pub struct DeviceSrs {
    pub h: DevicePoints,
    pub l: DevicePoints,
    pub a: DevicePoints,
    pub b_g1: DevicePoints,
    pub b_g2: DevicePoints,
}

type Key = (Vec<u8>, [usize; 5]);

fn key(p: &Params) -> Key {
    let mut k = p.vk.delta_g1.to_bytes().as_ref().to_vec();
    k.extend_from_slice(p.vk.alpha_g1.to_bytes().as_ref());
    (k, [p.h.len(), p.l.len(), p.a.len(), p.b_g1.len(), p.b_g2.len()])
}

static SRS: Mutex<Option<(Key, Arc<DeviceSrs>)>> = Mutex::new(None);

/// The device copy of `p`, uploaded on first use in this process.
pub fn srs_for(p: &Params, opts: &PlOpts, rec: &Recorder) -> Result<Arc<DeviceSrs>, ProverError> {
    let k = key(p);
    let mut g = SRS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((have, srs)) = g.as_ref() {
        if *have == k {
            return Ok(srs.clone());
        }
    }
    *g = None; // free the old copy before uploading a new one
    ensure_free(DeviceUpload::Srs, srs_bytes(p))?;
    let srs = rec.time("srs_upload", || -> Result<DeviceSrs, ProverError> {
        Ok(DeviceSrs {
            h: DevicePoints::upload(&p.h, opts, rec, "h")?,
            l: DevicePoints::upload(&p.l, opts, rec, "l")?,
            a: DevicePoints::upload(&p.a, opts, rec, "a")?,
            b_g1: DevicePoints::upload(&p.b_g1, opts, rec, "b_g1")?,
            b_g2: DevicePoints::upload(&p.b_g2, opts, rec, "b_g2")?,
        })
    })?;
    let srs = Arc::new(srs);
    *g = Some((k, srs.clone()));
    Ok(srs)
}
