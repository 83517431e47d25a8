//! The sector sizes we seal and prove, and their filecoin-proofs configuration
//! (registered proof `StackedDrg*V1_1`, API version 1.1).

use crate::RealError;
use filecoin_proofs::{PoRepConfig, SECTOR_SIZE_2_KIB, SECTOR_SIZE_512_MIB, SECTOR_SIZE_8_MIB};
use storage_proofs_core::api_version::ApiVersion;

/// The tree shape of every size we support (`SectorShapeBase`).
pub type Tree = filecoin_proofs::SectorShape2KiB;

/// A supported sector size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sector {
    S2KiB,
    S8MiB,
    S512MiB,
}

impl Sector {
    pub const ALL: [Sector; 3] = [Sector::S2KiB, Sector::S8MiB, Sector::S512MiB];

    /// Parses `2KiB`, `8MiB`, `512MiB` (case-insensitive) or the byte count.
    pub fn parse(s: &str) -> Result<Sector, RealError> {
        let t = s.trim().to_ascii_lowercase();
        Sector::ALL
            .into_iter()
            .find(|x| x.name().to_ascii_lowercase() == t || x.bytes().to_string() == t)
            .ok_or_else(|| RealError::SectorSize(s.into()))
    }

    /// The sector of `bytes`, if supported.
    pub fn from_bytes(bytes: u64) -> Result<Sector, RealError> {
        Sector::ALL
            .into_iter()
            .find(|x| x.bytes() == bytes)
            .ok_or_else(|| RealError::SectorSize(format!("{bytes} bytes")))
    }

    pub fn name(self) -> &'static str {
        match self {
            Sector::S2KiB => "2KiB",
            Sector::S8MiB => "8MiB",
            Sector::S512MiB => "512MiB",
        }
    }

    pub fn bytes(self) -> u64 {
        match self {
            Sector::S2KiB => SECTOR_SIZE_2_KIB,
            Sector::S8MiB => SECTOR_SIZE_8_MIB,
            Sector::S512MiB => SECTOR_SIZE_512_MIB,
        }
    }

    /// The registered proof number (`StackedDrg2KiBV1_1` is 5, 8MiB 6, 512MiB 7).
    pub fn registered_proof(self) -> u64 {
        match self {
            Sector::S2KiB => 5,
            Sector::S8MiB => 6,
            Sector::S512MiB => 7,
        }
    }

    /// The porep id: the registered proof number, little-endian, zero-padded.
    pub fn porep_id(self) -> [u8; 32] {
        let mut id = [0u8; 32];
        id[..8].copy_from_slice(&self.registered_proof().to_le_bytes());
        id
    }

    pub fn config(self) -> PoRepConfig {
        PoRepConfig::new_groth16(self.bytes(), self.porep_id(), ApiVersion::V1_1_0)
    }

    /// Partitions of this size's proof.
    pub fn partitions(self) -> usize {
        usize::from(self.config().partitions)
    }

    /// The shape id of one partition's circuit: same sector size and porep
    /// id, same R1CS.
    pub fn shape_id(self) -> String {
        format!("porep-real-{}-{}", self.name(), hex::encode(&self.porep_id()[..8]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_bytes_and_rejects_others() {
        assert_eq!(Sector::parse("2kib").unwrap(), Sector::S2KiB);
        assert_eq!(Sector::parse("8388608").unwrap(), Sector::S8MiB);
        assert_eq!(Sector::parse("512MiB").unwrap(), Sector::S512MiB);
        assert!(matches!(Sector::parse("32GiB"), Err(RealError::SectorSize(_))));
        assert_eq!(Sector::from_bytes(2048).unwrap(), Sector::S2KiB);
        assert!(Sector::from_bytes(4096).is_err());
    }

    #[test]
    fn porep_id_and_partitions_follow_filecoin() {
        assert_eq!(Sector::S8MiB.porep_id()[0], 6);
        assert!(Sector::S2KiB.porep_id()[1..].iter().all(|b| *b == 0));
        assert_eq!(Sector::S2KiB.partitions(), 1);
        assert_ne!(Sector::S2KiB.shape_id(), Sector::S8MiB.shape_id());
    }
}
