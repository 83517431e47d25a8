//! The parameter file: bellperson's format, as `phaseline-prover setup`
//! writes it. supraseal-c2 reads the whole file itself; here the anchor finds
//! it, checks its section sizes against the circuit (supraseal-c2 only
//! asserts them in its C++ code) and reads the verifying key for bellperson's
//! verifier.

use crate::error::AnchorError;
use bellperson::groth16::VerifyingKey;
use blstrs::Bls12;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Environment variable naming the parameter directory (the runner reads the same one).
pub const PARAMS_DIR_ENV: &str = "PHASELINE_PARAMS_DIR";

const G1_BYTES: u64 = 96;
const G2_BYTES: u64 = 192;

/// Point counts of the sections of a parameter file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    pub ic: usize,
    pub h: usize,
    pub l: usize,
    pub a: usize,
    pub b_g1: usize,
    pub b_g2: usize,
}

/// Where the parameters of `shape_id` are: `--params FILE` when given, else
/// `<dir>/<shape_id>.params` with dir from `--params-dir`, then
/// `$PHASELINE_PARAMS_DIR`, then `./params` (the runner's cache layout).
pub fn locate(file: Option<&Path>, dir: Option<&Path>, shape_id: &str) -> PathBuf {
    match file {
        Some(f) => f.to_path_buf(),
        None => params_dir(dir).join(format!("{shape_id}.params")),
    }
}

/// The parameter directory: `--params-dir`, then `$PHASELINE_PARAMS_DIR`,
/// then `./params` (the runner's default; it also caches real C1 outputs).
pub fn params_dir(dir: Option<&Path>) -> PathBuf {
    dir.map(Path::to_path_buf)
        .or_else(|| std::env::var_os(PARAMS_DIR_ENV).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("params"))
}

fn bad(path: &Path, reason: impl Into<String>) -> AnchorError {
    AnchorError::Params {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

fn section(r: &mut BufReader<File>, path: &Path, name: &str, point: u64) -> Result<usize, AnchorError> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)
        .map_err(|e| bad(path, format!("truncated before the {name} section: {e}")))?;
    let n = u32::from_be_bytes(len);
    r.seek(SeekFrom::Current((n as u64 * point) as i64))
        .map_err(|e| AnchorError::io(path.display().to_string(), e))?;
    Ok(n as usize)
}

/// Reads the verifying key and the section sizes; the file length must be exactly what they imply.
pub fn read_header(path: &Path) -> Result<(VerifyingKey<Bls12>, Sizes), AnchorError> {
    let f = File::open(path).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::NotFound {
            " (make it with `phaseline-prover setup --circuit NAME --params-dir DIR`)"
        } else {
            ""
        };
        bad(path, format!("cannot open: {e}{hint}"))
    })?;
    let file_len = f
        .metadata()
        .map_err(|e| AnchorError::io(path.display().to_string(), e))?
        .len();
    let mut r = BufReader::new(f);
    let vk = VerifyingKey::<Bls12>::read(&mut r).map_err(|e| bad(path, format!("bad verifying key: {e}")))?;
    let ic = vk.ic.len();
    let h = section(&mut r, path, "H", G1_BYTES)?;
    let l = section(&mut r, path, "L", G1_BYTES)?;
    let a = section(&mut r, path, "A", G1_BYTES)?;
    let b_g1 = section(&mut r, path, "B_G1", G1_BYTES)?;
    let b_g2 = section(&mut r, path, "B_G2", G2_BYTES)?;
    let sizes = Sizes {
        ic,
        h,
        l,
        a,
        b_g1,
        b_g2,
    };
    let end = r
        .stream_position()
        .map_err(|e| AnchorError::io(path.display().to_string(), e))?;
    if end != file_len {
        return Err(bad(
            path,
            format!("size {file_len} bytes, but its sections need {end}: truncated or not a parameter file"),
        ));
    }
    Ok((vk, sizes))
}

/// Fails when the file's sections do not fit the circuit.
pub fn check(path: &Path, got: &Sizes, want: &Sizes) -> Result<(), AnchorError> {
    let rows = [
        ("IC (public inputs)", got.ic, want.ic),
        ("H (domain - 1)", got.h, want.h),
        ("L (aux)", got.l, want.l),
        ("A", got.a, want.a),
        ("B_G1", got.b_g1, want.b_g1),
        ("B_G2", got.b_g2, want.b_g2),
    ];
    for (what, g, w) in rows {
        if g != w {
            return Err(bad(
                path,
                format!("made for another circuit: {what} has {g} points, this circuit needs {w}"),
            ));
        }
    }
    Ok(())
}
