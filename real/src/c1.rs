//! `c1`: seal seeded random data (pre-commit 1 and 2) and run commit phase 1,
//! giving the C1 output (`SealCommitPhase1Output`) that C2 proves. The sector
//! files and the sealing cache live in a temporary directory removed
//! afterwards; the SDR parents cache stays where filecoin-proofs keeps it
//! (`FIL_PROOFS_PARENT_CACHE`), shared by every sealing of that size.

use crate::sector::{Sector, Tree};
use crate::RealError;
use filecoin_proofs::{
    add_piece, seal_commit_phase1, seal_pre_commit_phase1, seal_pre_commit_phase2, PaddedBytesAmount,
    SealCommitPhase1Output, UnpaddedBytesAmount,
};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::fs::File;
use std::io::{Cursor, Write};
use std::path::Path;
use storage_proofs_core::sector::SectorId;

/// The C1 output of `sector` sealed from data, prover id, sector id, ticket
/// and challenge seed all drawn from `seed`.
pub fn seal_c1(sector: Sector, seed: u64) -> Result<SealCommitPhase1Output<Tree>, RealError> {
    let seal = |e: anyhow::Error| RealError::Seal(format!("{e:#}"));
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut draw = || {
        let mut b = [0u8; 32];
        rng.fill_bytes(&mut b);
        b
    };
    let mut prover_id = draw();
    prover_id[31] &= 0x3f; // a valid field element, as filecoin-proofs' tests make it
    let ticket = draw();
    let challenge_seed = draw();
    let sector_id = SectorId::from(u64::from_le_bytes(draw()[..8].try_into().expect("8 bytes")));
    let config = sector.config();

    let dir = tempfile::Builder::new()
        .prefix("phaseline-seal-")
        .tempdir()
        .map_err(|e| RealError::io("temporary sealing directory", e))?;
    let staged = dir.path().join("staged");
    let sealed = dir.path().join("sealed");
    let cache = dir.path().join("cache");
    std::fs::create_dir(&cache).map_err(|e| RealError::io(cache.display().to_string(), e))?;

    let unpadded = UnpaddedBytesAmount::from(PaddedBytesAmount(sector.bytes()));
    let mut data = vec![0u8; u64::from(unpadded) as usize];
    rng.fill_bytes(&mut data);
    let piece = {
        let mut f = File::create(&staged).map_err(|e| RealError::io(staged.display().to_string(), e))?;
        let (info, _) = add_piece(Cursor::new(&data), &mut f, unpadded, &[]).map_err(seal)?;
        f.flush().map_err(|e| RealError::io(staged.display().to_string(), e))?;
        info
    };
    File::create(&sealed).map_err(|e| RealError::io(sealed.display().to_string(), e))?;
    let pieces = [piece];
    let p1 = seal_pre_commit_phase1::<_, _, _, Tree>(
        &config, &cache, &staged, &sealed, prover_id, sector_id, ticket, &pieces,
    )
    .map_err(seal)?;
    let pre = seal_pre_commit_phase2(&config, p1, &cache, &sealed).map_err(seal)?;
    let out = seal_commit_phase1::<_, Tree>(
        &config,
        &cache,
        &sealed,
        prover_id,
        sector_id,
        ticket,
        challenge_seed,
        pre,
        &pieces,
    )
    .map_err(seal)?;
    dir.close()
        .map_err(|e| RealError::io("temporary sealing directory", e))?;
    Ok(out)
}

/// Writes `out` as filecoin-proofs' JSON to `path`, atomically (a temporary
/// file beside it, then a rename).
pub fn write_c1(out: &SealCommitPhase1Output<Tree>, path: &Path) -> Result<(), RealError> {
    let shown = path.display().to_string();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| RealError::io(&shown, e))?;
    serde_json::to_writer(&mut tmp, out).map_err(|e| RealError::io(&shown, e.into()))?;
    tmp.flush().map_err(|e| RealError::io(&shown, e))?;
    tmp.as_file().sync_all().map_err(|e| RealError::io(&shown, e))?;
    tmp.persist(path).map_err(|e| RealError::io(&shown, e.error))?;
    Ok(())
}

/// Where a parameter directory keeps the C1 output of `sector` sealed from `seed`.
pub fn cache_path(dir: &Path, sector: Sector, seed: u64) -> std::path::PathBuf {
    dir.join(format!("c1-porep-real-{}-seed{seed}.json", sector.name()))
}

/// The C1 output of `sector` and `seed` cached in `dir`: read when present,
/// else sealed and written there first (atomically), so every runner that
/// names the same directory proves the same seal.
pub fn cached(dir: &Path, sector: Sector, seed: u64) -> Result<crate::C1, RealError> {
    let path = cache_path(dir, sector, seed);
    if !path.exists() {
        std::fs::create_dir_all(dir).map_err(|e| RealError::io(dir.display().to_string(), e))?;
        write_c1(&seal_c1(sector, seed)?, &path)?;
    }
    crate::read_c1(&path)
}
