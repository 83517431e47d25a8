//! The GPU variants built through the harness with the shipped config, as a
//! GPU runner's build job makes them: `phaseline build --variant gpu
//! --variant gpu-all` must build both and accept them (their `info --json`
//! fingerprint is the one the harness computes from the checkout, CUDA
//! architectures included). Needs nvcc (`CUDA_PATH`), not a GPU; ignored by
//! default, run by `.ci/run` with `--include-ignored` after it installs nvcc.

use std::path::Path;
use std::process::Command;

const PHASELINE: &str = env!("CARGO_BIN_EXE_phaseline");

#[test]
#[ignore = "needs nvcc (CUDA_PATH); .ci/run runs it with the pinned wheels"]
fn gpu_variants_build_and_are_accepted_with_the_shipped_config() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root");
    let o = Command::new(PHASELINE)
        .args(["build", "--variant", "gpu", "--variant", "gpu-all"])
        .current_dir(root)
        .output()
        .expect("run phaseline build");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "phaseline build failed:\n{stdout}\n{stderr}");
    for (name, features) in [
        ("gpu", "[cuda]"),
        ("gpu-all", "[cuda,par-bg2,pin,presize,shape-synth,smallvec,window-tune]"),
    ] {
        let line = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for `{name}`:\n{stdout}"));
        assert!(line.contains(features), "{line}");
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (fp, bin) = (fields[2], fields[4]);
        // The runner the harness accepted reports that fingerprint and sm_90.
        let info = Command::new(bin).args(["info", "--json"]).output().expect("info");
        let info: serde_json::Value = serde_json::from_slice(&info.stdout).expect("info JSON");
        assert_eq!(info["fingerprint"], fp, "{info}");
        assert_eq!(info["cuda_archs"], "sm_90", "{info}");
        assert!(bin.contains(fp), "cached under its fingerprint: {bin}");
    }
    // A second build finds both in the cache and calls no cargo.
    let o = Command::new(PHASELINE)
        .args(["build", "--variant", "gpu", "--variant", "gpu-all"])
        .current_dir(root)
        .output()
        .expect("run phaseline build");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}");
    assert_eq!(stdout.matches(" cached ").count(), 2, "{stdout}");
}
