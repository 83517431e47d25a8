//! A parallel reader of bellperson's parameter file format with the same
//! checks as bellperson's own checked reader (every point on the curve, in
//! the prime-order subgroup, not the identity), spread over all cores: the
//! sequential reader needs minutes for a 2^20-constraint file. With
//! `checked == false` the points are taken as they are (only for bytes that
//! passed the checks before, see `params::read`).

use super::Params;
use bellperson::groth16::{Parameters, VerifyingKey};
use blstrs::{Bls12, G1Affine, G2Affine};
use group::prime::PrimeCurveAffine;
use rayon::prelude::*;
use std::io::{self, Cursor};
use std::sync::Arc;

fn bad(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

fn take_len(bytes: &[u8], off: &mut usize) -> io::Result<usize> {
    let b: [u8; 4] = bytes
        .get(*off..*off + 4)
        .and_then(|s| s.try_into().ok())
        .ok_or_else(|| io::Error::new(io::ErrorKind::UnexpectedEof, "truncated length"))?;
    *off += 4;
    Ok(u32::from_be_bytes(b) as usize)
}

fn take<'a>(bytes: &'a [u8], off: &mut usize, n: usize, size: usize, what: &str) -> io::Result<&'a [u8]> {
    let end = n
        .checked_mul(size)
        .and_then(|x| x.checked_add(*off))
        .filter(|e| *e <= bytes.len())
        .ok_or_else(|| io::Error::new(io::ErrorKind::UnexpectedEof, format!("truncated {what} vector")))?;
    let s = &bytes[*off..end];
    *off = end;
    Ok(s)
}

fn g1s(bytes: &[u8], off: &mut usize, what: &str, checked: bool) -> io::Result<Vec<G1Affine>> {
    let n = take_len(bytes, off)?;
    take(bytes, off, n, 96, what)?
        .par_chunks_exact(96)
        .map(|c| {
            let repr: &[u8; 96] = c.try_into().map_err(|_| bad(format!("{what}: short point")))?;
            let p: Option<G1Affine> = if checked {
                G1Affine::from_uncompressed(repr).into()
            } else {
                G1Affine::from_uncompressed_unchecked(repr).into()
            };
            match p {
                Some(p) if !bool::from(p.is_identity()) => Ok(p),
                Some(_) => Err(bad(format!("{what}: point at infinity"))),
                None => Err(bad(format!("{what}: point not on the curve or not in the subgroup"))),
            }
        })
        .collect()
}

fn g2s(bytes: &[u8], off: &mut usize, what: &str, checked: bool) -> io::Result<Vec<G2Affine>> {
    let n = take_len(bytes, off)?;
    take(bytes, off, n, 192, what)?
        .par_chunks_exact(192)
        .map(|c| {
            let repr: &[u8; 192] = c.try_into().map_err(|_| bad(format!("{what}: short point")))?;
            let p: Option<G2Affine> = if checked {
                G2Affine::from_uncompressed(repr).into()
            } else {
                G2Affine::from_uncompressed_unchecked(repr).into()
            };
            match p {
                Some(p) if !bool::from(p.is_identity()) => Ok(p),
                Some(_) => Err(bad(format!("{what}: point at infinity"))),
                None => Err(bad(format!("{what}: point not on the curve or not in the subgroup"))),
            }
        })
        .collect()
}

/// Parses a whole parameter file held in memory, checking every point when `checked`.
pub fn parse(bytes: &[u8], checked: bool) -> io::Result<Params> {
    let mut cur = Cursor::new(bytes);
    let vk = VerifyingKey::<Bls12>::read(&mut cur)?;
    let mut off = cur.position() as usize;
    let h = g1s(bytes, &mut off, "H", checked)?;
    let l = g1s(bytes, &mut off, "L", checked)?;
    let a = g1s(bytes, &mut off, "A", checked)?;
    let b_g1 = g1s(bytes, &mut off, "B_G1", checked)?;
    let b_g2 = g2s(bytes, &mut off, "B_G2", checked)?;
    if off != bytes.len() {
        return Err(bad(format!("{} trailing bytes", bytes.len() - off)));
    }
    Ok(Parameters {
        vk,
        h: Arc::new(h),
        l: Arc::new(l),
        a: Arc::new(a),
        b_g1: Arc::new(b_g1),
        b_g2: Arc::new(b_g2),
    })
}
