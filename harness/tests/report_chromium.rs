//! The HTML report opens in headless Chromium with no console messages and all
//! its charts in the rendered page (scripts/check-report.sh). It needs
//! Debian's `chromium`, so it is ignored by default (reported as ignored, never
//! as passed); `.ci/run` installs chromium and runs it with `--include-ignored`.

use phaseline::compare::{compare_variants, CompareOptions};
use phaseline::report::Report;
use phaseline::testkit::synthetic::SyntheticRun;
use std::path::Path;
use std::process::Command;

fn chromium_present() -> bool {
    ["chromium", "chromium-browser"].iter().any(|b| {
        Command::new("sh")
            .args(["-c", &format!("command -v {b}")])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    })
}

#[test]
#[ignore = "needs Debian's chromium: run with --include-ignored"]
fn report_renders_in_headless_chromium() {
    assert!(
        chromium_present(),
        "chromium is not installed (Debian package `chromium`); this test cannot check anything without it"
    );
    let run = SyntheticRun::new("chromium-check", 11)
        .variant("baseline", &[])
        .variant("A1", &["smallvec"])
        .phase("synthesis", 400.0, 0.02)
        .phase("msm_h", 90.0, 0.02)
        .effect("A1", "synthesis", 1.1)
        .reps(8)
        .fail("A1", 7)
        .build();
    let cmp = compare_variants(&run, "baseline", "A1", &CompareOptions::default()).expect("compare");
    let report = Report::build(run, None, vec![cmp]).expect("report");
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in report.files().expect("files") {
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/check-report.sh");
    let shot = dir.path().join("shot.png");
    let out = Command::new("bash")
        .arg(&script)
        .arg(dir.path().join("report.html"))
        .arg(&shot)
        .arg("1000x2400")
        .output()
        .expect("run check-report.sh");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "check-report.sh failed:\n{text}");
    assert!(text.contains("no console messages"), "{text}");
    let img = image::open(&shot).expect("screenshot decodes");
    assert_eq!((img.width(), img.height()), (1000, 2400));
}
