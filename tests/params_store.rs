//! `--params-store memory`: a prove run that has to make its parameters keeps
//! them (and the shape they were made from) in memory, writes nothing to the
//! parameter directory, and still proves and verifies; a file that is there is
//! read as usual.

use phaseline_prover::groth16::cache::{ParamsSource, ParamsStore};
use phaseline_prover::record::{Backend, Record};
use phaseline_prover::run::{params_for, run_prove, RunOpts};
use std::path::Path;
use std::process::Command;

fn opts(dir: &Path, store: ParamsStore) -> RunOpts {
    RunOpts {
        partitions: 2,
        reps: 2,
        seed: 3,
        params_store: store,
        ..RunOpts::new("tiny", Backend::Cpu, dir)
    }
}

fn prove(o: &RunOpts) -> Vec<Record> {
    let mut recs = Vec::new();
    run_prove(o, &mut |r| {
        recs.push(r);
        Ok(())
    })
    .unwrap();
    recs
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn parameters_made_in_memory_prove_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let recs = prove(&opts(dir.path(), ParamsStore::Memory));
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.verified, Some(true));
        r.check_phases().unwrap();
        let p = r.params.as_ref().expect("the record names its parameters");
        assert_eq!(p.source, ParamsSource::Memory);
        assert!(p.path.is_empty() && p.sha256.is_empty(), "{p:?}");
    }
    assert!(files_in(dir.path()).is_empty(), "written: {:?}", files_in(dir.path()));
}

#[test]
fn a_cached_file_is_read_in_memory_mode_and_nothing_is_added() {
    let dir = tempfile::tempdir().unwrap();
    let (_, made) = params_for(&opts(dir.path(), ParamsStore::Cache)).unwrap();
    assert_eq!(made.source, ParamsSource::Generated);
    let before = files_in(dir.path());
    assert!(before.iter().any(|f| f.ends_with(".params")), "{before:?}");
    let recs = prove(&opts(dir.path(), ParamsStore::Memory));
    for r in &recs {
        assert_eq!(r.verified, Some(true));
        let p = r.params.as_ref().unwrap();
        assert_eq!(p.source, ParamsSource::Loaded);
        assert_eq!(p.sha256, made.sha256);
    }
    assert_eq!(files_in(dir.path()), before);
}

fn runner(dir: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_phaseline-prover"))
        .args(["prove", "--backend", "cpu", "--circuit", "tiny", "--params-dir"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn the_runner_takes_memory_and_refuses_other_stores() {
    let dir = tempfile::tempdir().unwrap();
    let bad = runner(dir.path(), &["--params-store", "disk"]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("invalid value 'disk'") && err.contains("--params-store"),
        "{err}"
    );
    let ok = runner(dir.path(), &["--params-store", "memory"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let line = String::from_utf8_lossy(&ok.stdout);
    let r: Record = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    assert_eq!(r.verified, Some(true));
    assert_eq!(r.params.as_ref().unwrap().source, ParamsSource::Memory);
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn sizes_from_the_shape_equal_sizes_from_a_synthesis() {
    use phaseline_prover::cpu::ntt::Domain;
    use phaseline_prover::groth16::params::Expected;
    use phaseline_prover::run::expected_of_shape;
    for name in ["tiny", "small", "tiny-mix25"] {
        let c = phaseline_prover::circuits::presets::preset(name, 1).unwrap();
        let s = phaseline_prover::synth::synthesize(&c, None).unwrap();
        let d = Domain::for_len(s.num_constraints()).unwrap();
        let shape = phaseline_prover::shape::record_shape(&c).unwrap();
        assert_eq!(expected_of_shape(&shape).unwrap(), Expected::of(&s, d.n), "{name}");
    }
}
