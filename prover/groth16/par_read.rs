//! A chunked, parallel reader of bellperson's parameter file format, with the
//! same checks as bellperson's own checked reader (every point on the curve,
//! in the prime-order subgroup, not the identity).
//!
//! The file is never held whole in memory: one thread reads it front to back
//! in pieces of at most [`PIECE`] bytes, hashing them as it goes (the SHA-256
//! of the file's bytes, which `params::read` compares with the file's mark),
//! while the calling thread decodes each piece's points in parallel straight
//! into their place, at most [`IN_FLIGHT`] pieces ahead. A 47 GB file (32 GiB
//! sectors) then needs its points' memory, not twice it, and the hash runs
//! beside the decoding instead of before it. Points are decoded without the
//! curve and subgroup checks; when `checked` says so, those checks follow over
//! all points in parallel, once the file has been read.

use super::Params;
use bellperson::groth16::{Parameters, VerifyingKey};
use blstrs::{Bls12, G1Affine, G2Affine};
use group::prime::PrimeCurveAffine;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::mpsc::sync_channel;
use std::sync::Arc;

/// The largest piece read at once (a whole number of points of either group).
pub const PIECE: usize = 192 << 15;

/// Pieces read ahead of the decoding.
pub const IN_FLIGHT: usize = 4;

/// The verifying key's fixed points: alpha_g1, beta_g1, beta_g2, gamma_g2,
/// delta_g1, delta_g2 (uncompressed), before IC's length.
const VK_FIXED: u64 = 96 + 96 + 192 + 192 + 96 + 192;

const SECTIONS: [(&str, u64); 5] = [("H", 96), ("L", 96), ("A", 96), ("B_G1", 96), ("B_G2", 192)];

fn bad(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

fn truncated(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, format!("truncated {what}"))
}

/// Where each part of the file lies: the verifying key, then each query's
/// points (after its 4-byte length).
struct Layout {
    vk_len: u64,
    /// Per section: offset of the first point, and the point count.
    points: [(u64, usize); 5],
}

fn u32_at(f: &mut File, off: u64, len: u64, what: &str) -> io::Result<u64> {
    if off + 4 > len {
        return Err(truncated(what));
    }
    let mut b = [0u8; 4];
    f.seek(SeekFrom::Start(off))?;
    f.read_exact(&mut b)?;
    Ok(u32::from_be_bytes(b) as u64)
}

impl Layout {
    /// Walks the lengths of a file of `len` bytes; refuses one that ends
    /// early or goes on after B_G2.
    fn of(f: &mut File, len: u64) -> io::Result<Layout> {
        let ic = u32_at(f, VK_FIXED, len, "verifying key")?;
        let vk_len = VK_FIXED + 4 + ic * 96;
        if vk_len > len {
            return Err(truncated("verifying key"));
        }
        let mut off = vk_len;
        let mut points = [(0u64, 0usize); 5];
        for (i, (what, size)) in SECTIONS.iter().enumerate() {
            let n = u32_at(f, off, len, &format!("{what} length"))?;
            let start = off + 4;
            let end = n
                .checked_mul(*size)
                .and_then(|b| b.checked_add(start))
                .filter(|e| *e <= len)
                .ok_or_else(|| truncated(&format!("{what} vector")))?;
            points[i] = (start, n as usize);
            off = end;
        }
        if off != len {
            return Err(bad(format!("{} trailing bytes", len - off)));
        }
        Ok(Layout { vk_len, points })
    }
}

/// What one piece of the file holds.
#[derive(Clone, Copy)]
enum Part {
    Vk,
    /// A section's 4-byte length, already read by the layout walk.
    Length,
    /// `count` points of section `section` from point `first` on.
    Points {
        section: usize,
        first: usize,
    },
}

/// The pieces of the file, in file order: points in pieces of at most
/// `piece` bytes (at least one point each).
fn pieces(l: &Layout, piece: usize) -> Vec<(u64, usize, Part)> {
    let mut v = vec![(0, l.vk_len as usize, Part::Vk)];
    for (section, &(start, n)) in l.points.iter().enumerate() {
        v.push((start - 4, 4, Part::Length));
        let size = SECTIONS[section].1 as usize;
        let per = (piece / size).max(1);
        let mut first = 0;
        while first < n {
            let count = per.min(n - first);
            v.push((
                start + (first * size) as u64,
                count * size,
                Part::Points { section, first },
            ));
            first += count;
        }
    }
    v
}

