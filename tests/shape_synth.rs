//! Synthesis from the recorded shape (`shape-synth`, E1): the witness-only
//! synthesis plus A, B, C as sparse matrix-vector products over the shape
//! equals our engine's synthesis exactly (inputs, aux, a, b, c, densities)
//! on fresh random witnesses; a cached shape that is not the circuit's is
//! refused with a typed error; proofs made from it verify.

use blstrs::Scalar as Fr;
use ff::Field;
use phaseline_prover::circuits::presets::preset;
use phaseline_prover::cs::Circuit;
use phaseline_prover::groth16::verify::verify_all;
use phaseline_prover::phases::Recorder;
use phaseline_prover::run::{synth_all, SynthPath};
use phaseline_prover::setup::runner::shape_path;
use phaseline_prover::setup::{setup_cpu, Toxic};
use phaseline_prover::shape::{read_shape, record_shape, write_shape, Shape, COEFF_MINUS_ONE};
use phaseline_prover::synth::{synthesize, synthesize_from_shape, witness, ShapeSynth, ShapeSynthError};
use phaseline_prover::ProverError;
use rand_core::{OsRng, RngCore};

fn fresh_seeds(n: usize) -> Vec<u64> {
    (0..n).map(|_| OsRng.next_u64()).collect()
}

fn equal_to_engine(name: &str, seeds: usize) {
    let shape = ShapeSynth::new(record_shape(&preset(name, 1).unwrap()).unwrap());
    for seed in fresh_seeds(seeds) {
        let c = preset(name, seed).unwrap();
        let want = synthesize(&c, None).unwrap();
        let w = witness(&c, None).unwrap();
        assert_eq!(
            w.constraints, shape.shape.num_constraints,
            "{name} seed {seed}: constraints"
        );
        let got = synthesize_from_shape(&c, &shape, None).unwrap();
        // Field by field first, for a readable failure.
        assert_eq!(got.inputs, want.inputs, "{name} seed {seed}: inputs");
        assert_eq!(got.aux, want.aux, "{name} seed {seed}: aux");
        for (m, g, e) in [("a", &got.a, &want.a), ("b", &got.b, &want.b), ("c", &got.c, &want.c)] {
            assert_eq!(g.len(), e.len(), "{name} seed {seed}: rows of {m}");
            if let Some(r) = (0..g.len()).find(|&r| g[r] != e[r]) {
                panic!("{name} seed {seed}: {m}[{r}] differs");
            }
        }
        assert_eq!(got.a_aux_density, want.a_aux_density, "{name} seed {seed}");
        assert_eq!(got.b_input_density, want.b_input_density, "{name} seed {seed}");
        assert_eq!(got.b_aux_density, want.b_aux_density, "{name} seed {seed}");
        assert_eq!(got, want, "{name} seed {seed}");
    }
}

#[test]
fn tiny_equals_the_engine() {
    equal_to_engine("tiny", 4);
}

#[test]
fn small_equals_the_engine() {
    equal_to_engine("small", 2);
}

#[test]
fn tiny_mix_equals_the_engine() {
    // Squares and chains: aux values neither 0 nor 1, coefficients other than +-1.
    equal_to_engine("tiny-mix3", 4);
    equal_to_engine("small-mix3", 1);
}

/// The runner's path: the shape from the cache setup uses (recorded there
/// when missing, loaded after), several partitions, sub-phases under `synthesis`.
#[test]
fn runner_path_uses_the_setup_cache_and_records_sub_phases() {
    let dir = tempfile::tempdir().unwrap();
    let name = "tiny-mix3";
    let cs: Vec<_> = fresh_seeds(3).into_iter().map(|s| preset(name, s).unwrap()).collect();
    let file = shape_path(dir.path(), &cs[0].shape_id());
    assert!(!file.exists());
    let path = SynthPath::from_cache(dir.path(), &cs[0]).unwrap();
    assert!(file.exists(), "recorded into the cache when missing");
    let cached = read_shape(&file).unwrap();
    assert_eq!(cached, record_shape(&cs[0]).unwrap());
    // Loaded the second time: the same shape.
    let SynthPath::Shape(loaded) = SynthPath::from_cache(dir.path(), &cs[0]).unwrap() else {
        panic!("a shape path")
    };
    assert_eq!(loaded.shape, cached);

    let rec = Recorder::new();
    let (got, _) = synth_all(&cs, &rec, &path).unwrap();
    let (want, _) = synth_all(&cs, &Recorder::new(), &SynthPath::Engine).unwrap();
    assert_eq!(got, want);
    let phases = rec.into_phases();
    let find = |n: &str| {
        phases
            .iter()
            .find(|p| p.name == n)
            .unwrap_or_else(|| panic!("phase {n}"))
    };
    assert_eq!(find("synthesis").parent, None);
    for sub in ["witness", "abc_matvec"] {
        let p = find(sub);
        assert_eq!(p.parent.as_deref(), Some("synthesis"));
        assert!(p.ms <= find("synthesis").ms);
    }
}

/// Writes `s` relabelled as the shape of `id` into `dir`'s cache.
fn plant(dir: &std::path::Path, mut s: Shape, id: &str) {
    s.shape_id = id.into();
    s.hash = s.compute_hash();
    write_shape(&s, &shape_path(dir, id)).unwrap();
}

fn refused(dir: &std::path::Path, c: &impl Circuit) -> String {
    let path = SynthPath::from_cache(dir, c).unwrap();
    match synth_all(std::slice::from_ref(c), &Recorder::new(), &path) {
        Err(e @ ProverError::ShapeMismatch(_)) => e.to_string(),
        Err(e) => panic!("wrong error: {e:?}"),
        Ok(_) => panic!("a mismatched shape was accepted"),
    }
}

