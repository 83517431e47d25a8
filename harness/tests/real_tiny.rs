//! One real end-to-end run: the harness builds two variants of the prover in
//! this workspace (shared target directory, fingerprint cache) and proves the
//! `tiny` preset twice with each, interleaved.

mod common;

use common::run_shipped;

#[test]
fn tiny_preset_two_variants_end_to_end() {
    let out = tempfile::tempdir().expect("temp dir");
    let dir = out.path().join("run");
    let o = run_shipped(&[
        &"run",
        &"--suite",
        &"e2e",
        &"--circuit",
        &"tiny",
        &"--reps",
        &"2",
        &"--warmup",
        &"0",
        &"--variant",
        &"baseline=",
        &"--variant",
        &"A1=smallvec",
        &"--progress",
        &"lines",
        &"--out",
        &dir,
    ]);
    assert_eq!(o.code, 0, "{}", o.all());
    let run = phaseline::rundir::load_run(&dir).expect("a valid run directory");
    assert_eq!(run.samples.len(), 4);
    // Interleaved, the order turned round on every other repetition: baseline, A1, A1, baseline.
    let order: Vec<&str> = run.samples.iter().map(|s| s.variant.as_str()).collect();
    assert_eq!(order, ["baseline", "A1", "A1", "baseline"]);
    for s in &run.samples {
        assert!(s.ok, "{:?}", s.error);
        assert_eq!(s.verified, Some(true), "every proof is verified");
        for p in ["synthesis", "msm_h", "msm_b_g2", "verify", "total"] {
            assert!(
                s.phases.get(p).is_some_and(|ms| *ms > 0.0),
                "phase {p} in {:?}",
                s.phases
            );
        }
    }
    // Every sample names the parameter file it proved with; both variants used the same one.
    let hashes: Vec<&str> = run
        .samples
        .iter()
        .map(|s| s.params.as_ref().map(|p| p.sha256.as_str()).unwrap_or("none"))
        .collect();
    assert!(hashes.iter().all(|h| h.len() == 64 && *h == hashes[0]), "{hashes:?}");
    let fps: Vec<&str> = run.variants.iter().map(|v| v.fingerprint.as_str()).collect();
    assert_ne!(fps[0], fps[1], "each feature set is its own build");
    // SmallVec keeps short linear combinations inline: far fewer heap allocations.
    let allocs = |v: &str| {
        run.samples
            .iter()
            .find(|s| s.variant == v)
            .and_then(|s| s.counters.get("allocations").copied())
    };
    let (b, a1) = (allocs("baseline").expect("counted"), allocs("A1").expect("counted"));
    assert!(a1 < b, "A1 allocations {a1} vs baseline {b}");
    for f in ["run.json", "samples.csv", "summary.csv"] {
        assert!(dir.join(f).is_file(), "{f}");
    }
}
