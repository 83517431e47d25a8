//! One C2 partition as a [`Circuit`] of ours: filecoin-proofs' compound proof
//! builds the circuit (`StackedCompound::circuit`, or `blank_circuit` for the
//! shape alone) and derives its public inputs (`generate_public_inputs`); the
//! adapter runs it on our constraint systems.

use crate::adapter::OnCs;
use crate::input::C1;
use crate::sector::{Sector, Tree};
use crate::RealError;
use bellpepper_core::Circuit as _;
use blstrs::Scalar as Fr;
use filecoin_hashers::{Domain, Hasher};
use filecoin_proofs::parameters::setup_params;
use filecoin_proofs::{DefaultPieceDomain, DefaultPieceHasher};
use phaseline_circuits::cs::{Circuit, Cs, CsError, SizeHint};
use storage_proofs_core::compound_proof::{self, CompoundProof};
use storage_proofs_porep::stacked::{self, StackedCircuit, StackedCompound, StackedDrg};

type Compound = StackedCompound<Tree, DefaultPieceHasher>;
/// filecoin-proofs' own circuit of one partition, for provers that take
/// bellpepper circuits (the supraseal anchor).
pub type StackedPartition = StackedCircuit<Tree, DefaultPieceHasher>;
type TreeDomain = <<Tree as storage_proofs_core::merkle::MerkleTreeTrait>::Hasher as Hasher>::Domain;

/// The public parameters of the compound proof for `sector`.
pub fn public_params(
    sector: Sector,
) -> Result<compound_proof::PublicParams<'static, StackedDrg<'static, Tree, DefaultPieceHasher>>, RealError> {
    let config = sector.config();
    let setup = compound_proof::SetupParams {
        vanilla_params: setup_params(&config).map_err(fe)?,
        partitions: Some(sector.partitions()),
        priority: false,
    };
    <Compound as CompoundProof<'_, StackedDrg<'_, Tree, DefaultPieceHasher>, _>>::setup(&setup).map_err(fe)
}

pub(crate) fn fe(e: anyhow::Error) -> RealError {
    RealError::Filecoin(format!("{e:#}"))
}

/// The seal's public inputs as filecoin-proofs forms them from a C1 output.
pub fn seal_public_inputs(c1: &C1) -> Result<stacked::PublicInputs<TreeDomain, DefaultPieceDomain>, RealError> {
    let o = &c1.output;
    let bad = |what: &str| RealError::Filecoin(format!("invalid {what} in the C1 output"));
    if o.comm_d == [0; 32] || o.comm_r == [0; 32] || o.seed == [0; 32] {
        return Err(bad("all-zero comm_d, comm_r or seed"));
    }
    let comm_r = TreeDomain::try_from_bytes(&o.comm_r).map_err(|_| bad("comm_r"))?;
    let comm_d = DefaultPieceDomain::try_from_bytes(&o.comm_d).map_err(|_| bad("comm_d"))?;
    Ok(stacked::PublicInputs {
        replica_id: o.replica_id,
        tau: Some(stacked::Tau { comm_d, comm_r }),
        k: None,
        seed: Some(o.seed),
    })
}

/// One partition's circuit (or the blank circuit) and its public inputs.
pub struct RealCircuit {
    circuit: StackedPartition,
    inputs: Vec<Fr>,
    sector: Sector,
    hint: SizeHint,
}

impl RealCircuit {
    pub fn sector(&self) -> Sector {
        self.sector
    }
    /// filecoin-proofs' circuit itself, as bellpepper provers take it.
    pub fn bellpepper(&self) -> StackedPartition {
        self.circuit.clone()
    }
    /// Sets the size hint (from an earlier synthesis of the same shape).
    pub fn with_hint(mut self, hint: SizeHint) -> Self {
        self.hint = hint;
        self
    }
}

/// Every partition's circuit of a C1 output, in partition order.
pub fn partition_circuits(c1: &C1) -> Result<Vec<RealCircuit>, RealError> {
    let pp = public_params(c1.sector)?;
    let pub_in = seal_public_inputs(c1)?;
    c1.output
        .vanilla_proofs
        .iter()
        .enumerate()
        .map(|(k, proofs)| {
            let circuit = Compound::circuit(&pub_in, (), proofs, &pp.vanilla_params, Some(k)).map_err(fe)?;
            let inputs = Compound::generate_public_inputs(&pub_in, &pp.vanilla_params, Some(k)).map_err(fe)?;
            Ok(RealCircuit {
                circuit,
                inputs,
                sector: c1.sector,
                hint: SizeHint::default(),
            })
        })
        .collect()
}

/// The compound proof's blank circuit of `sector`: the shape, no values.
pub fn blank_circuit(sector: Sector) -> Result<RealCircuit, RealError> {
    let pp = public_params(sector)?;
    Ok(RealCircuit {
        circuit: Compound::blank_circuit(&pp.vanilla_params),
        inputs: Vec::new(),
        sector,
        hint: SizeHint::default(),
    })
}

impl Circuit for RealCircuit {
    fn synthesize<C: Cs>(&self, cs: &mut C) -> Result<(), CsError> {
        let mut on = OnCs::new(cs);
        self.circuit.clone().synthesize(&mut on).map_err(|e| match e {
            bellpepper_core::SynthesisError::AssignmentMissing => CsError::MissingValue,
            e => CsError::Bellpepper(e.to_string()),
        })
    }
    fn size_hint(&self) -> SizeHint {
        self.hint
    }
    fn public_inputs(&self) -> Vec<Fr> {
        self.inputs.clone()
    }
    fn shape_id(&self) -> String {
        self.sector.shape_id()
    }
}
