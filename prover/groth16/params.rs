//! Parameter files in bellperson's format: the sizes a circuit needs
//! ([`Expected`]) and the check against them, reading (points checked once,
//! then marked by digest), atomic writing, and bellperson's own generator.
//! The cache that finds or makes a circuit's file is `super::cache`.

use super::Params;
use crate::cs::bridge::AsBellpepper;
use crate::cs::Circuit;
use crate::error::ProverError;
use crate::synth::Synthesized;
use sha2::{Digest, Sha256};
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Environment variable naming the parameter directory (recorded by the runner).
pub const PARAMS_DIR_ENV: &str = "PHASELINE_PARAMS_DIR";

/// Sizes a parameter file must have for one circuit shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    pub inputs: usize,
    pub aux: usize,
    pub h: usize,
    pub a: usize,
    pub b: usize,
}

impl Expected {
    pub fn of(s: &Synthesized, domain_n: usize) -> Self {
        let a_aux = s.a_aux_density.iter().filter(|d| **d).count();
        let b_in = s.b_input_density.iter().filter(|d| **d).count();
        let b_aux = s.b_aux_density.iter().filter(|d| **d).count();
        Expected {
            inputs: s.inputs.len(),
            aux: s.aux.len(),
            h: domain_n - 1,
            a: s.inputs.len() + a_aux,
            b: b_in + b_aux,
        }
    }
}

/// Checks that `p` fits a circuit with sizes `e`.
pub fn check(p: &Params, e: &Expected, path: &str) -> Result<(), ProverError> {
    let bad = |what: &str, got: usize, want: usize| ProverError::Params {
        path: path.into(),
        reason: format!("made for another circuit: {what} has {got} points, this circuit needs {want}"),
    };
    let checks = [
        ("IC (public inputs)", p.vk.ic.len(), e.inputs),
        ("L (aux)", p.l.len(), e.aux),
        ("H (domain - 1)", p.h.len(), e.h),
        ("A", p.a.len(), e.a),
        ("B_G1", p.b_g1.len(), e.b),
        ("B_G2", p.b_g2.len(), e.b),
    ];
    for (what, got, want) in checks {
        if got != want {
            return Err(bad(what, got, want));
        }
    }
    Ok(())
}

/// Reads a parameter file (points checked to be on the curve and in the subgroup).
pub fn read(path: &Path) -> Result<Params, ProverError> {
    read_with_digest(path).map(|(p, _)| p)
}

/// [`read`], and the SHA-256 of the file's bytes (lower-case hex).
pub fn read_with_digest(path: &Path) -> Result<(Params, String), ProverError> {
    let meta = fs::metadata(path).map_err(|e| ProverError::io(path.display().to_string(), e))?;
    if meta.len() == 0 {
        return Err(ProverError::Params {
            path: path.display().to_string(),
            reason: "file is empty".into(),
        });
    }
    // Points are checked (curve, subgroup) once; the file's SHA-256 is then
    // recorded beside it, and a later load of identical bytes skips the checks.
    let mut known_good = false;
    let (p, digest) = super::par_read::read(path, |digest| {
        known_good = fs::read_to_string(mark_path(path))
            .map(|s| s.trim() == digest)
            .unwrap_or(false);
        !known_good
    })
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
            ProverError::io(path.display().to_string(), e)
        }
        _ => ProverError::Params {
            path: path.display().to_string(),
            reason: format!("corrupt or truncated parameter file: {e}"),
        },
    })?;
    if !known_good {
        write_mark(path, &digest);
    }
    Ok((p, digest))
}

fn mark_path(path: &Path) -> PathBuf {
    path.with_extension("params.checked")
}

/// Best effort: without the mark the next load checks every point again.
fn write_mark(path: &Path, digest: &str) {
    let mark = mark_path(path);
    let tmp = mark.with_extension(format!("checked.tmp{}", std::process::id()));
    if fs::write(&tmp, digest).is_err() || fs::rename(&tmp, &mark).is_err() {
        let _ = fs::remove_file(&tmp);
    }
}

/// Records that the parameter file at `path` holds valid points (it was just
/// written from points this process made), so loads skip the point checks.
/// Returns the file's SHA-256.
pub fn mark_checked(path: &Path) -> Result<String, ProverError> {
    let io = |e| ProverError::io(path.display().to_string(), e);
    // Streamed through the hash: a 47 GB file is never held in memory.
    let mut hasher = Sha256::new();
    std::io::copy(&mut fs::File::open(path).map_err(io)?, &mut hasher).map_err(io)?;
    let digest = hex::encode(hasher.finalize());
    write_mark(path, &digest);
    Ok(digest)
}

/// Writes parameters atomically (temp file, fsync, rename), points serialized in parallel.
pub fn write_atomic(p: &Params, path: &Path) -> Result<String, ProverError> {
    super::write::write_params(p, path)
        .map(|_| ())
        .map_err(|e| ProverError::io(path.display().to_string(), e))?;
    mark_checked(path)
}

/// Writes parameters atomically through bellperson's own serial writer.
pub fn write_atomic_bellperson(p: &Params, path: &Path) -> Result<(), ProverError> {
    let tmp = path.with_extension(format!("params.tmp{}", std::process::id()));
    let io = |e| ProverError::io(path.display().to_string(), e);
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io)?;
    }
    {
        let f = fs::File::create(&tmp).map_err(io)?;
        let mut w = BufWriter::with_capacity(1 << 20, f);
        p.write(&mut w).map_err(io)?;
        w.flush().map_err(io)?;
        w.get_ref().sync_all().map_err(io)?;
    }
    fs::rename(&tmp, path).map_err(io)
}

/// bellperson's parameter generation for `circuit`, with a seeded RNG.
pub fn generate<C: Circuit>(circuit: &C, seed: u64) -> Result<Params, ProverError> {
    use rand_core::SeedableRng;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    bellperson::groth16::generate_random_parameters::<blstrs::Bls12, _, _>(AsBellpepper(circuit), &mut rng)
        .map_err(|e| ProverError::Setup(e.to_string()))
}
