//! The chunked parameter reader against bellperson's own checked reader:
//! the same parameters from files of our setup read in pieces of every size,
//! the SHA-256 of the file's bytes, and errors (never a hang or a panic) for
//! truncated, overlong and corrupt files, also when the decoding fails while
//! the reading thread is pieces ahead.

use phaseline_prover::groth16::cache::cache_path;
use phaseline_prover::groth16::par_read::read_in_pieces;
use phaseline_prover::record::Backend;
use phaseline_prover::run::{params_for, RunOpts};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

fn made(dir: &Path, circuit: &str) -> PathBuf {
    params_for(&RunOpts::new(circuit, Backend::Cpu, dir)).unwrap();
    let c = phaseline_prover::circuits::presets::preset(circuit, 1).unwrap();
    cache_path(dir, &phaseline_prover::cs::Circuit::shape_id(&c))
}

#[test]
fn pieces_of_every_size_read_what_bellperson_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = made(dir.path(), "tiny");
    let bytes = std::fs::read(&path).unwrap();
    let want = bellperson::groth16::Parameters::<blstrs::Bls12>::read(std::io::Cursor::new(&bytes), true).unwrap();
    let sha = hex::encode(Sha256::digest(&bytes));
    for piece in [1, 192, 1000, 192 * 7, 1 << 30] {
        for checked in [true, false] {
            let (got, digest) = read_in_pieces(&path, piece, |_| checked).unwrap();
            assert_eq!(digest, sha, "piece {piece}");
            assert!(got.vk == want.vk, "piece {piece}");
            assert!(got.h == want.h && got.l == want.l && got.a == want.a, "piece {piece}");
            assert!(got.b_g1 == want.b_g1 && got.b_g2 == want.b_g2, "piece {piece}");
        }
    }
}

#[test]
fn bad_files_are_errors_whatever_the_piece_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = made(dir.path(), "tiny");
    let bytes = std::fs::read(&path).unwrap();
    let bad = dir.path().join("bad.params");
    let try_read = |b: &[u8], piece: usize, checked: bool| {
        std::fs::write(&bad, b).unwrap();
        read_in_pieces(&bad, piece, |_| checked)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    for cut in [1, 100, 900, bytes.len() / 3, bytes.len() / 2, bytes.len() - 1] {
        let e = try_read(&bytes[..cut], 96, false);
        assert!(
            e.contains("truncated") || e.contains("failed to fill"),
            "cut at {cut}: {e}"
        );
    }
    let mut long = bytes.clone();
    long.extend_from_slice(&[0; 5]);
    assert!(try_read(&long, 96, false).contains("5 trailing bytes"));
    // A point whose encoding is invalid (infinity flag with other bits set) near
    // the start of H: the decoding fails while the reader is pieces ahead.
    let vk_end = 864 + 4 + 96 * u32::from_be_bytes(bytes[864..868].try_into().unwrap()) as usize;
    let mut broken = bytes.clone();
    broken[vk_end + 4 + 96] |= 0x40;
    for piece in [96, 1 << 20] {
        let e = try_read(&broken, piece, false);
        assert!(e.contains("H:"), "piece {piece}: {e}");
    }
    // Bytes flipped inside a point's coordinates: caught by the checks only.
    let mut flipped = bytes.clone();
    let mid = vk_end + 4 + 96 * 2 + 20;
    flipped[mid] ^= 0x5a;
    let e = try_read(&flipped, 192, true);
    assert!(e.contains("not on the curve or not in the subgroup"), "{e}");
}
