//! A 2 KiB C1 output made here: both file formats read back to the same
//! seal, bad files are refused with a reason, the partition circuit on our
//! constraint system is satisfied with filecoin-proofs' public inputs, the
//! blank circuit has the same shape, and filecoin-proofs' verification of
//! proofs that are not the seal's is an error.

use base64::Engine as _;
use bellperson::groth16::{Proof, VerifyingKey};
use blstrs::Scalar as Fr;
use blstrs::{Bls12, G1Affine, G1Projective, G2Affine, G2Projective};
use ff::Field;
use group::{Curve, Group};
use phaseline_circuits::cs::{Circuit, Cs, CsError, Lc, Var};
use phaseline_real::input::parse_c1;
use phaseline_real::{blank_circuit, partition_circuits, RealError, Sector};

fn c1_json(seed: u64) -> Vec<u8> {
    let out = phaseline_real::c1::seal_c1(Sector::S2KiB, seed).expect("seal 2KiB");
    serde_json::to_vec(&out).unwrap()
}

#[test]
fn both_formats_read_and_bad_files_are_refused() {
    let json = c1_json(7);
    let plain = parse_c1(&json).expect("filecoin-proofs JSON");
    assert_eq!(plain.sector, Sector::S2KiB);

    let b64 = base64::engine::general_purpose::STANDARD.encode(&json);
    let lotus = serde_json::json!({"SectorNum": 9, "Phase1Out": b64, "SectorSize": 2048});
    let l = parse_c1(lotus.to_string().as_bytes()).expect("lotus C2 input");
    assert_eq!(l.sector, Sector::S2KiB);
    assert_eq!(l.output.comm_r, plain.output.comm_r);
    assert_eq!(l.output.seed, plain.output.seed);

    let wrong = serde_json::json!({"SectorNum": 9, "Phase1Out": b64, "SectorSize": 8388608});
    let e = parse_c1(wrong.to_string().as_bytes())
        .err()
        .expect("size mismatch refused");
    assert!(e.contains("SectorSize 8388608"), "{e}");
    let e = parse_c1(b"{\"SectorNum\":1,\"Phase1Out\":\"@@\",\"SectorSize\":2048}")
        .err()
        .unwrap();
    assert!(e.contains("base64"), "{e}");
    assert!(parse_c1(b"not json").err().unwrap().contains("not JSON"));
    assert!(parse_c1(b"{\"a\":1}").err().unwrap().contains("not a C1 output"));

    // The same seed seals the same sector.
    assert_eq!(parse_c1(&c1_json(7)).unwrap().output.comm_r, plain.output.comm_r);
}

#[test]
fn partition_circuit_is_satisfied_with_filecoin_inputs_and_matches_the_blank_shape() {
    let c1 = parse_c1(&c1_json(11)).unwrap();
    let circuits = partition_circuits(&c1).expect("circuits");
    assert_eq!(circuits.len(), 1);
    let mut cs = Check::default();
    circuits[0].synthesize(&mut cs).expect("synthesis");
    assert!(cs.constraints > 1_000_000, "{} constraints", cs.constraints);
    assert_eq!(cs.first_failure, None, "a constraint is not satisfied");
    assert_eq!(cs.inputs, circuits[0].public_inputs());
    let other = cs.aux.iter().filter(|v| **v != Fr::ZERO && **v != Fr::ONE).count();
    assert!(other > 10_000, "only {other} aux values neither 0 nor 1");

    let mut blank = Count::default();
    blank_circuit(Sector::S2KiB)
        .unwrap()
        .synthesize(&mut blank)
        .expect("blank synthesis");
    assert_eq!(blank.constraints, cs.constraints);
    assert_eq!(blank.aux, cs.aux.len());
    assert_eq!(blank.inputs, cs.inputs.len());
}

/// Keeps values and checks every constraint as it is enforced.
#[derive(Default)]
struct Check {
    inputs: Vec<Fr>,
    aux: Vec<Fr>,
    constraints: usize,
    first_failure: Option<usize>,
}

impl Check {
    fn eval(&self, lc: &Lc) -> Fr {
        lc.terms.iter().fold(Fr::ZERO, |acc, (v, c)| {
            let x = match v {
                Var::Input(0) => Fr::ONE,
                Var::Input(i) => self.inputs[*i as usize - 1],
                Var::Aux(i) => self.aux[*i as usize],
            };
            acc + x * c
        })
    }
}

impl Cs for Check {
    fn alloc(&mut self, v: Option<Fr>) -> Result<Var, CsError> {
        self.aux.push(v.ok_or(CsError::MissingValue)?);
        Ok(Var::Aux(self.aux.len() as u32 - 1))
    }
    fn alloc_input(&mut self, v: Option<Fr>) -> Result<Var, CsError> {
        self.inputs.push(v.ok_or(CsError::MissingValue)?);
        Ok(Var::Input(self.inputs.len() as u32))
    }
    fn enforce(&mut self, a: Lc, b: Lc, c: Lc) {
        if self.first_failure.is_none() && self.eval(&a) * self.eval(&b) != self.eval(&c) {
            self.first_failure = Some(self.constraints);
        }
        self.constraints += 1;
    }
}

/// Counts a shape without values, as a shape recorder sees it.
#[derive(Default)]
struct Count {
    aux: usize,
    inputs: usize,
    constraints: usize,
}

impl Cs for Count {
    fn alloc(&mut self, v: Option<Fr>) -> Result<Var, CsError> {
        assert!(v.is_none(), "a blank circuit has no values");
        self.aux += 1;
        Ok(Var::Aux(self.aux as u32 - 1))
    }
    fn alloc_input(&mut self, _: Option<Fr>) -> Result<Var, CsError> {
        self.inputs += 1;
        Ok(Var::Input(self.inputs as u32))
    }
    fn enforce(&mut self, _: Lc, _: Lc, _: Lc) {
        self.constraints += 1;
    }
    fn wants_values(&self) -> bool {
        false
    }
}

#[test]
fn filecoin_verification_rejects_proofs_that_are_not_the_seals() {
    let c1 = parse_c1(&c1_json(5)).unwrap();
    let n_inputs = partition_circuits(&c1).unwrap()[0].public_inputs().len();
    let g1 = |k: u64| (G1Projective::generator() * blstrs::Scalar::from(k)).to_affine();
    let g2 = |k: u64| (G2Projective::generator() * blstrs::Scalar::from(k)).to_affine();
    let vk = VerifyingKey::<Bls12> {
        alpha_g1: g1(2),
        beta_g1: g1(3),
        beta_g2: g2(3),
        gamma_g2: g2(5),
        delta_g1: g1(7),
        delta_g2: g2(7),
        ic: (0..=n_inputs as u64).map(|k| g1(k + 11)).collect::<Vec<G1Affine>>(),
    };
    let proof = Proof::<Bls12> {
        a: g1(13),
        b: g2(17) as G2Affine,
        c: g1(19),
    };
    let e = phaseline_real::verify::verify_seal_proofs(&c1, &vk, &[proof]).expect_err("must be rejected");
    assert!(matches!(e, RealError::FilecoinVerifyFailed), "{e}");
}
