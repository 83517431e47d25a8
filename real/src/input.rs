//! Reading a C1 output: filecoin-proofs' JSON of `SealCommitPhase1Output`, or
//! the C2 input file of lotus-bench and curio (`{"SectorNum", "Phase1Out"
//! (base64 of that JSON), "SectorSize"}`). The sector size is read from the
//! vanilla proofs (the depth of the data tree's inclusion path) and, for the
//! lotus file, checked against its `SectorSize`.

use crate::sector::{Sector, Tree};
use crate::RealError;
use base64::Engine as _;
use filecoin_proofs::SealCommitPhase1Output;
use serde::Deserialize;
use std::path::Path;
use storage_proofs_core::merkle::MerkleProofTrait;

/// A C1 output and its sector size.
pub struct C1 {
    pub output: SealCommitPhase1Output<Tree>,
    pub sector: Sector,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct LotusC2Input {
    #[allow(dead_code)]
    sector_num: u64,
    phase1_out: String,
    sector_size: u64,
}

/// Reads and checks a C1 file in either format.
pub fn read_c1(path: &Path) -> Result<C1, RealError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| RealError::io(&shown, e))?;
    parse_c1(&bytes).map_err(|reason| RealError::C1File { path: shown, reason })
}

/// Parses a C1 file's bytes in either format.
pub fn parse_c1(bytes: &[u8]) -> Result<C1, String> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let (output, declared) = if value.get("Phase1Out").is_some() {
        let lotus: LotusC2Input =
            serde_json::from_value(value).map_err(|e| format!("not a lotus/curio C2 input: {e}"))?;
        let json = base64::engine::general_purpose::STANDARD
            .decode(lotus.phase1_out.trim())
            .map_err(|e| format!("Phase1Out is not base64: {e}"))?;
        let out: SealCommitPhase1Output<Tree> =
            serde_json::from_slice(&json).map_err(|e| format!("Phase1Out is not a C1 output: {e}"))?;
        (out, Some(lotus.sector_size))
    } else {
        let out = serde_json::from_value(value).map_err(|e| format!("not a C1 output: {e}"))?;
        (out, None)
    };
    let sector = sector_of(&output)?;
    if let Some(d) = declared {
        if d != sector.bytes() {
            return Err(format!(
                "SectorSize {d} disagrees with the proofs, which are of a {} sector",
                sector.name()
            ));
        }
    }
    if output.vanilla_proofs.len() != sector.partitions() {
        return Err(format!(
            "{} partitions of vanilla proofs, a {} sector has {}",
            output.vanilla_proofs.len(),
            sector.name(),
            sector.partitions()
        ));
    }
    Ok(C1 { output, sector })
}

/// The sector size from the data tree's inclusion path (one level per
/// doubling of its 32-byte nodes).
fn sector_of(out: &SealCommitPhase1Output<Tree>) -> Result<Sector, String> {
    let first = out
        .vanilla_proofs
        .first()
        .and_then(|p| p.first())
        .ok_or("the C1 output holds no vanilla proofs")?;
    let depth = first.comm_d_proofs.as_pairs().len() as u32;
    if depth == 0 || depth > 40 {
        return Err(format!("implausible data-tree depth {depth}"));
    }
    Sector::from_bytes(32u64 << depth).map_err(|e| e.to_string())
}
