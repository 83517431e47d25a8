//! The toxic waste of a Groth16 setup: generators and trapdoors.

use blstrs::{G1Projective, G2Projective, Scalar as Fr};
use ff::Field;
use group::Group;
use rand_core::{RngCore, SeedableRng};

/// Generators `g1`, `g2` and the trapdoors. Drawn in the order bellperson's
/// `generate_random_parameters` draws them, so the same seeded RNG gives the
/// same parameters in both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toxic {
    pub g1: G1Projective,
    pub g2: G2Projective,
    pub alpha: Fr,
    pub beta: Fr,
    pub gamma: Fr,
    pub delta: Fr,
    pub tau: Fr,
}

impl Toxic {
    pub fn from_rng(rng: &mut impl RngCore) -> Self {
        Toxic {
            g1: G1Projective::random(&mut *rng),
            g2: G2Projective::random(&mut *rng),
            alpha: Fr::random(&mut *rng),
            beta: Fr::random(&mut *rng),
            gamma: Fr::random(&mut *rng),
            delta: Fr::random(&mut *rng),
            tau: Fr::random(&mut *rng),
        }
    }

    /// Known toxic waste from a seed (tests, reproducible benchmarks): the
    /// RNG is ChaCha20 seeded with `seed`, as `params::generate` uses.
    pub fn seeded(seed: u64) -> Self {
        Self::from_rng(&mut rand_chacha::ChaCha20Rng::seed_from_u64(seed))
    }

    /// Production-style toxic waste from the operating system's entropy.
    pub fn random() -> Self {
        Self::from_rng(&mut rand_chacha::ChaCha20Rng::from_entropy())
    }
}
