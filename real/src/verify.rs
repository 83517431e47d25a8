//! filecoin-proofs' own verification of a seal's C2 proofs: the compound
//! proof's `verify` (public inputs derived by filecoin-proofs from the C1
//! output's replica id, commitments and seed; challenge count checked),
//! with the proofs read back from their 192-byte Filecoin encoding.

use crate::circuit::{fe, public_params, seal_public_inputs};
use crate::input::C1;
use crate::sector::Tree;
use crate::RealError;
use bellperson::groth16::{prepare_verifying_key, Proof, VerifyingKey};
use blstrs::Bls12;
use filecoin_proofs::DefaultPieceHasher;
use storage_proofs_core::compound_proof::CompoundProof;
use storage_proofs_core::multi_proof::MultiProof;
use storage_proofs_porep::stacked::{ChallengeRequirements, StackedCompound, StackedDrg};

/// The proofs in Filecoin's encoding: 192 bytes each, partition order.
pub fn encode_proofs(proofs: &[Proof<Bls12>]) -> Result<Vec<u8>, RealError> {
    let mut buf = Vec::with_capacity(192 * proofs.len());
    for p in proofs {
        p.write(&mut buf).map_err(|e| RealError::io("proof encoding", e))?;
    }
    Ok(buf)
}

/// Verifies `proofs` (one per partition) of the seal in `c1` under `vk` by
/// filecoin-proofs' path; a rejection is [`RealError::FilecoinVerifyFailed`].
pub fn verify_seal_proofs(c1: &C1, vk: &VerifyingKey<Bls12>, proofs: &[Proof<Bls12>]) -> Result<(), RealError> {
    let pvk = prepare_verifying_key(vk);
    let bytes = encode_proofs(proofs)?;
    let multi = MultiProof::new_from_bytes(Some(c1.sector.partitions()), &bytes, &pvk).map_err(fe)?;
    let pp = public_params(c1.sector)?;
    let pub_in = seal_public_inputs(c1)?;
    let req = ChallengeRequirements {
        minimum_challenges: c1.sector.config().minimum_challenges(),
    };
    let ok = <StackedCompound<Tree, DefaultPieceHasher> as CompoundProof<
        '_,
        StackedDrg<'_, Tree, DefaultPieceHasher>,
        _,
    >>::verify(&pp, &pub_in, &multi, &req)
    .map_err(fe)?;
    if ok {
        Ok(())
    } else {
        Err(RealError::FilecoinVerifyFailed)
    }
}
