//! The real workload end to end on the CPU backend: `phaseline-prover c1`
//! makes a 2 KiB C1 output, `prove --c1` proves its partition; the exit code
//! and the record say that our verifier and filecoin-proofs' seal
//! verification both passed, on the batch path and pipelined. Bad inputs
//! exit non-zero with a reason.
//!
//! The real 2 KiB parameters (our setup from the recorded blank-circuit
//! shape, 1.1 GB) are cached under the cargo target's test directory, so
//! only the first run pays for the setup.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn runner() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_phaseline-prover"))
}

fn run(args: &[&str], extra: &[&Path]) -> Output {
    let mut c = Command::new(runner());
    c.args(args);
    for p in extra {
        c.arg(p);
    }
    c.output().expect("the runner starts")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn c1_then_prove_on_cpu_passes_both_verifications() {
    let dir = tempfile::tempdir().unwrap();
    let c1 = dir.path().join("c1.json");
    let o = run(&["c1", "--sector-size", "2KiB", "--seed", "4", "--out"], &[&c1]);
    assert!(o.status.success(), "c1 failed: {}", stderr(&o));
    let parsed: Value = serde_json::from_slice(&std::fs::read(&c1).unwrap()).expect("C1 JSON");
    assert!(parsed.get("vanilla_proofs").is_some() && parsed.get("comm_r").is_some());

    let params = Path::new(env!("CARGO_TARGET_TMPDIR")).join("real-params");
    let rec = dir.path().join("rec.jsonl");
    let o = run(
        &["prove", "--backend", "cpu", "--c1"],
        &[&c1, Path::new("--params-dir"), &params, Path::new("--json"), &rec],
    );
    assert!(o.status.success(), "prove --c1 failed: {}", stderr(&o));
    let text = std::fs::read_to_string(&rec).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "one repetition, one record");
    let r: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(r["verified"], Value::Bool(true));
    let phases: Vec<&str> = r["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for want in ["synthesis", "msm_h", "msm_b_g2", "verify", "verify_filecoin"] {
        assert!(phases.contains(&want), "phase {want} missing from {phases:?}");
    }
    let c = &r["circuit"];
    assert_eq!(c["name"], "porep-real:2KiB");
    assert_eq!(c["partitions"], 1);
    assert!(c["constraints"].as_u64().unwrap() > 2_000_000, "{c}");
    let (aux, other) = (c["aux"].as_u64().unwrap(), c["aux_other"].as_u64().unwrap());
    assert!(other * 100 > aux, "aux values neither 0 nor 1: {other} of {aux}");

    // Pipelined (`--mem-budget`), the same checks: both verifications pass.
    let rec = dir.path().join("rec-pipelined.jsonl");
    let o = run(
        &["prove", "--backend", "cpu", "--mem-budget", "64GiB", "--c1"],
        &[&c1, Path::new("--params-dir"), &params, Path::new("--json"), &rec],
    );
    assert!(o.status.success(), "pipelined prove --c1 failed: {}", stderr(&o));
    let r: Value = serde_json::from_str(std::fs::read_to_string(&rec).unwrap().trim()).unwrap();
    assert_eq!(r["verified"], Value::Bool(true));
    assert_eq!(r["pipeline_depth"], 1, "one partition in a 2 KiB sector");
    assert!(r["partition_bytes"].as_u64().unwrap() > 0);
    let names: Vec<&str> = r["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"verify_filecoin"), "{names:?}");
}

#[test]
fn bad_inputs_exit_non_zero_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c1.json");
    let o = run(&["c1", "--sector-size", "32GiB", "--out"], &[&out]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("unsupported sector size"), "{}", stderr(&o));
    assert!(!out.exists(), "nothing written for a refused size");

    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, br#"{"SectorNum": 1, "Phase1Out": "e30=", "SectorSize": 2048}"#).unwrap();
    let o = run(&["prove", "--params-dir"], &[dir.path(), Path::new("--c1"), &bad]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("Phase1Out is not a C1 output"), "{}", stderr(&o));

    let o = run(
        &["prove", "--circuit", "porep-real:3KiB", "--params-dir"],
        &[dir.path()],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("unsupported sector size"), "{}", stderr(&o));
}