fn decode<P: PrimeCurveAffine + Send, const N: usize>(
    bytes: &[u8],
    out: &mut [P],
    what: &str,
    from: impl Fn(&[u8; N]) -> Option<P> + Sync,
) -> io::Result<()> {
    out.par_iter_mut()
        .zip(bytes.par_chunks_exact(N))
        .try_for_each(|(o, c)| {
            let repr: &[u8; N] = c.try_into().map_err(|_| bad(format!("{what}: short point")))?;
            match from(repr) {
                Some(p) if !bool::from(p.is_identity()) => {
                    *o = p;
                    Ok(())
                }
                Some(_) => Err(bad(format!("{what}: point at infinity"))),
                None => Err(bad(format!("{what}: point not on the curve or not in the subgroup"))),
            }
        })
}

fn g1(b: &[u8; 96]) -> Option<G1Affine> {
    G1Affine::from_uncompressed_unchecked(b).into()
}

fn g2(b: &[u8; 192]) -> Option<G2Affine> {
    G2Affine::from_uncompressed_unchecked(b).into()
}

/// Reads the parameter file at `path`, with the SHA-256 of its bytes
/// (lower-case hex); `checked(digest)` says whether every point must then
/// pass bellperson's checks (false for bytes that passed them before).
pub fn read(path: &Path, checked: impl FnOnce(&str) -> bool) -> io::Result<(Params, String)> {
    read_in_pieces(path, PIECE, checked)
}

/// [`read`] with pieces of at most `piece` bytes (tests use small ones).
pub fn read_in_pieces(path: &Path, piece: usize, checked: impl FnOnce(&str) -> bool) -> io::Result<(Params, String)> {
    let mut f = File::open(path)?;
    let len = f.metadata()?.len();
    let layout = Layout::of(&mut f, len)?;
    let plan = pieces(&layout, piece);
    let mut g1s: Vec<Vec<G1Affine>> = layout.points[..4]
        .iter()
        .map(|&(_, n)| (0..n).into_par_iter().map(|_| G1Affine::identity()).collect())
        .collect();
    let mut b_g2: Vec<G2Affine> = (0..layout.points[4].1)
        .into_par_iter()
        .map(|_| G2Affine::identity())
        .collect();
    let mut vk = None;
    let digest = std::thread::scope(|s| -> io::Result<String> {
        // Made here, so that an early return drops the receiver and the
        // reading thread, blocked on a full channel, stops instead of waiting.
        let (tx, rx) = sync_channel::<io::Result<Vec<u8>>>(IN_FLIGHT);
        let reader_plan = &plan;
        let reader = s.spawn(move || {
            let mut hasher = Sha256::new();
            if let Err(e) = f.seek(SeekFrom::Start(0)) {
                let _ = tx.send(Err(e));
                return None;
            }
            for &(_, n, _) in reader_plan {
                let mut buf = vec![0u8; n];
                let r = f.read_exact(&mut buf).map(|_| {
                    hasher.update(&buf);
                    buf
                });
                let failed = r.is_err();
                // A closed channel means the decoding failed and stopped: stop too.
                if tx.send(r).is_err() || failed {
                    return None;
                }
            }
            Some(hex::encode(hasher.finalize()))
        });
        for &(_, _, part) in &plan {
            let bytes = rx
                .recv()
                .map_err(|_| truncated("file (the reading thread stopped)"))??;
            match part {
                Part::Vk => vk = Some(VerifyingKey::<Bls12>::read(&mut io::Cursor::new(&bytes))?),
                Part::Length => {}
                Part::Points { section: 4, first } => {
                    let n = bytes.len() / 192;
                    decode(&bytes, &mut b_g2[first..first + n], "B_G2", g2)?;
                }
                Part::Points { section, first } => {
                    let n = bytes.len() / 96;
                    decode(&bytes, &mut g1s[section][first..first + n], SECTIONS[section].0, g1)?;
                }
            }
        }
        drop(rx);
        reader
            .join()
            .map_err(|_| bad("the reading thread panicked".into()))?
            .ok_or_else(|| truncated("file"))
    })?;
    if checked(&digest) {
        for (k, v) in g1s.iter().enumerate() {
            if let Some(i) = v
                .par_iter()
                .position_any(|p| !bool::from(p.is_on_curve() & p.is_torsion_free()))
            {
                return Err(bad(format!(
                    "{}: point {i} not on the curve or not in the subgroup",
                    SECTIONS[k].0
                )));
            }
        }
        if let Some(i) = b_g2
            .par_iter()
            .position_any(|p| !bool::from(p.is_on_curve() & p.is_torsion_free()))
        {
            return Err(bad(format!("B_G2: point {i} not on the curve or not in the subgroup")));
        }
    }
    let vk = vk.ok_or_else(|| truncated("verifying key"))?;
    let [h, l, a, b_g1]: [Vec<G1Affine>; 4] = g1s.try_into().map_err(|_| bad("four G1 queries".into()))?;
    Ok((
        Parameters {
            vk,
            h: Arc::new(h),
            l: Arc::new(l),
            a: Arc::new(a),
            b_g1: Arc::new(b_g1),
            b_g2: Arc::new(b_g2),
        },
        digest,
    ))
}
