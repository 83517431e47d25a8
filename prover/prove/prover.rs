//! The prover a run chooses with `--backend`: our driver on one of its G1
//! engines ([`EngineChoice`]), or bellperson's own prover, which synthesizes
//! and proves inside one call and so takes circuits, not synthesized ones.

use super::driver;
use crate::build_info;
use crate::cpu::prove::CpuEngine;
use crate::error::ProverError;
use crate::groth16::{Params, Proof};
use crate::phases::Recorder;
use crate::synth::Synthesized;
use blstrs::Scalar as Fr;
use phaseline_record::Backend;

/// The MSM engine our driver runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// `cpu`: [`CpuEngine`].
    Cpu,
    /// `cuda`: the CUDA engine, with its test hooks.
    #[cfg(feature = "cuda")]
    Cuda(crate::gpu::prove::Hooks),
}

impl EngineChoice {
    /// Proves every synthesized circuit (one shape) with randomizers `rs`.
    pub fn prove(
        &self,
        p: &Params,
        synths: &[Synthesized],
        rs: &[(Fr, Fr)],
        rec: &Recorder,
    ) -> Result<Vec<Proof>, ProverError> {
        match self {
            EngineChoice::Cpu => driver::prove(&CpuEngine, p, synths, rs, rec),
            #[cfg(feature = "cuda")]
            EngineChoice::Cuda(hooks) => {
                driver::prove(&crate::gpu::prove::CudaEngine { hooks: *hooks }, p, synths, rs, rec)
            }
        }
    }
}

/// Which prover makes a run's proofs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prover {
    /// Ours: synthesis by our engine, then the driver on `EngineChoice`.
    Ours(EngineChoice),
    /// `bellperson`: bellperson's prover on the bridged circuits
    /// (`crate::bellperson_backend`), an anchor on identical work.
    Bellperson,
}

impl Prover {
    /// The prover named `backend`, when this build has it; `inject_gpu_alloc`
    /// is the CUDA engine's test hook (ignored by the others).
    #[cfg_attr(not(feature = "cuda"), allow(unused_variables))]
    pub fn named(backend: Backend, inject_gpu_alloc: u64) -> Result<Prover, ProverError> {
        if !build_info::backends().contains(&backend) {
            return Err(ProverError::BackendUnavailable(backend.to_string()));
        }
        match backend {
            Backend::Cpu => Ok(Prover::Ours(EngineChoice::Cpu)),
            #[cfg(feature = "cuda")]
            Backend::Cuda => Ok(Prover::Ours(EngineChoice::Cuda(crate::gpu::prove::Hooks {
                inject_alloc_bytes: inject_gpu_alloc,
            }))),
            Backend::Bellperson => Ok(Prover::Bellperson),
            other => Err(ProverError::BackendUnavailable(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_backend_names_a_prover_and_others_are_refused() {
        for b in build_info::backends() {
            assert!(Prover::named(b, 0).is_ok(), "{b}");
        }
        assert_eq!(Prover::named(Backend::Cpu, 0).unwrap(), Prover::Ours(EngineChoice::Cpu));
        assert_eq!(Prover::named(Backend::Bellperson, 0).unwrap(), Prover::Bellperson);
        let unbuilt = Backend::ALL.iter().filter(|b| !build_info::backends().contains(b));
        for &b in unbuilt {
            assert!(
                matches!(Prover::named(b, 0), Err(ProverError::BackendUnavailable(_))),
                "{b}"
            );
        }
    }
}
