//! Groth16 over BLS12-381, one file per protocol phase: parameters (setup and
//! cache), proof assembly, verification.

pub mod assemble;
pub mod par_read;
pub mod params;
pub mod verify;

pub type Params = bellperson::groth16::Parameters<blstrs::Bls12>;
pub type Proof = bellperson::groth16::Proof<blstrs::Bls12>;
