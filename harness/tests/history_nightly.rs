//! The nightly and the history: each night is appended (`--history`), and a
//! regression the history can date is bisected over that step's commit range
//! (last commit before, first after) instead of baseline..tonight.

mod common;
use common::{git, Ws};

/// Waits for the next second: run ids carry their start second.
fn next_second() {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock");
    std::thread::sleep(std::time::Duration::from_nanos(
        1_000_000_000 - u64::from(now.subsec_nanos()),
    ));
}

fn spec(n: usize, slow: bool) -> String {
    let msm_l = if slow { 48.0 } else { 40.0 };
    format!(r#"{{"seed": {n}, "noise": 0.01, "phases": {{"msm_l": {msm_l}}}}}"#)
}

#[test]
fn a_regression_is_dated_and_bisected_over_its_step() {
    let ws = Ws::mock();
    git(ws.dir.path(), &["init", "-q"]);
    git(ws.dir.path(), &["add", "-A"]);
    git(ws.dir.path(), &["commit", "-q", "-m", "night 1"]);
    let nightly = |n: usize, slow: bool| {
        next_second();
        let s = ws.spec(&format!("n{n}.json"), &spec(n, slow));
        let out = format!("n{n}");
        ws.run(
            &[
                "nightly",
                "--suite",
                "e2e",
                "--variant",
                "baseline",
                "--reps",
                "8",
                "--budget",
                "20s",
                "--progress",
                "quiet",
                "--stored-reference",
                "--history",
                "h.sqlite",
                "--out",
                &out,
            ],
            Some(&s),
        )
    };
    // Night 1: the baseline, and the history's first night.
    let o = nightly(1, false);
    assert_eq!(o.code, 0, "{}", o.all());
    assert!(
        o.stdout.contains("history: run") && o.stdout.contains("appended"),
        "{}",
        o.stdout
    );
    // Nights 2..=11 measured by `run` and imported; msm_l +20% from night 7 on.
    let mut commits = vec![git(ws.dir.path(), &["rev-parse", "HEAD"])];
    for n in 2..=11 {
        git(
            ws.dir.path(),
            &["commit", "--allow-empty", "-q", "-m", &format!("night {n}")],
        );
        commits.push(git(ws.dir.path(), &["rev-parse", "HEAD"]));
        next_second();
        let s = ws.spec(&format!("n{n}.json"), &spec(n, n >= 7));
        let dir = format!("runs/n{n}");
        let o = ws.run(
            &common::run_args("e2e", &["baseline"], "5", &dir, &["--progress", "quiet"]),
            Some(&s),
        );
        assert_eq!(o.code, 0, "{}", o.all());
        let o = ws.run(&["history", "--db", "h.sqlite", "import", &dir], None);
        assert_eq!(o.code, 0, "{}", o.all());
    }
    // Night 12: still slow; the nightly regresses and the history dates it.
    git(ws.dir.path(), &["commit", "--allow-empty", "-q", "-m", "night 12"]);
    let o = nightly(12, true);
    assert_eq!(o.code, 1, "{}", o.all());
    let line = o
        .stdout
        .lines()
        .find(|l| l.contains("history: `msm_l` stepped"))
        .unwrap_or_else(|| panic!("no onset line:\n{}", o.stdout));
    assert!(line.contains("at night 7 of 12"), "{line}");
    assert!(line.contains(&commits[5]) && line.contains(&commits[6]), "{line}");
    println!(
        "{}",
        o.stdout
            .lines()
            .skip_while(|l| !l.starts_with("next steps"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let bisect = format!("git bisect start {} {}", commits[6], commits[5]);
    assert!(o.stdout.contains(&bisect), "expected `{bisect}`:\n{}", o.stdout);
    assert!(
        o.stdout.contains("git bisect run phaseline bisect oracle"),
        "{}",
        o.stdout
    );
    let n: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ws.path("n12/nightly.json")).expect("nightly.json"))
            .expect("json");
    let steps = n["next_steps"].as_array().expect("steps");
    assert!(
        steps.iter().any(|s| s.as_str().is_some_and(|s| s.contains(&bisect))),
        "{n:#}"
    );
    let o = ws.run(&["history", "--db", "h.sqlite", "list"], None);
    assert!(o.stdout.contains("12 run(s)"), "{}", o.stdout);
}
