//! Parameters: generated with bellperson's `generate_random_parameters`,
//! cached in bellperson's file format under a parameter directory, loaded
//! and checked against the circuit (a mismatched or corrupt file is an error).

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

/// The cache file for a circuit shape.
pub fn cache_path(dir: &Path, shape_id: &str) -> PathBuf {
    dir.join(format!("{shape_id}.params"))
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
    let bytes = fs::read(path).map_err(|e| ProverError::io(path.display().to_string(), e))?;
    if bytes.is_empty() {
        return Err(ProverError::Params {
            path: path.display().to_string(),
            reason: "file is empty".into(),
        });
    }
    // Points are checked (curve, subgroup) once; the file's SHA-256 is then
    // recorded beside it, and a later load of identical bytes skips the checks.
    let digest = hex::encode(Sha256::digest(&bytes));
    let mark = path.with_extension("params.checked");
    let known_good = fs::read_to_string(&mark).map(|s| s.trim() == digest).unwrap_or(false);
    let p = super::par_read::parse(&bytes, !known_good).map_err(|e| ProverError::Params {
        path: path.display().to_string(),
        reason: format!("corrupt or truncated parameter file: {e}"),
    })?;
    if !known_good {
        // Best effort: without the mark the next load checks every point again.
        let tmp = mark.with_extension(format!("checked.tmp{}", std::process::id()));
        if fs::write(&tmp, &digest).is_ok() && fs::rename(&tmp, &mark).is_err() {
            let _ = fs::remove_file(&tmp);
        }
    }
    Ok(p)
}

/// Writes parameters atomically (temp file, fsync, rename).
pub fn write_atomic(p: &Params, path: &Path) -> Result<(), ProverError> {
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

/// Where parameters came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Source {
    Loaded,
    Generated,
    GivenFile,
}

/// Loads the cached parameters for `circuit`, generating and caching them when absent.
pub fn load_or_generate<C: Circuit>(
    circuit: &C,
    dir: &Path,
    explicit: Option<&Path>,
    expected: &Expected,
) -> Result<(Params, Source, PathBuf), ProverError> {
    if let Some(path) = explicit {
        let p = read(path)?;
        check(&p, expected, &path.display().to_string())?;
        return Ok((p, Source::GivenFile, path.to_path_buf()));
    }
    let path = cache_path(dir, &circuit.shape_id());
    if path.exists() {
        let p = read(&path)?;
        check(&p, expected, &path.display().to_string())?;
        return Ok((p, Source::Loaded, path));
    }
    let p = generate(circuit, 0x5eed_0000)?;
    check(&p, expected, &path.display().to_string())?;
    write_atomic(&p, &path)?;
    Ok((p, Source::Generated, path))
}
