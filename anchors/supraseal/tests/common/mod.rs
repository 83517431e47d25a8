//! Code shared by the integration tests.

use bellperson::groth16::generate_random_parameters;
use blstrs::Bls12;
use phaseline_circuits::circuits::preset;
use phaseline_circuits::cs::bridge::AsBellpepper;
use phaseline_circuits::cs::Circuit;
use rand_core::SeedableRng;
use std::path::{Path, PathBuf};

/// Writes bellperson parameters for `name` into `dir` under the runner's cache name.
pub fn make_params(name: &str, dir: &Path) -> PathBuf {
    let c = preset(name, 0).unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
    let p = generate_random_parameters::<Bls12, _, _>(AsBellpepper(&c), &mut rng).unwrap();
    let path = dir.join(format!("{}.params", c.shape_id()));
    let mut f = std::fs::File::create(&path).unwrap();
    p.write(&mut f).unwrap();
    path
}
