//! Groth16 over BLS12-381, one file per protocol phase: parameter files
//! (format, read, write) and their cache, proof assembly, verification.

pub mod assemble;
pub mod cache;
pub mod par_read;
pub mod params;
pub mod verify;
pub mod write;

pub type Params = bellperson::groth16::Parameters<blstrs::Bls12>;
pub type Proof = bellperson::groth16::Proof<blstrs::Bls12>;
