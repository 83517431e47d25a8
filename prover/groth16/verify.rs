//! Verification with bellperson's verifier.

use super::Proof;
use crate::error::ProverError;
use bellperson::groth16::{prepare_verifying_key, verify_proof, VerifyingKey};
use blstrs::{Bls12, Scalar as Fr};

/// Verifies each proof against its public inputs (without the leading one).
pub fn verify_all(vk: &VerifyingKey<Bls12>, proofs: &[Proof], inputs: &[Vec<Fr>]) -> Result<(), ProverError> {
    let pvk = prepare_verifying_key(vk);
    for (i, (p, x)) in proofs.iter().zip(inputs).enumerate() {
        let ok = verify_proof(&pvk, p, x).map_err(|e| ProverError::Verify(e.to_string()))?;
        if !ok {
            return Err(ProverError::VerifyFailed { index: i });
        }
    }
    Ok(())
}
