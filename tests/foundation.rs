//! Foundation acceptance tests: correctness of proofs and rejection of bad input.

use bellperson::groth16::{create_random_proof, prepare_verifying_key, verify_proof};
use blstrs::Scalar as Fr;
use ff::Field;
use phaseline_prover::circuits::presets::preset;
use phaseline_prover::cpu::ntt::Domain;
use phaseline_prover::cs::bridge::AsBellpepper;
use phaseline_prover::cs::Circuit;
use phaseline_prover::groth16::params::{check, generate, read, write_atomic, Expected};
use phaseline_prover::phases::Recorder;
use phaseline_prover::record::Record;
use phaseline_prover::run::{run_prove, RunOpts};
use phaseline_prover::synth::synthesize;

fn prove_tiny(
    seed: u64,
) -> (
    phaseline_prover::groth16::Params,
    phaseline_prover::groth16::Proof,
    Vec<Fr>,
) {
    let c = preset("tiny", seed).unwrap();
    let s = synthesize(&c, None).unwrap();
    let p = generate(&c, 9).unwrap();
    let d = Domain::for_len(s.num_constraints()).unwrap();
    check(&p, &Expected::of(&s, d.n), "mem").unwrap();
    let rec = Recorder::new();
    let proof =
        phaseline_prover::cpu::prove::prove(&p, std::slice::from_ref(&s), &[(Fr::ONE + Fr::ONE, Fr::ONE)], &rec)
            .unwrap();
    (p, proof[0].clone(), s.inputs[1..].to_vec())
}

#[test]
fn proof_verifies_and_tampered_input_fails() {
    let (p, proof, inputs) = prove_tiny(5);
    let pvk = prepare_verifying_key(&p.vk);
    assert!(verify_proof(&pvk, &proof, &inputs).unwrap());
    let mut bad = inputs.clone();
    bad[0] += Fr::ONE;
    assert!(!verify_proof(&pvk, &proof, &bad).unwrap());
    assert_eq!(inputs, preset("tiny", 5).unwrap().public_inputs());
}

#[test]
fn engine_matches_bellperson_counts_and_bellperson_proofs_verify() {
    let c = preset("tiny", 11).unwrap();
    let s = synthesize(&c, None).unwrap();
    // bellperson's setup over the bridged circuit must have exactly our sizes and densities
    let p = generate(&c, 3).unwrap();
    let d = Domain::for_len(s.num_constraints()).unwrap();
    check(&p, &Expected::of(&s, d.n), "mem").unwrap();
    let mut rng = <rand_chacha::ChaCha20Rng as rand_core::SeedableRng>::seed_from_u64(1);
    let bp = create_random_proof(AsBellpepper(&c), &p, &mut rng).unwrap();
    assert!(verify_proof(&prepare_verifying_key(&p.vk), &bp, &s.inputs[1..]).unwrap());
}

#[test]
fn corrupt_and_foreign_parameter_files_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let c = preset("tiny", 1).unwrap();
    let p = generate(&c, 4).unwrap();
    let path = dir.path().join("x.params");
    write_atomic(&p, &path).unwrap();
    let good = read(&path).unwrap();
    // foreign: parameters of tiny checked against small's sizes
    let small = preset("small", 1).unwrap();
    let ss = synthesize(&small, None).unwrap();
    let e = check(
        &good,
        &Expected::of(&ss, Domain::for_len(ss.num_constraints()).unwrap().n),
        "x",
    )
    .unwrap_err();
    assert!(e.to_string().contains("another circuit"), "{e}");
    // truncated
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let err = read(&path).err().expect("truncated file must be rejected");
    assert!(err.to_string().contains("corrupt or truncated"), "{err}");
    // flipped bytes inside a point
    let mut b2 = bytes.clone();
    for x in &mut b2[200..260] {
        *x ^= 0x5a;
    }
    std::fs::write(&path, &b2).unwrap();
    assert!(read(&path).is_err());
}

#[test]
fn runner_records_every_phase_and_missing_phase_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let o = RunOpts {
        partitions: 2,
        reps: 2,
        ..RunOpts::new("tiny", phaseline_prover::record::Backend::Cpu, dir.path())
    };
    let mut recs: Vec<Record> = Vec::new();
    run_prove(&o, &mut |r| {
        recs.push(r);
        Ok(())
    })
    .unwrap();
    assert_eq!(recs.len(), 2);
    assert!(recs
        .iter()
        .all(|r| r.verified == Some(true) && r.circuit.partitions == 2));
    let mut r = recs[0].clone();
    r.check_phases().unwrap();
    r.phases.retain(|p| p.name != "msm_l");
    assert_eq!(
        r.check_phases().unwrap_err().to_string(),
        "record is missing the required phase `msm_l`"
    );
    let unknown = RunOpts {
        circuit: "huge".into(),
        ..o
    };
    assert!(run_prove(&unknown, &mut |_| Ok(())).is_err());
}

/// Our A/B density bitmaps against bellperson's, variable by variable, on the
/// same circuit. bellperson's `ProvingAssignment` is private, so the bitmaps
/// are rebuilt from the constraints as bellpepper itself records them (its
/// `TestConstraintSystem`, run through the bridge: bellpepper's
/// `LinearCombination` merges repeated variables) with the rule bellperson's
/// prover applies in `lc::eval_with_trackers`: a variable is dense in A (aux
/// only; inputs are fully dense in A) or B when its merged coefficient is
/// nonzero. bellperson's generator filters its A and B queries independently
/// (by identity points), and `check` compares those lengths with our counts
/// in `engine_matches_bellperson_counts_and_bellperson_proofs_verify`.
#[test]
fn engine_densities_match_bellperson_per_variable() {
    use bellpepper_core::{test_cs::TestConstraintSystem, Circuit as _, Comparable, Index};
    for seed in [13, 14] {
        let c = preset("tiny", seed).unwrap();
        let s = synthesize(&c, None).unwrap();
        let mut cs = TestConstraintSystem::<Fr>::new();
        AsBellpepper(&c).synthesize(&mut cs).unwrap();
        assert!(cs.is_satisfied(), "{:?}", cs.which_is_unsatisfied());
        assert_eq!(cs.scalar_inputs(), s.inputs);
        assert_eq!(cs.scalar_aux(), s.aux);
        // we append one `input * 1 = 0` row per input, as bellperson's prover does
        assert_eq!(cs.num_constraints() + s.inputs.len(), s.num_constraints());
        let mut a_aux = vec![false; s.aux.len()];
        let mut b_aux = vec![false; s.aux.len()];
        let mut b_in = vec![false; s.inputs.len()];
        for (a, b, _, _) in cs.constraints() {
            for (v, _) in a.iter().filter(|(_, c)| !bool::from(c.is_zero())) {
                if let Index::Aux(i) = v.get_unchecked() {
                    a_aux[i] = true;
                }
            }
            for (v, _) in b.iter().filter(|(_, c)| !bool::from(c.is_zero())) {
                match v.get_unchecked() {
                    Index::Aux(i) => b_aux[i] = true,
                    Index::Input(i) => b_in[i] = true,
                }
            }
        }
        assert_eq!(a_aux, s.a_aux_density, "A aux density");
        assert_eq!(b_aux, s.b_aux_density, "B aux density");
        assert_eq!(b_in, s.b_input_density, "B input density");
        // the comparison means something only if some variables are left out
        let both = a_aux.iter().chain(&b_aux);
        assert!(
            both.clone().any(|d| !d) && both.clone().any(|d| *d),
            "A/B densities are trivial"
        );
    }
}