#[test]
fn a_shape_with_other_counts_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let c = preset("tiny", OsRng.next_u64()).unwrap();
    // `tiny-mix3`'s shape (more aux and constraints) under `tiny`'s name.
    plant(
        dir.path(),
        record_shape(&preset("tiny-mix3", 1).unwrap()).unwrap(),
        &c.shape_id(),
    );
    let e = refused(dir.path(), &c);
    assert!(e.contains("shape mismatch") && e.contains("aux"), "{e}");
}

#[test]
fn a_shape_with_other_matrices_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let c = preset("tiny", OsRng.next_u64()).unwrap();
    // Same counts, one coefficient changed: the last constraint (root = cur)
    // now says root = -cur.
    let mut s = record_shape(&c).unwrap();
    let r = s.num_constraints - 1;
    let k = s.c.row_ptr[r] as usize;
    assert_eq!(s.c.row_ptr[r + 1] as usize, k + 1, "one term");
    s.c.coeffs[k] = COEFF_MINUS_ONE;
    plant(dir.path(), s, &c.shape_id());
    let e = refused(dir.path(), &c);
    assert!(e.contains(&format!("row {r} is not satisfied")), "{e}");
}

#[test]
fn a_shape_of_another_circuit_is_refused_by_identifier() {
    let c = preset("tiny", 2).unwrap();
    let other = ShapeSynth::new(record_shape(&preset("tiny-mix3", 1).unwrap()).unwrap());
    match synthesize_from_shape(&c, &other, None) {
        Err(ShapeSynthError::Mismatch { reason, .. }) => assert!(reason.contains(&c.shape_id()), "{reason}"),
        other => panic!("expected a mismatch, got {other:?}"),
    }
    // A cache file that holds another identifier is refused on load.
    let dir = tempfile::tempdir().unwrap();
    write_shape(&other.shape, &shape_path(dir.path(), &c.shape_id())).unwrap();
    match SynthPath::from_cache(dir.path(), &c) {
        Err(ProverError::Setup(e)) => assert!(e.contains("expected"), "{e}"),
        other => panic!("expected a setup error, got {other:?}"),
    }
}

#[test]
fn proofs_from_the_shape_path_verify() {
    for name in ["tiny", "tiny-mix3"] {
        let shape = record_shape(&preset(name, 1).unwrap()).unwrap();
        let p = setup_cpu(&shape, &Toxic::random()).unwrap();
        let shape = ShapeSynth::new(shape);
        let cs: Vec<_> = fresh_seeds(2).into_iter().map(|s| preset(name, s).unwrap()).collect();
        let synths: Vec<_> = cs
            .iter()
            .map(|c| synthesize_from_shape(c, &shape, None).unwrap())
            .collect();
        let rs: Vec<(Fr, Fr)> = (0..cs.len())
            .map(|_| (Fr::random(&mut OsRng), Fr::random(&mut OsRng)))
            .collect();
        let proofs = phaseline_prover::cpu::prove::prove(&p, &synths, &rs, &Recorder::new()).unwrap();
        let inputs: Vec<Vec<Fr>> = cs.iter().map(|c| c.public_inputs()).collect();
        verify_all(&p.vk, &proofs, &inputs).unwrap();
        // And not for other inputs.
        let mut bad = inputs.clone();
        bad[0][0] += Fr::ONE;
        assert!(verify_all(&p.vk, &proofs, &bad).is_err(), "{name}");
    }
}

/// With the feature, the runner itself takes the shape path: `run_prove`
/// makes parameters and shape, proves and verifies; the binary refuses a
/// mismatched cached shape with an error and exit status 1, no panic.
#[cfg(feature = "shape-synth")]
mod with_feature {
    use super::*;
    use phaseline_prover::record::Backend;
    use phaseline_prover::run::{run_prove, run_synth, RunOpts};

    fn opts(dir: &std::path::Path, circuit: &str) -> RunOpts {
        RunOpts {
            partitions: 2,
            seed: OsRng.next_u64() >> 1,
            ..RunOpts::new(circuit, Backend::Cpu, dir)
        }
    }

    #[test]
    fn run_prove_takes_the_shape_path_and_verifies() {
        let dir = tempfile::tempdir().unwrap();
        let mut records = vec![];
        run_prove(&opts(dir.path(), "tiny"), &mut |r| {
            records.push(r);
            Ok(())
        })
        .unwrap();
        assert_eq!(records[0].verified, Some(true));
        let names: Vec<&str> = records[0].phases.iter().map(|p| p.name.as_str()).collect();
        for n in ["synthesis", "witness", "abc_matvec"] {
            assert!(names.contains(&n), "{n} in {names:?}");
        }
        let mut synth = vec![];
        run_synth(&opts(dir.path(), "tiny"), &mut |r| {
            synth.push(r);
            Ok(())
        })
        .unwrap();
        assert!(synth[0].phases.iter().any(|p| p.name == "abc_matvec"));
    }

    #[test]
    fn the_runner_refuses_a_mismatched_shape() {
        let dir = tempfile::tempdir().unwrap();
        let id = preset("tiny", 1).unwrap().shape_id();
        plant(dir.path(), record_shape(&preset("tiny-mix3", 1).unwrap()).unwrap(), &id);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_phaseline-prover"))
            .args(["synth", "--circuit", "tiny"])
            .env("PHASELINE_PARAMS_DIR", dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("shape mismatch") && !err.contains("panicked"), "{err}");
    }
}
