//! `scripts/gpu-run-all.sh` (the GPU bundle's `run-all.sh`) measures through
//! `phaseline run` + `phaseline report`: run here from a fake bundle whose
//! runners are copies of the mock (speaking the protocol with the `cuda`
//! backend), the harness being this build's.

mod common;
use common::*;

#[test]
fn gpu_run_all_measures_the_bundle_through_the_harness() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let b = tmp.path().join("bundle");
    std::fs::create_dir_all(b.join("bin")).expect("bundle");
    std::fs::copy(repo_root().join("scripts/gpu-run-all.sh"), b.join("run-all.sh")).expect("script");
    std::fs::copy(repo_root().join("phaseline.toml"), b.join("phaseline.toml")).expect("config");
    std::fs::copy(PHASELINE, b.join("bin/phaseline")).expect("harness");
    for (v, feats) in [("off", r#"["cuda"]"#), ("pin", r#"["cuda","pin"]"#)] {
        let spec = format!(r#"{{"backends": ["cuda", "cpu"], "features": {feats}}}"#);
        mock_runner_at(&b.join(format!("bin/phaseline-prover-{v}")), &spec);
    }
    let out = tmp.path().join("results");
    let params = tmp.path().join("params");
    let (code, log) = bash(
        &b.join("run-all.sh"),
        &[&out],
        &[
            ("TESTS", "0"),
            ("CIRCUITS", "tiny"),
            ("PARTS", "1"),
            ("REPS", "2"),
            ("WARMUP", "0"),
            ("PARAMS_DIR", params.to_str().expect("utf-8")),
        ],
    );
    assert_eq!(code, 0, "{log}");
    let gpu = run_of(&out.join("runs/tiny-x1"));
    assert_eq!(gpu.variant_names(), ["cuda-off", "cuda-pin"]);
    assert_eq!(gpu.samples.len(), 4);
    assert!(gpu.samples.iter().all(|s| s.ok && s.case.backend.as_str() == "cuda"));
    assert!(
        gpu.samples.iter().any(|s| s.phases.contains_key("pin")),
        "pin's own phase"
    );
    let cpu = run_of(&out.join("runs/cpu-tiny-x1"));
    assert_eq!(cpu.variant_names(), ["cuda-off", "cpu-off"]);
    assert!(cpu.samples.iter().all(|s| s.ok));
    for r in ["tiny-x1", "cpu-tiny-x1"] {
        let md = std::fs::read_to_string(out.join(format!("reports/{r}/summary.md"))).expect("summary.md");
        assert!(md.contains("msm\\_l") && md.contains("prove part"), "{md}");
        assert!(out.join(format!("reports/{r}/report.html")).is_file());
    }
    assert!(std::fs::read_to_string(out.join("run.log"))
        .expect("log")
        .contains("done, failures: 0"));
}
