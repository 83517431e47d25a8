//! The parameter-file checks against files made by bellperson's own generator.

use bellpepper_core::{ConstraintSystem, SynthesisError};
use bellperson::groth16::{generate_random_parameters, Parameters};
use blstrs::{Bls12, Scalar as Fr};
use phaseline_anchor_supraseal::params::{check, locate, read_header};
use phaseline_anchor_supraseal::workload::Workload;
use phaseline_anchor_supraseal::AnchorError;
use phaseline_circuits::circuits::preset;
use phaseline_circuits::cs::bridge::AsBellpepper;
use phaseline_circuits::cs::Circuit;
use rand_core::SeedableRng;
use std::path::Path;

fn write(p: &Parameters<Bls12>, path: &Path) {
    let mut f = std::fs::File::create(path).unwrap();
    p.write(&mut f).unwrap();
}

/// x * x = y with y public: another shape than any preset.
struct Square;

impl bellpepper_core::Circuit<Fr> for Square {
    fn synthesize<CS: ConstraintSystem<Fr>>(self, cs: &mut CS) -> Result<(), SynthesisError> {
        let x = cs.alloc(|| "x", || Ok(Fr::from(3u64)))?;
        let y = cs.alloc_input(|| "y", || Ok(Fr::from(9u64)))?;
        cs.enforce(|| "sq", |lc| lc + x, |lc| lc + x, |lc| lc + y);
        Ok(())
    }
}

#[test]
fn header_of_generated_params_fits_the_shape_and_mismatches_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let c = preset("tiny", 7).unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    let p = generate_random_parameters::<Bls12, _, _>(AsBellpepper(&c), &mut rng).unwrap();
    let path = locate(None, Some(dir.path()), &c.shape_id());
    assert_eq!(path, dir.path().join(format!("{}.params", c.shape_id())));
    write(&p, &path);

    let (vk, sizes) = read_header(&path).unwrap();
    assert_eq!(vk, p.vk);
    let (id, shape) = Workload::new("tiny", 1, 7, dir.path()).unwrap().first_shape().unwrap();
    assert_eq!(id, c.shape_id());
    let want = shape.expected_sizes();
    assert_eq!(sizes, want);
    assert_eq!((sizes.l, sizes.h, sizes.b_g2), (p.l.len(), p.h.len(), p.b_g2.len()));
    check(&path, &sizes, &want).unwrap();

    // A parameter file of another circuit is refused by name of the section.
    let other = dir.path().join("other.params");
    write(
        &generate_random_parameters::<Bls12, _, _>(Square, &mut rng).unwrap(),
        &other,
    );
    let (_, s2) = read_header(&other).unwrap();
    let e = check(&other, &s2, &want).unwrap_err().to_string();
    assert!(e.contains("made for another circuit"), "{e}");

    // A truncated file is refused before supraseal-c2 ever sees it.
    let bytes = std::fs::read(&path).unwrap();
    let cut = dir.path().join("cut.params");
    std::fs::write(&cut, &bytes[..bytes.len() - 10]).unwrap();
    let e = read_header(&cut).unwrap_err().to_string();
    assert!(e.contains("truncated"), "{e}");

    // A missing file says how to make one.
    let e = read_header(&dir.path().join("none.params")).unwrap_err();
    assert!(matches!(e, AnchorError::Params { .. }));
    assert!(e.to_string().contains("phaseline-prover setup"), "{e}");
}
