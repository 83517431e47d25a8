//! What a run proves: a preset of `phaseline-circuits` (fresh witnesses each
//! repetition, as the runner derives them) or every partition of a real
//! PoRep C1 output (`porep-real:SIZE`, filecoin-proofs' own circuit). The
//! C1 output is the one cached in the parameter directory for the run's seed,
//! so the anchor and our runner prove the same seal with the same parameters.

use crate::error::AnchorError;
use crate::shape::{Shape, ShapeCs};
use blstrs::Scalar as Fr;
use phaseline_circuits::circuits::{rep_circuits, PorepCircuit};
use phaseline_circuits::cs::bridge::AsBellpepper;
use phaseline_circuits::cs::Circuit;
use phaseline_real::{partition_circuits, Sector, StackedPartition, C1, NAME_PREFIX};
use std::path::Path;

/// The circuits of one kind a run proves.
pub enum Workload {
    Preset { name: String, partitions: usize, seed: u64 },
    Real { name: String, c1: Box<C1> },
}

/// One repetition's circuits, ready for bellperson, with their public inputs.
pub enum Batch {
    Preset(Vec<PorepCircuit>),
    Real(Vec<StackedPartition>, Vec<Vec<Fr>>),
}

impl Workload {
    /// The workload a circuit name stands for; a real one reads (or first
    /// seals and caches) the C1 output of `seed` in `params_dir`.
    pub fn new(circuit: &str, partitions: usize, seed: u64, params_dir: &Path) -> Result<Workload, AnchorError> {
        let Some(size) = circuit.strip_prefix(NAME_PREFIX) else {
            return Ok(Workload::Preset {
                name: circuit.into(),
                partitions,
                seed,
            });
        };
        let sector = Sector::parse(size)?;
        let c1 = phaseline_real::c1::cached(params_dir, sector, seed)?;
        Ok(Workload::Real {
            name: circuit.into(),
            c1: Box::new(c1),
        })
    }

    pub fn name(&self) -> &str {
        match self {
            Workload::Preset { name, .. } | Workload::Real { name, .. } => name,
        }
    }

    /// Proofs per batch (a real seal has its sector size's partitions).
    pub fn partitions(&self) -> usize {
        match self {
            Workload::Preset { partitions, .. } => *partitions,
            Workload::Real { c1, .. } => c1.sector.partitions(),
        }
    }

    /// The C1 output of a real workload.
    pub fn c1(&self) -> Option<&C1> {
        match self {
            Workload::Real { c1, .. } => Some(c1),
            Workload::Preset { .. } => None,
        }
    }

    /// The circuits of repetition `rep`.
    pub fn batch(&self, rep: usize) -> Result<Batch, AnchorError> {
        match self {
            Workload::Preset { name, partitions, seed } => Ok(Batch::Preset(
                rep_circuits(name, *partitions, *seed, rep).map_err(AnchorError::UnknownPreset)?,
            )),
            Workload::Real { c1, .. } => {
                let cs = partition_circuits(c1)?;
                let inputs = cs.iter().map(|c| c.public_inputs()).collect();
                Ok(Batch::Real(cs.iter().map(|c| c.bellpepper()).collect(), inputs))
            }
        }
    }

    /// The shape id and the shape (with witness value counts) of the first
    /// circuit of repetition 0: what the parameter file must fit.
    pub fn first_shape(&self) -> Result<(String, Shape), AnchorError> {
        let mut cs = ShapeCs::new_with_one();
        let synth = |e: bellpepper_core::SynthesisError| AnchorError::Synthesis(e.to_string());
        let id = match self {
            Workload::Preset { name, seed, .. } => {
                let c = rep_circuits(name, 1, *seed, 0)
                    .map_err(AnchorError::UnknownPreset)?
                    .remove(0);
                bellpepper_core::Circuit::synthesize(AsBellpepper(&c), &mut cs).map_err(synth)?;
                c.shape_id()
            }
            Workload::Real { c1, .. } => {
                let c = partition_circuits(c1)?.remove(0);
                bellpepper_core::Circuit::synthesize(c.bellpepper(), &mut cs).map_err(synth)?;
                c.shape_id()
            }
        };
        Ok((id, cs.shape))
    }
}

impl Batch {
    pub fn len(&self) -> usize {
        match self {
            Batch::Preset(cs) => cs.len(),
            Batch::Real(cs, _) => cs.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each circuit's public inputs (without the leading one).
    pub fn inputs(&self) -> Vec<Vec<Fr>> {
        match self {
            Batch::Preset(cs) => cs.iter().map(|c| c.public_inputs()).collect(),
            Batch::Real(_, inputs) => inputs.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real 2 KiB seal: the anchor proves filecoin-proofs' own partition
    /// circuit, whose counts are the ones our runner records for the same
    /// C1 output (docs/real-circuit.md), and its public inputs are
    /// filecoin-proofs' derivation.
    #[test]
    fn a_real_2kib_seal_is_one_partition_of_the_recorded_shape() {
        let dir = tempfile::tempdir().unwrap();
        let w = Workload::new("porep-real:2KiB", 1, 3, dir.path()).unwrap();
        assert!(dir.path().join("c1-porep-real-2KiB-seed3.json").exists());
        assert_eq!((w.name(), w.partitions()), ("porep-real:2KiB", 1));
        let (id, s) = w.first_shape().unwrap();
        assert_eq!(id, Sector::parse("2KiB").unwrap().shape_id());
        assert_eq!((s.rows(), s.aux), (2_687_961, 2_685_673));
        let other = s.aux - s.aux_zero - s.aux_one;
        assert!((40_000..48_000).contains(&other), "{other} aux values neither 0 nor 1");
        let batch = w.batch(0).unwrap();
        assert_eq!(batch.len(), 1);
        let want = partition_circuits(w.c1().unwrap()).unwrap()[0].public_inputs();
        assert_eq!(batch.inputs(), vec![want.clone()]);
        assert_eq!(s.inputs, want.len() + 1);
        // The same seed reads the cached seal instead of sealing again.
        let again = Workload::new("porep-real:2KiB", 1, 3, dir.path()).unwrap();
        assert_eq!(again.c1().unwrap().output.comm_r, w.c1().unwrap().output.comm_r);
        // Unknown sector sizes are refused by name.
        let e = Workload::new("porep-real:3KiB", 1, 3, dir.path())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("3KiB"), "{e}");
    }
}
