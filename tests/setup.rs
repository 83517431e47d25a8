//! Setup from a recorded shape: identical to bellperson's generator given the
//! same toxic waste, proofs cross-verify, bad files are rejected.

use bellperson::groth16::{create_random_proof, generate_parameters, prepare_verifying_key, verify_proof};
use blstrs::{Bls12, Scalar as Fr};
use ff::Field;
use phaseline_prover::circuits::presets::preset;
use phaseline_prover::cpu::ntt::Domain;
use phaseline_prover::cs::bridge::AsBellpepper;
use phaseline_prover::cs::Circuit;
use phaseline_prover::groth16::params::{check, read, Expected};
use phaseline_prover::groth16::write;
use phaseline_prover::groth16::Params;
use phaseline_prover::phases::Recorder;
use phaseline_prover::setup::runner::{bellperson_params, run_setup, Generator, SetupOpts};
use phaseline_prover::setup::{setup_cpu, Toxic};
use phaseline_prover::shape::{read_shape, record_shape, write_shape};
use phaseline_prover::synth::synthesize;
use std::path::Path;

fn bytes(p: &Params) -> Vec<u8> {
    let mut v = vec![];
    p.write(&mut v).unwrap();
    v
}

fn ours_equal_bellperson(name: &str, toxic_seed: u64) {
    let c = preset(name, 1).unwrap();
    let shape = record_shape(&c).unwrap();
    let t = Toxic::seeded(toxic_seed);
    let ours = setup_cpu(&shape, &t).unwrap();
    let theirs =
        generate_parameters::<Bls12, _>(AsBellpepper(&c), t.g1, t.g2, t.alpha, t.beta, t.gamma, t.delta, t.tau)
            .unwrap();
    assert_eq!(ours.vk, theirs.vk, "{name}: verifying key");
    for (q, a, b) in [
        ("h", &ours.h, &theirs.h),
        ("l", &ours.l, &theirs.l),
        ("a", &ours.a, &theirs.a),
    ] {
        assert_eq!(a.len(), b.len(), "{name}: {q} length");
        assert!(a == b, "{name}: {q} differs");
    }
    assert!(
        ours.b_g1 == theirs.b_g1 && ours.b_g2 == theirs.b_g2,
        "{name}: B differs"
    );
    assert!(ours == theirs);
    // Our parallel writer lays out exactly bellperson's bytes.
    let mut mine = vec![];
    write::params_bytes(&mut mine, &ours).unwrap();
    assert_eq!(mine, bytes(&theirs), "{name}: file bytes");
}

#[test]
fn tiny_parameters_identical_to_bellperson() {
    ours_equal_bellperson("tiny", 7);
    // And the seeded toxic waste is drawn exactly as generate_random_parameters draws it.
    let c = preset("tiny", 1).unwrap();
    let ours = setup_cpu(&record_shape(&c).unwrap(), &Toxic::seeded(21)).unwrap();
    assert!(ours == bellperson_params(&c, Some(21)).unwrap());
}

#[test]
fn small_parameters_identical_to_bellperson() {
    ours_equal_bellperson("small", 8);
}

#[test]
fn proofs_cross_verify_with_our_parameters() {
    let c = preset("tiny", 5).unwrap();
    let p = setup_cpu(&record_shape(&c).unwrap(), &Toxic::random()).unwrap();
    let s = synthesize(&c, None).unwrap();
    check(
        &p,
        &Expected::of(&s, Domain::for_len(s.num_constraints()).unwrap().n),
        "mem",
    )
    .unwrap();
    let pvk = prepare_verifying_key(&p.vk);
    let inputs = c.public_inputs();
    // Our prover, bellperson's verifier.
    let rs = [(Fr::from(3u64), Fr::from(4u64))];
    let ours = phaseline_prover::cpu::prove::prove(&p, std::slice::from_ref(&s), &rs, &Recorder::new()).unwrap();
    assert!(verify_proof(&pvk, &ours[0], &inputs).unwrap());
    // bellperson's prover with our parameters.
    let mut rng = <rand_chacha::ChaCha20Rng as rand_core::SeedableRng>::seed_from_u64(2);
    let bp = create_random_proof(AsBellpepper(&c), &p, &mut rng).unwrap();
    assert!(verify_proof(&pvk, &bp, &inputs).unwrap());
    let mut bad = inputs.clone();
    bad[0] += Fr::ONE;
    assert!(!verify_proof(&pvk, &bp, &bad).unwrap());
}

