//! The binary's behaviour on bad input and without a GPU (clear error, exit
//! status 2, nothing half-written), and, on a GPU host, whole runs.

mod common;

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_phaseline-anchor-supraseal");

fn prove(args: &[&str]) -> Output {
    Command::new(BIN).arg("prove").args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn gpu_present() -> bool {
    Path::new("/dev/nvidiactl").exists()
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let o = prove(&["--circuit", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown preset `nope`"), "{}", stderr(&o));

    let o = prove(&["--circuit", "tiny", "--reps", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("at least 1"), "{}", stderr(&o));

    let dir = tempfile::tempdir().unwrap();
    let o = prove(&["--circuit", "tiny", "--params-dir", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("phaseline-prover setup"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

#[test]
fn without_a_gpu_the_error_says_so() {
    if gpu_present() {
        eprintln!("not run: this test covers hosts without a GPU, and one is present");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    common::make_params("tiny", dir.path());
    let json = dir.path().join("out.jsonl");
    std::fs::write(&json, "earlier records\n").unwrap();
    let o = prove(&[
        "--circuit",
        "tiny",
        "--params-dir",
        dir.path().to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no usable CUDA GPU"), "{}", stderr(&o));
    // Nothing was proved, so the earlier file is left as it was.
    assert_eq!(std::fs::read_to_string(&json).unwrap(), "earlier records\n");
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn gpu_runs_write_verified_records() {
    let dir = tempfile::tempdir().unwrap();
    common::make_params("tiny", dir.path());
    let json = dir.path().join("out.jsonl");
    let d = dir.path().to_str().unwrap();
    let o = prove(&[
        "--circuit",
        "tiny",
        "--partitions",
        "3",
        "--warmup",
        "1",
        "--reps",
        "2",
        "--params-dir",
        d,
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&json).unwrap();
    let recs: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(recs.len(), 3);
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r["backend"], "supraseal");
        assert_eq!(r["verified"], true);
        assert_eq!(r["cold"], i == 0);
        assert_eq!(r["warmup"], i == 0);
        assert_eq!(r["circuit"]["partitions"], 3);
        let names: Vec<&str> = r["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["synthesis", "supraseal_prove", "verify"]);
    }
}
