//! The parameter cache's checked-once mark: a file written by our setup is
//! marked, a load of identical bytes skips the per-point checks, and any
//! change to the file (corruption) brings the full checks back.

use phaseline_prover::groth16::cache::cache_path;
use phaseline_prover::groth16::params::read;
use phaseline_prover::run::{params_for, RunOpts};

fn opts(dir: &std::path::Path) -> RunOpts {
    RunOpts::new("tiny", phaseline_prover::record::Backend::Cpu, dir)
}

#[test]
fn mark_is_written_and_corruption_is_still_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let (p, file) = params_for(&opts(dir.path())).unwrap();
    let shape = phaseline_prover::circuits::presets::preset("tiny", 1).unwrap();
    let path = cache_path(dir.path(), &phaseline_prover::cs::Circuit::shape_id(&shape));
    let mark = path.with_extension("params.checked");
    assert!(mark.is_file(), "no mark beside {}", path.display());
    // The mark holds the digest the run reports for the file.
    assert_eq!(std::fs::read_to_string(&mark).unwrap().trim(), file.sha256);
    // A marked load gives the same parameters.
    let q = read(&path).unwrap();
    assert_eq!(p.h.len(), q.h.len());
    assert!(p.h.iter().zip(q.h.iter()).all(|(a, b)| a == b));
    assert!(p.b_g2.iter().zip(q.b_g2.iter()).all(|(a, b)| a == b));
    // Flip bytes in the middle of the point data: the hash no longer
    // matches the mark, so the points are checked and the file is rejected.
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    for b in &mut bytes[mid..mid + 8] {
        *b ^= 0x5a;
    }
    std::fs::write(&path, &bytes).unwrap();
    let e = read(&path).err().expect("corrupt file accepted");
    assert!(e.to_string().contains("corrupt"), "{e}");
}
