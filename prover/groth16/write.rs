//! Writes parameters and the verifying key in bellperson's file format
//! (uncompressed points, big-endian u32 lengths): points are serialized in
//! parallel batches, the next batch while the current one is written;
//! atomic (temp file, fsync, rename).

use crate::groth16::Params;
use bellperson::groth16::VerifyingKey;
use blstrs::{Bls12, G1Affine, G2Affine};
use rayon::prelude::*;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::Path;

const BATCH: usize = 1 << 18;

fn serialize<P: Sync>(out: &mut [u8], batch: &[P], size: usize, ser: &(impl Fn(&P, &mut [u8]) + Sync)) {
    out[..batch.len() * size]
        .par_chunks_mut(size)
        .zip(batch.par_iter())
        .with_min_len(1024)
        .for_each(|(b, p)| ser(p, b));
}

/// Serializes batch i + 1 on the pool while batch i is written, so the
/// sequential write overlaps the parallel serialization.
fn points<W: Write + Send, P: Sync>(
    w: &mut W,
    pts: &[P],
    size: usize,
    ser: impl Fn(&P, &mut [u8]) + Sync,
) -> io::Result<()> {
    let batches: Vec<&[P]> = pts.chunks(BATCH).collect();
    let Some(first) = batches.first() else {
        return Ok(());
    };
    let cap = BATCH.min(pts.len()) * size;
    let (mut cur, mut next) = (vec![0u8; cap], vec![0u8; if batches.len() > 1 { cap } else { 0 }]);
    serialize(&mut cur, first, size, &ser);
    for (i, b) in batches.iter().enumerate() {
        let following = batches.get(i + 1);
        let (written, ()) = rayon::join(
            || w.write_all(&cur[..b.len() * size]),
            || {
                if let Some(nb) = following {
                    serialize(&mut next, nb, size, &ser);
                }
            },
        );
        written?;
        std::mem::swap(&mut cur, &mut next);
    }
    Ok(())
}

fn g1s<W: Write + Send>(w: &mut W, pts: &[G1Affine]) -> io::Result<()> {
    points(w, pts, 96, |p, b| b.copy_from_slice(&p.to_uncompressed()))
}

fn g2s<W: Write + Send>(w: &mut W, pts: &[G2Affine]) -> io::Result<()> {
    points(w, pts, 192, |p, b| b.copy_from_slice(&p.to_uncompressed()))
}

fn len<W: Write + Send>(w: &mut W, n: usize) -> io::Result<()> {
    let n = u32::try_from(n).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "more than 2^32 points"))?;
    w.write_all(&n.to_be_bytes())
}

/// The verifying key, exactly as `VerifyingKey::write` lays it out.
pub fn vk_bytes<W: Write + Send>(w: &mut W, vk: &VerifyingKey<Bls12>) -> io::Result<()> {
    g1s(w, &[vk.alpha_g1, vk.beta_g1])?;
    g2s(w, &[vk.beta_g2, vk.gamma_g2])?;
    g1s(w, &[vk.delta_g1])?;
    g2s(w, &[vk.delta_g2])?;
    len(w, vk.ic.len())?;
    g1s(w, &vk.ic)
}

/// The parameters, exactly as `Parameters::write` lays them out.
pub fn params_bytes<W: Write + Send>(w: &mut W, p: &Params) -> io::Result<()> {
    vk_bytes(w, &p.vk)?;
    for q in [&p.h, &p.l, &p.a, &p.b_g1] {
        len(w, q.len())?;
        g1s(w, q)?;
    }
    len(w, p.b_g2.len())?;
    g2s(w, &p.b_g2)
}

/// Writes through `f` into a temp file next to `path`, then renames it;
/// returns the size written.
pub fn atomic(path: &Path, f: impl FnOnce(&mut BufWriter<fs::File>) -> io::Result<()>) -> io::Result<u64> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    let r = (|| {
        let mut w = BufWriter::with_capacity(1 << 22, fs::File::create(&tmp)?);
        f(&mut w)?;
        w.flush()?;
        w.get_ref().sync_all()?;
        fs::rename(&tmp, path)?;
        fs::metadata(path).map(|m| m.len())
    })();
    if r.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    r
}

/// Writes the parameter file atomically; returns its size.
pub fn write_params(p: &Params, path: &Path) -> io::Result<u64> {
    atomic(path, |w| params_bytes(w, p))
}

/// Writes the verifying key file atomically; returns its size.
pub fn write_vk(vk: &VerifyingKey<Bls12>, path: &Path) -> io::Result<u64> {
    atomic(path, |w| vk_bytes(w, vk))
}
