//! The raw shape file: a fixed 128-byte header, then the identifier, the
//! coefficient table and the nine CSR arrays as little-endian bytes, so a
//! load is a handful of `read_exact` calls straight into the final vectors.
//!
//! Header: magic `PHLSHAPE`, version u32, header length u32, seven u64
//! counts (inputs, aux, constraints, table length, nonzeros of A, B, C),
//! identifier length u32, a reserved u32, the 32-byte content hash, 16
//! reserved bytes. Body: identifier padded to 8 bytes, table (32-byte
//! canonical little-endian field elements), then for A, B, C in turn
//! `row_ptr` (rows + 1 u32), `cols` (nnz u32), `coeffs` (nnz u32).

use super::csr::{Matrix, Shape, COEFF_MINUS_ONE, COEFF_ONE};
use super::hash::{arrays, counts, table_bytes};
use blstrs::Scalar as Fr;
use ff::Field;
use rayon::prelude::*;
use std::fs;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"PHLSHAPE";
pub const VERSION: u32 = 1;
pub const HEADER_LEN: usize = 128;
const MAX_ID: usize = 4096;

/// Why a shape file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ShapeError {
    #[error("shape file {path}: {reason}")]
    Invalid { path: String, reason: String },
    #[error("i/o error on shape file {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

fn pad8(n: usize) -> usize {
    n.div_ceil(8) * 8
}

fn header(s: &Shape) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    for (i, c) in counts(s).iter().enumerate() {
        h[16 + 8 * i..24 + 8 * i].copy_from_slice(&c.to_le_bytes());
    }
    h[72..76].copy_from_slice(&(s.shape_id.len() as u32).to_le_bytes());
    h[80..112].copy_from_slice(&s.hash);
    h
}

