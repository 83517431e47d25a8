//! The bellperson anchor and the bellpepper-compatible entry: bellperson's
//! own prover as a backend of the runner, and an existing bellpepper circuit
//! (bellperson's SHA-256 gadget) proven by our prover.

use bellpepper_core::boolean::Boolean;
use bellpepper_core::num::AllocatedNum;
use bellpepper_core::{ConstraintSystem, SynthesisError};
use bellperson::gadgets::multipack;
use bellperson::groth16::{generate_random_parameters, prepare_verifying_key, verify_proof};
use blstrs::{Bls12, Scalar as Fr};
use ff::{Field, PrimeFieldBits};
use phaseline_prover::cpu::ntt::Domain;
use phaseline_prover::cs::SizeHint;
use phaseline_prover::groth16::params::{check, Expected};
use phaseline_prover::phases::Recorder;
use phaseline_prover::record::{Backend, Mode, Record};
use phaseline_prover::run::{run_prove, RunOpts};
use phaseline_prover::synth::bellpepper_entry::{synthesize_bellpepper, witness_bellpepper};
use phaseline_record::{required, Requires};
use rand_core::SeedableRng;

#[test]
fn bellperson_backend_records_its_own_phases_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let o = RunOpts {
        partitions: 2,
        seed: 3,
        ..RunOpts::new("tiny", phaseline_prover::record::Backend::Bellperson, dir.path())
    };
    let mut recs: Vec<Record> = Vec::new();
    run_prove(&o, &mut |r| {
        recs.push(r);
        Ok(())
    })
    .unwrap();
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(r.backend, Backend::Bellperson);
    assert_eq!(r.verified, Some(true));
    assert_eq!(r.allocations_phase, "bellperson_prove");
    let names: Vec<&str> = r.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["bellperson_prove", "verify"]);
    assert_eq!(
        required(
            Mode::Prove,
            Backend::Bellperson,
            Requires {
                verify: true,
                pin: false
            }
        ),
        ["bellperson_prove", "verify"]
    );
    // Its circuit facts are those of the CPU backend on the same circuit.
    let mut cpu = Vec::new();
    run_prove(
        &RunOpts {
            backend: phaseline_prover::record::Backend::Cpu,
            verify: false,
            ..o.clone()
        },
        &mut |r| {
            cpu.push(r);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(cpu[0].circuit, r.circuit);
    // A bellperson record is checked against its own list, and strictly.
    r.check_phases().unwrap();
    let mut bad = r.clone();
    bad.phases.retain(|p| p.name != "bellperson_prove");
    assert_eq!(
        bad.check_phases().unwrap_err().to_string(),
        "record is missing the required phase `bellperson_prove`"
    );
    let mut as_cpu = r.clone();
    as_cpu.backend = Backend::Cpu;
    assert!(as_cpu.check_phases().is_err(), "a CPU record needs the CPU phases");
}

/// A MiMC-style chain (x <- x^2 * k, as bellpepper `AllocatedNum`s), its
/// result decomposed into bits and packed into public inputs: written against
/// bellpepper with its own and bellperson's gadgets, nothing of ours.
struct PowerChain {
    x: Option<Fr>,
    k: Fr,
    rounds: usize,
}

fn chain_native(mut x: Fr, k: Fr, rounds: usize) -> Fr {
    for _ in 0..rounds {
        x = x.square() * k;
    }
    x
}

impl bellpepper_core::Circuit<Fr> for PowerChain {
    fn synthesize<CS: ConstraintSystem<Fr>>(self, cs: &mut CS) -> Result<(), SynthesisError> {
        let k = AllocatedNum::alloc(cs.namespace(|| "k"), || Ok(self.k))?;
        let mut x = AllocatedNum::alloc(cs.namespace(|| "x"), || self.x.ok_or(SynthesisError::AssignmentMissing))?;
        for i in 0..self.rounds {
            let sq = x.square(cs.namespace(|| format!("square {i}")))?;
            x = sq.mul(cs.namespace(|| format!("times k {i}")), &k)?;
        }
        let bits: Vec<Boolean> = x.to_bits_le_strict(cs.namespace(|| "bits"))?;
        multipack::pack_into_inputs(cs.namespace(|| "out"), &bits)
    }
}

#[test]
fn bellpepper_circuit_proven_by_our_prover_verifies_with_bellperson() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(21);
    let (k, rounds) = (Fr::from(7u64), 300);
    let blank = PowerChain { x: None, k, rounds };
    let params = generate_random_parameters::<Bls12, _, _>(blank, &mut rng).unwrap();
    let x = Fr::random(&mut rng);
    let s = synthesize_bellpepper(PowerChain { x: Some(x), k, rounds }, SizeHint::default()).unwrap();
    let d = Domain::for_len(s.num_constraints()).unwrap();
    check(&params, &Expected::of(&s, d.n), "mem").unwrap();
    // Witness only (the closures never called): the engine's assignment and count.
    let w = witness_bellpepper(PowerChain { x: Some(x), k, rounds }, SizeHint::default()).unwrap();
    assert_eq!((&w.inputs, &w.aux), (&s.inputs, &s.aux));
    assert_eq!(w.constraints + s.inputs.len(), s.num_constraints());
    let rec = Recorder::new();
    let rs = [(Fr::random(&mut rng), Fr::random(&mut rng))];
    let proofs = phaseline_prover::cpu::prove::prove(&params, std::slice::from_ref(&s), &rs, &rec).unwrap();
    // The public inputs come from a native computation, not from our synthesis.
    let y = chain_native(x, k, rounds);
    let inputs: Vec<Fr> = multipack::compute_multipacking(&y.to_le_bits().into_iter().take(255).collect::<Vec<bool>>());
    assert_eq!(inputs, s.inputs[1..]);
    let pvk = prepare_verifying_key(&params.vk);
    assert!(verify_proof(&pvk, &proofs[0], &inputs).unwrap());
    let mut bad = inputs.clone();
    bad[0] += Fr::ONE;
    assert!(!verify_proof(&pvk, &proofs[0], &bad).unwrap());
}
