//! The `setup` suite with the real prover: the harness builds our runner in
//! this workspace (the same build as `real_tiny`'s baseline) and measures the
//! parameter setup of `tiny`, ours against bellperson's generator, then
//! renders the report.

mod common;

use common::run_shipped;

#[test]
fn tiny_setup_measured_and_reported() {
    let root = common::repo_root();
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("run");
    let o = run_shipped(&[
        &"run",
        &"--suite",
        &"setup",
        &"--circuit",
        &"tiny",
        &"--reps",
        &"2",
        &"--warmup",
        &"1",
        &"--variant",
        &"baseline=",
        &"--variant",
        &"bellperson",
        &"--progress",
        &"lines",
        &"--out",
        &dir,
    ]);
    assert_eq!(o.code, 0, "{}", o.all());
    let run = phaseline::rundir::load_run(&dir).expect("a valid run directory");
    assert_eq!(run.samples.len(), 6, "2 variants x (1 warm-up + 2 setups)");
    let fps: Vec<&str> = run.variants.iter().map(|v| v.fingerprint.as_str()).collect();
    assert_eq!(fps[0], fps[1], "bellperson's generator runs in the same build");
    for s in &run.samples {
        assert!(s.ok, "{}: {:?}", s.variant, s.error);
        let phases: &[&str] = if s.variant == "bellperson" {
            &["bellperson_generate", "write", "total"]
        } else {
            &[
                "record_shape",
                "qap_eval",
                "fixed_base_g1",
                "fixed_base_g2",
                "write",
                "total",
            ]
        };
        for p in phases {
            assert!(
                s.phases.get(*p).is_some_and(|ms| *ms > 0.0),
                "{}: phase {p} in {:?}",
                s.variant,
                s.phases
            );
        }
        assert!(s.phases.contains_key("normalize") || s.variant == "bellperson");
        assert_eq!(s.verified, None);
    }
    // The parameters the last setup wrote are where the config keeps them.
    let params = std::fs::read_dir(root.join("params"))
        .expect("params dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".params"))
        .count();
    assert!(params > 0);

    let rep = tmp.path().join("report");
    let o = run_shipped(&[&"report", &dir, &"--out", &rep]);
    assert_eq!(o.code, 0, "{}", o.all());
    let md = std::fs::read_to_string(rep.join("summary.md")).expect("summary.md");
    for p in ["fixed_base_g1", "qap_eval", "bellperson_generate"] {
        assert!(md.contains(&p.replace('_', "\\_")), "summary.md lacks {p}:\n{md}");
    }
    assert!(md.contains("| setup/tiny x1 cpu | end to end |"), "{md}");
    assert!(rep.join("report.html").is_file());
}
