//! Runner builds: cached by fingerprint, rebuilt after a source edit, and a
//! binary whose fingerprint does not match the checkout is refused. A fake
//! `cargo` installs the mock runner, so no real compilation happens.

mod common;
use common::{assert_error, run_args, Ws, MOCK};
use std::os::unix::fs::PermissionsExt;

/// A workspace whose `cargo` copies the mock runner into the target dir and logs each call.
fn ws_with_fake_cargo() -> Ws {
    // In the workspace (outside the fingerprint's source roots), so it goes with it.
    let ws = Ws::with_config(&common::config("cargo = \"./fake-cargo\"", 20.0));
    let script = ws.path("fake-cargo");
    let log = ws.path("cargo.log");
    let body = format!(
        "#!/bin/sh\n\
         set -e\n\
         echo \"$@\" >> {log:?}\n\
         while [ $# -gt 0 ]; do if [ \"$1\" = --target-dir ]; then T=\"$2\"; fi; shift; done\n\
         mkdir -p \"$T/release\"\n\
         cp {MOCK:?} \"$T/release/phaseline-prover\"\n",
        log = log.display().to_string(),
    );
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    ws
}

fn builds(ws: &Ws) -> usize {
    std::fs::read_to_string(ws.path("cargo.log"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

#[test]
fn cache_reuse_rebuild_after_edit_and_refusal() {
    let ws = ws_with_fake_cargo();
    // The mock reports the fingerprint the workspace's sources give.
    let honest = ws.spec(
        "honest.json",
        &format!(r#"{{"fingerprint_root": {:?}}}"#, ws.dir.path().display().to_string()),
    );
    let o = ws.run(&["build", "--variant", "baseline=", "--variant", "A1"], Some(&honest));
    assert_eq!(o.code, 0, "{}", o.all());
    assert_eq!(builds(&ws), 2);
    assert!(o.stdout.contains("built"));
    let log = std::fs::read_to_string(ws.path("cargo.log")).unwrap();
    assert!(log.contains("--features smallvec") && log.contains("--no-default-features"));

    let o = ws.run(&["build", "--variant", "baseline=", "--variant", "A1"], Some(&honest));
    assert_eq!(o.code, 0, "{}", o.all());
    assert_eq!(builds(&ws), 2, "cached runners must be reused");
    assert_eq!(o.stdout.matches("cached").count(), 2);

    // Editing a prover source without rebuilding: `run` rebuilds both variants.
    std::fs::write(ws.path("prover/lib.rs"), "pub fn f() { let _ = 1; }\n").unwrap();
    let o = ws.run(&run_args("synth", &["baseline=", "A1"], "1", "r", &[]), Some(&honest));
    assert_eq!(o.code, 0, "{}", o.all());
    assert_eq!(builds(&ws), 4, "a source edit must rebuild");

    // A runner whose fingerprint does not match the checkout is refused.
    let foreign = ws.spec("foreign.json", r#"{"fingerprint": "0123456789abcdef"}"#);
    std::fs::write(ws.path("prover/lib.rs"), "pub fn f() { let _ = 2; }\n").unwrap();
    let o = ws.run(&["build", "--variant", "A1"], Some(&foreign));
    assert_error(&o, &["0123456789abcdef", "stale or foreign"]);
    let o = ws.run(&run_args("synth", &["A1"], "1", "r2", &[]), Some(&foreign));
    assert_error(&o, &["stale or foreign"]);
    assert!(!ws.path("r2").exists());
}

#[test]
fn failing_build_is_reported_per_variant() {
    let ws = Ws::with_config(&common::config("cargo = \"/bin/false\"", 20.0));
    let o = ws.run(&["build", "--variant", "baseline=", "--variant", "A1"], None);
    assert_error(&o, &["variant `baseline`", "variant `A1`", "failed"]);
}