/// Writes `s` to `path` atomically (temp file, fsync, rename); returns the size in bytes.
pub fn write_shape(s: &Shape, path: &Path) -> Result<u64, ShapeError> {
    let p = path.display().to_string();
    let io = |e| ShapeError::Io {
        path: p.clone(),
        source: e,
    };
    if s.shape_id.len() > MAX_ID {
        return Err(ShapeError::Invalid {
            path: p.clone(),
            reason: format!("identifier longer than {MAX_ID} bytes"),
        });
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let tmp = path.with_extension(format!("shape.tmp{}", std::process::id()));
    let result = (|| {
        let mut w = BufWriter::with_capacity(1 << 22, fs::File::create(&tmp)?);
        w.write_all(&header(s))?;
        let mut id = s.shape_id.as_bytes().to_vec();
        id.resize(pad8(id.len()), 0);
        w.write_all(&id)?;
        w.write_all(&table_bytes(s))?;
        for a in arrays(s) {
            w.write_all(bytemuck::cast_slice(a))?;
        }
        w.flush()?;
        w.get_ref().sync_all()?;
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(io(e));
    }
    fs::metadata(path).map(|m| m.len()).map_err(io)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn read_u32s(r: &mut impl Read, n: usize) -> std::io::Result<Vec<u32>> {
    let mut v = vec![0u32; n];
    r.read_exact(bytemuck::cast_slice_mut(&mut v))?;
    Ok(v)
}

/// Reads and fully checks a shape file: header, size, structure and content hash.
pub fn read_shape(path: &Path) -> Result<Shape, ShapeError> {
    let p = path.display().to_string();
    let bad = |reason: String| ShapeError::Invalid {
        path: p.clone(),
        reason,
    };
    let io = |e| ShapeError::Io {
        path: p.clone(),
        source: e,
    };
    let mut f = fs::File::open(path).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    if len < HEADER_LEN as u64 {
        return Err(bad(format!(
            "truncated: {len} bytes, shorter than the {HEADER_LEN}-byte header"
        )));
    }
    let mut h = [0u8; HEADER_LEN];
    f.read_exact(&mut h).map_err(io)?;
    if &h[..8] != MAGIC {
        return Err(bad("not a shape file (bad magic)".into()));
    }
    let version = u32_at(&h, 8);
    if version != VERSION {
        return Err(bad(format!(
            "unsupported version {version} (this build reads {VERSION})"
        )));
    }
    if u32_at(&h, 12) as usize != HEADER_LEN {
        return Err(bad(format!("bad header length {}", u32_at(&h, 12))));
    }
    let c: Vec<u64> = (0..7).map(|i| u64_at(&h, 16 + 8 * i)).collect();
    let id_len = u32_at(&h, 72) as usize;
    if id_len > MAX_ID {
        return Err(bad(format!("identifier length {id_len} exceeds {MAX_ID}")));
    }
    let (inputs, aux, constraints, table_len) = (c[0], c[1], c[2], c[3]);
    let rows = constraints.checked_add(inputs).filter(|r| *r < u32::MAX as u64);
    let Some(rows) = rows else {
        return Err(bad(format!(
            "implausible counts: {constraints} constraints, {inputs} inputs"
        )));
    };
    if inputs == 0 || inputs + aux > u32::MAX as u64 || table_len < 2 || table_len > u32::MAX as u64 {
        return Err(bad(format!(
            "implausible counts: {inputs} inputs, {aux} aux, {table_len} coefficients"
        )));
    }
    let nnz = [c[4], c[5], c[6]];
    let want = nnz
        .iter()
        .try_fold(HEADER_LEN as u64 + pad8(id_len) as u64 + 32 * table_len, |acc, n| {
            acc.checked_add(4 * (rows + 1))?.checked_add(n.checked_mul(8)?)
        })
        .ok_or_else(|| bad("implausible nonzero counts".into()))?;
    if len < want {
        return Err(bad(format!("truncated: {len} bytes, the header promises {want}")));
    }
    if len > want {
        return Err(bad(format!(
            "{} unexpected trailing bytes after the {want} the header promises",
            len - want
        )));
    }
    let mut id = vec![0u8; pad8(id_len)];
    f.read_exact(&mut id).map_err(io)?;
    id.truncate(id_len);
    let shape_id = String::from_utf8(id).map_err(|_| bad("identifier is not UTF-8".into()))?;
    let mut tb = vec![0u8; 32 * table_len as usize];
    f.read_exact(&mut tb).map_err(io)?;
    let coeff_table = tb
        .chunks_exact(32)
        .enumerate()
        .map(|(i, b)| {
            Option::from(Fr::from_bytes_le(b.try_into().expect("32 bytes")))
                .ok_or_else(|| bad(format!("coefficient {i} is not a canonical field element")))
        })
        .collect::<Result<Vec<Fr>, _>>()?;
    let mut mats = Vec::with_capacity(3);
    for n in nnz {
        let row_ptr = read_u32s(&mut f, rows as usize + 1).map_err(io)?;
        let cols = read_u32s(&mut f, n as usize).map_err(io)?;
        let coeffs = read_u32s(&mut f, n as usize).map_err(io)?;
        mats.push(Matrix { row_ptr, cols, coeffs });
    }
    let [a, b, c]: [Matrix; 3] = mats.try_into().expect("three matrices");
    let mut hash = [0u8; 32];
    hash.copy_from_slice(&h[80..112]);
    let s = Shape {
        shape_id,
        num_inputs: inputs as usize,
        num_aux: aux as usize,
        num_constraints: constraints as usize,
        coeff_table,
        a,
        b,
        c,
        hash,
    };
    check_structure(&s).map_err(bad)?;
    if s.compute_hash() != s.hash {
        return Err(bad("content hash mismatch: the file is corrupt".into()));
    }
    Ok(s)
}

/// Checks the invariants a well-formed shape satisfies (cheap, parallel).
pub fn check_structure(s: &Shape) -> Result<(), String> {
    if s.coeff_table.len() < 2 || s.coeff_table[COEFF_ONE as usize] != Fr::ONE {
        return Err("coefficient table does not start with one".into());
    }
    if s.coeff_table[COEFF_MINUS_ONE as usize] != -Fr::ONE {
        return Err("coefficient table lacks minus one at index 1".into());
    }
    let (nv, nt) = (s.num_vars() as u32, s.coeff_table.len() as u32);
    for (name, m) in [("A", &s.a), ("B", &s.b), ("C", &s.c)] {
        if m.row_ptr.len() != s.rows() + 1 || m.row_ptr[0] != 0 {
            return Err(format!("matrix {name}: bad row pointer array"));
        }
        if m.row_ptr.par_windows(2).any(|w| w[0] > w[1]) || *m.row_ptr.last().unwrap_or(&0) as usize != m.nnz() {
            return Err(format!(
                "matrix {name}: row pointers are not monotone up to the nonzero count"
            ));
        }
        if let Some(k) = m.cols.par_iter().position_any(|c| *c >= nv) {
            return Err(format!(
                "matrix {name}: entry {k} has column {} >= {nv} variables",
                m.cols[k]
            ));
        }
        if let Some(k) = m.coeffs.par_iter().position_any(|c| *c >= nt) {
            return Err(format!(
                "matrix {name}: entry {k} has coefficient index {} >= {nt}",
                m.coeffs[k]
            ));
        }
    }
    Ok(())
}