#[test]
fn shape_matches_synthesis_and_round_trips() {
    let c = preset("tiny", 3).unwrap();
    let shape = record_shape(&c).unwrap();
    let s = synthesize(&c, None).unwrap();
    assert_eq!(shape.rows(), s.num_constraints());
    assert_eq!((shape.num_inputs, shape.num_aux), (s.inputs.len(), s.aux.len()));
    let d = shape.densities();
    assert_eq!(d.a_aux, s.a_aux_density);
    assert_eq!(d.b_aux, s.b_aux_density);
    assert_eq!(d.b_input, s.b_input_density);
    // A, B, C times the full assignment equal the engine's evaluations.
    let z: Vec<Fr> = s.inputs.iter().chain(&s.aux).copied().collect();
    for (m, want) in [(&shape.a, &s.a), (&shape.b, &s.b), (&shape.c, &s.c)] {
        for (r, w) in want.iter().enumerate() {
            let got: Fr = m
                .row(r)
                .map(|(col, k)| shape.coeff_table[k as usize] * z[col as usize])
                .sum();
            assert_eq!(got, *w, "row {r}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.shape");
    write_shape(&shape, &path).unwrap();
    assert_eq!(read_shape(&path).unwrap(), shape);
    assert_eq!(record_shape(&preset("tiny", 99).unwrap()).unwrap().hash, shape.hash);
}

fn shape_err(path: &Path) -> String {
    read_shape(path).err().map(|e| e.to_string()).unwrap_or_default()
}

#[test]
fn corrupt_or_truncated_shape_files_are_rejected() {
    let shape = record_shape(&preset("tiny", 1).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.shape");
    write_shape(&shape, &path).unwrap();
    let good = std::fs::read(&path).unwrap();
    let bad = dir.path().join("bad.shape");
    let mut flipped = good.clone();
    let at = good.len() - 100;
    flipped[at] ^= 0x01;
    std::fs::write(&bad, &flipped).unwrap();
    let e = shape_err(&bad);
    assert!(
        e.contains("hash mismatch") || e.contains("column") || e.contains("coefficient"),
        "{e}"
    );
    std::fs::write(&bad, &good[..good.len() - 4]).unwrap();
    assert!(shape_err(&bad).contains("truncated"), "{}", shape_err(&bad));
    std::fs::write(&bad, &good[..50]).unwrap();
    assert!(shape_err(&bad).contains("truncated"));
    let mut extra = good.clone();
    extra.extend([0u8; 8]);
    std::fs::write(&bad, &extra).unwrap();
    assert!(shape_err(&bad).contains("trailing"));
    let mut magic = good.clone();
    magic[0] = b'X';
    std::fs::write(&bad, &magic).unwrap();
    assert!(shape_err(&bad).contains("magic"));
    let mut ver = good.clone();
    ver[8] = 9;
    std::fs::write(&bad, &ver).unwrap();
    assert!(shape_err(&bad).contains("version"));
    // A column out of range is named even before the hash is checked.
    let mut col = good;
    let cols_a = 128 + shape.shape_id.len().div_ceil(8) * 8 + 32 * shape.coeff_table.len() + 4 * (shape.rows() + 1);
    col[cols_a..cols_a + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&bad, &col).unwrap();
    assert!(shape_err(&bad).contains("column"), "{}", shape_err(&bad));
}

#[test]
fn setup_command_writes_files_that_load_and_prove() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = SetupOpts {
        circuit: "tiny".into(),
        backend: "cpu".into(),
        generator: Generator::Phaseline,
        params_dir: dir.path().to_path_buf(),
        toxic_seed: Some(5),
    };
    let mut recs = vec![];
    run_setup(&o, &mut |r| {
        recs.push(r);
        Ok(())
    })
    .unwrap();
    // Second run loads the cached shape.
    run_setup(&o, &mut |r| {
        recs.push(r);
        Ok(())
    })
    .unwrap();
    let src = |i: usize| {
        let p = recs[i].phases.iter().find(|p| p.name == "record_shape").unwrap();
        p.extra["source"].as_str().unwrap().to_string()
    };
    assert_eq!((src(0).as_str(), src(1).as_str()), ("recorded", "loaded"));
    assert_eq!(recs[0].mode, phaseline_prover::record::Mode::Setup);
    let c = preset("tiny", 1).unwrap();
    let pfile = phaseline_prover::groth16::cache::cache_path(dir.path(), &c.shape_id());
    let loaded = read(&pfile).unwrap();
    assert!(loaded == bellperson_params(&c, Some(5)).unwrap());
    let vk = std::fs::read(phaseline_prover::setup::runner::vk_path(dir.path(), &c.shape_id())).unwrap();
    let vk = bellperson::groth16::VerifyingKey::<Bls12>::read(&vk[..]).unwrap();
    assert_eq!(vk, loaded.vk);
    // Truncated parameter file: clear error.
    let bytes = std::fs::read(&pfile).unwrap();
    std::fs::write(&pfile, &bytes[..bytes.len() - 10]).unwrap();
    let e = read(&pfile).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("corrupt or truncated"), "{e}");
    // The GPU backend is refused with a clear error, never a CPU fallback.
    if !cfg!(feature = "cuda") {
        o.backend = "cuda".into();
        let e = run_setup(&o, &mut |_| Ok(()))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("not built in this binary"), "{e}");
    }
    // A corrupt cached shape is an error naming the file, never silently re-recorded.
    o.backend = "cpu".into();
    let spath = phaseline_prover::setup::runner::shape_path(dir.path(), &c.shape_id());
    let mut sb = std::fs::read(&spath).unwrap();
    let at = sb.len() / 2;
    sb[at] ^= 0x40;
    std::fs::write(&spath, &sb).unwrap();
    let e = run_setup(&o, &mut |_| Ok(()))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("delete the cached shape") && e.contains(".shape"), "{e}");
}

