//! `scripts/h200-setup.sh` measures setup through `phaseline run --suite
//! gpu-setup` + `phaseline report`: run here from a fake bundle whose runner is
//! a copy of the mock (speaking the protocol with the `cuda` backend), the
//! harness being this build's.

mod common;
use common::*;
use std::path::Path;

#[test]
fn h200_setup_measures_the_gpu_setup_suite_through_the_harness() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let b = tmp.path().join("bundle");
    std::fs::create_dir_all(&b).expect("bundle");
    std::fs::copy(repo_root().join("phaseline.toml"), b.join("phaseline.toml")).expect("config");
    std::fs::copy(PHASELINE, b.join("phaseline")).expect("harness");
    mock_runner_at(
        &b.join("phaseline-prover"),
        r#"{"backends": ["cuda", "cpu", "bellperson"], "features": ["cuda"]}"#,
    );
    let out = tmp.path().join("out");
    let (code, log) = bash(
        &repo_root().join("scripts/h200-setup.sh"),
        &[&b, &out, Path::new("measure"), Path::new("540")],
        &[],
    );
    let items = std::fs::read_to_string(out.join("items.jsonl")).unwrap_or_default();
    assert_eq!(code, 0, "{log}\n{items}");
    let setup = run_of(&out.join("runs/gpu-setup"));
    assert_eq!(setup.cases.len(), 3, "medium, large, xl");
    // 3 cases x (1 warm-up + 5 setups), each its own process.
    assert_eq!(setup.samples.len(), 18);
    assert!(setup
        .samples
        .iter()
        .all(|s| s.ok && s.phases.contains_key("fixed_base_g1")));
    let vs = run_of(&out.join("runs/gpu-cpu-large"));
    assert_eq!(vs.variant_names(), ["ours", "ours-cpu"]);
    let bp = run_of(&out.join("runs/gpu-bellperson-medium"));
    assert!(bp
        .samples
        .iter()
        .any(|s| s.variant == "bellperson-generator" && s.phases.contains_key("bellperson_generate")));
    for r in ["gpu-setup", "gpu-cpu-large", "gpu-bellperson-medium"] {
        let md = std::fs::read_to_string(out.join(format!("reports/{r}/summary.md"))).expect("summary.md");
        assert!(md.contains("fixed\\_base\\_g1") && md.contains("| write |"), "{md}");
    }
    // The xl proof with the parameters just made is a record of its own.
    assert!(items.contains("\"item\":\"prove-xl-cuda\",\"rc\":0"), "{items}");
}
