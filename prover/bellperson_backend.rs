//! The `bellperson` backend: bellperson's own CPU prover on the very same
//! circuit (through the bellpepper bridge) with the same cached parameters.
//! An anchor to compare our backends against on identical work.
//!
//! bellperson synthesizes, builds H and runs the MSMs inside one call, so
//! the only phase that can be timed honestly is that call as a whole:
//! [`PROVE_PHASE`].

use crate::cs::bridge::AsBellpepper;
use crate::cs::Circuit;
use crate::error::ProverError;
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use blstrs::Bls12;
use rand_core::RngCore;

/// The one phase bellperson's prover is timed as.
pub const PROVE_PHASE: &str = "bellperson_prove";

/// Proves every circuit (one shape) with bellperson's CPU prover; more than
/// one circuit goes through its batch prover, as PoRep partitions do.
pub fn prove<C: Circuit, R: RngCore>(
    params: &Params,
    circuits: &[C],
    rng: &mut R,
    rec: &Recorder,
) -> Result<Vec<Proof>, ProverError> {
    let bridged: Vec<AsBellpepper<'_, C>> = circuits.iter().map(AsBellpepper).collect();
    rec.time(PROVE_PHASE, || {
        crate::selftest::slow_l_msm();
        bellperson::groth16::create_random_proof_batch::<Bls12, _, _, _>(bridged, params, rng)
    })
    .map_err(|e| ProverError::Prove(format!("bellperson: {e}")))
}