#[test]
fn prove_path_makes_missing_parameters_with_our_setup() {
    let dir = tempfile::tempdir().unwrap();
    let o = phaseline_prover::run::RunOpts {
        seed: 4,
        ..phaseline_prover::run::RunOpts::new("tiny", phaseline_prover::record::Backend::Cpu, dir.path())
    };
    let mut verified = vec![];
    phaseline_prover::run::run_prove(&o, &mut |r| {
        verified.push(r.verified);
        Ok(())
    })
    .unwrap();
    assert_eq!(verified, [Some(true)]);
    let id = preset("tiny", 1).unwrap().shape_id();
    assert!(phaseline_prover::setup::runner::shape_path(dir.path(), &id).exists());
    assert!(phaseline_prover::groth16::cache::cache_path(dir.path(), &id).exists());
}

/// The harness's parameter step (`setup --if-missing`) keeps cached
/// parameters that pass their check, so a second run proves with the same
/// file; plain `setup` makes new ones (new toxic waste).
#[test]
fn setup_if_missing_keeps_valid_cached_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_phaseline-prover");
    let setup = |extra: &[&str]| {
        let o = std::process::Command::new(bin)
            .args(["setup", "--circuit", "tiny", "--params-dir"])
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let pfile = phaseline_prover::groth16::cache::cache_path(dir.path(), &preset("tiny", 1).unwrap().shape_id());
    setup(&["--if-missing"]);
    let first = std::fs::read(&pfile).unwrap();
    setup(&["--if-missing"]);
    assert!(
        std::fs::read(&pfile).unwrap() == first,
        "--if-missing rewrote valid parameters"
    );
    setup(&[]);
    let fresh = std::fs::read(&pfile).unwrap();
    assert!(fresh != first, "plain setup kept the old parameters");
    // A truncated cache is an error naming the file, not a silent reuse.
    std::fs::write(&pfile, &fresh[..fresh.len() / 2]).unwrap();
    let o = std::process::Command::new(bin)
        .args(["setup", "--circuit", "tiny", "--if-missing", "--params-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(".params"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn prove_records_the_parameter_file_it_proved_with() {
    use sha2::Digest;
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_phaseline-prover");
    let prove = |name: &str| -> serde_json::Value {
        let out = dir.path().join(name);
        let o = std::process::Command::new(bin)
            .args(["prove", "--circuit", "tiny", "--backend", "cpu", "--params-dir"])
            .arg(dir.path())
            .arg("--json")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_str(std::fs::read_to_string(&out).unwrap().lines().next().unwrap()).unwrap()
    };
    let pfile = phaseline_prover::groth16::cache::cache_path(dir.path(), &preset("tiny", 1).unwrap().shape_id());
    let sha = |p: &std::path::Path| hex::encode(sha2::Sha256::digest(std::fs::read(p).unwrap()));
    let made = prove("a.jsonl");
    assert_eq!(made["params"]["source"], "generated", "{made}");
    assert_eq!(made["params"]["sha256"], sha(&pfile).as_str());
    assert_eq!(made["params"]["path"], pfile.display().to_string().as_str());
    let loaded = prove("b.jsonl");
    assert_eq!(loaded["params"]["source"], "loaded", "{loaded}");
    assert_eq!(loaded["params"]["sha256"], made["params"]["sha256"]);
}
