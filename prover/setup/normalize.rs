//! Batch conversion of projective points to affine with blst's
//! `blst_p1s_to_affine` / `blst_p2s_to_affine` (one field inversion per chunk,
//! points at infinity handled), in parallel chunks.

use blstrs::{G1Affine, G1Projective, G2Affine, G2Projective};
use group::Curve;
use rayon::prelude::*;

/// Points per blst call (one inversion each).
const CHUNK: usize = 1 << 12;

/// Parallel batch normalization.
pub trait Normalize: Curve {
    fn normalize_par(proj: &[Self], out: &mut [Self::AffineRepr]);
}

// blstrs' point types are `#[repr(transparent)]` wrappers of blst's C structs.
const _: () = assert!(std::mem::size_of::<G1Projective>() == std::mem::size_of::<blst::blst_p1>());
const _: () = assert!(std::mem::size_of::<G1Affine>() == std::mem::size_of::<blst::blst_p1_affine>());
const _: () = assert!(std::mem::size_of::<G2Projective>() == std::mem::size_of::<blst::blst_p2>());
const _: () = assert!(std::mem::size_of::<G2Affine>() == std::mem::size_of::<blst::blst_p2_affine>());

impl Normalize for G1Projective {
    fn normalize_par(proj: &[Self], out: &mut [G1Affine]) {
        assert_eq!(proj.len(), out.len(), "normalize: length mismatch");
        proj.par_chunks(CHUNK)
            .zip(out.par_chunks_mut(CHUNK))
            .for_each(|(p, o)| {
                // A contiguous array is passed as {first, NULL}, as blst documents.
                let ptrs = [p.as_ptr() as *const blst::blst_p1, std::ptr::null()];
                // SAFETY: G1Projective/G1Affine are repr(transparent) over blst_p1/
                // blst_p1_affine (sizes asserted above); `p` and `o` have equal
                // length; blst reads p.len() points and writes as many.
                unsafe { blst::blst_p1s_to_affine(o.as_mut_ptr() as *mut blst::blst_p1_affine, ptrs.as_ptr(), p.len()) }
            });
    }
}

impl Normalize for G2Projective {
    fn normalize_par(proj: &[Self], out: &mut [G2Affine]) {
        assert_eq!(proj.len(), out.len(), "normalize: length mismatch");
        proj.par_chunks(CHUNK)
            .zip(out.par_chunks_mut(CHUNK))
            .for_each(|(p, o)| {
                let ptrs = [p.as_ptr() as *const blst::blst_p2, std::ptr::null()];
                // SAFETY: as for G1.
                unsafe { blst::blst_p2s_to_affine(o.as_mut_ptr() as *mut blst::blst_p2_affine, ptrs.as_ptr(), p.len()) }
            });
    }
}
