//! The content hash of a shape: SHA-256 over the counts and identifier and
//! over the SHA-256 digests of 1 MiB leaves of each array (a two-level tree,
//! so the leaves hash in parallel). Arrays are taken as little-endian bytes.

use super::csr::Shape;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

impl Shape {
    /// Recomputes the content hash from the contents.
    pub fn compute_hash(&self) -> [u8; 32] {
        shape_hash(self)
    }
}

const TAG: &[u8] = b"phaseline-shape-hash-v1";
const LEAF: usize = 1 << 20;

/// Counts that fix the array lengths, in hash and header order.
pub fn counts(s: &Shape) -> [u64; 7] {
    [
        s.num_inputs as u64,
        s.num_aux as u64,
        s.num_constraints as u64,
        s.coeff_table.len() as u64,
        s.a.nnz() as u64,
        s.b.nnz() as u64,
        s.c.nnz() as u64,
    ]
}

/// The coefficient table as canonical little-endian bytes.
pub fn table_bytes(s: &Shape) -> Vec<u8> {
    s.coeff_table.iter().flat_map(|c| c.to_bytes_le()).collect()
}

/// The matrix arrays in file order.
pub fn arrays(s: &Shape) -> [&[u32]; 9] {
    [
        &s.a.row_ptr,
        &s.a.cols,
        &s.a.coeffs,
        &s.b.row_ptr,
        &s.b.cols,
        &s.b.coeffs,
        &s.c.row_ptr,
        &s.c.cols,
        &s.c.coeffs,
    ]
}

/// The content hash of `s` (ignores `s.hash`).
pub fn shape_hash(s: &Shape) -> [u8; 32] {
    let table = table_bytes(s);
    let mut sections: Vec<&[u8]> = vec![&table];
    sections.extend(arrays(s).iter().map(|a| bytemuck::cast_slice::<u32, u8>(a)));
    let leaves: Vec<(usize, &[u8])> = sections
        .iter()
        .enumerate()
        .flat_map(|(i, sec)| sec.chunks(LEAF).map(move |c| (i, c)))
        .collect();
    let digests: Vec<(usize, [u8; 32])> = leaves.par_iter().map(|(i, c)| (*i, Sha256::digest(c).into())).collect();
    let mut h = Sha256::new();
    h.update(TAG);
    for c in counts(s) {
        h.update(c.to_le_bytes());
    }
    h.update((s.shape_id.len() as u64).to_le_bytes());
    h.update(s.shape_id.as_bytes());
    for (i, sec) in sections.iter().enumerate() {
        h.update((sec.len() as u64).to_le_bytes());
        for (_, d) in digests.iter().filter(|(j, _)| *j == i) {
            h.update(d);
        }
    }
    h.finalize().into()
}
