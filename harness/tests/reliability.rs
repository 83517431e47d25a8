//! The reliability table: bad inputs and faults, each run through `phaseline` as a user would,
//! with the exit code and message it gave. Every row must exit as expected, without a panic, a
//! temporary file or a runner left behind, and without losing a measured sample.
//!
//! `docs/reliability.md` is this table as last produced: set `PHASELINE_RELIABILITY_DOC` to a
//! path to write it there (`scripts/reliability-table.sh` does). The test checks that the doc
//! lists exactly the rows below, with the exit codes they give.

mod common;
mod reliability_rows;
use common::{alive, pids, Ws, MOCK, PHASELINE};
use reliability_rows::{rows, Fault, Prep, Row};
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Outcome {
    code: i32,
    message: String,
    problems: Vec<String>,
}

fn message(stderr: &str, ws: &Ws) -> String {
    let root = ws.dir.path().display().to_string();
    let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let at = lines
        .iter()
        .position(|l| l.to_lowercase().starts_with("error"))
        .or(lines.iter().position(|l| l.contains("interrupted")))
        .or(lines.len().checked_sub(1));
    let pick = match at {
        // An error that lists its reasons on the lines after it: the first reason.
        Some(i) if lines[i].ends_with(':') && i + 1 < lines.len() => format!("{} {}", lines[i], lines[i + 1]),
        Some(i) => lines[i].to_string(),
        None => String::new(),
    };
    // A failed sample's reason is on its own line before the summary error.
    let pick = match lines.iter().find(|l| l.starts_with("failed:")) {
        Some(why) if pick.contains("samples failed") => format!("{why}; {pick}"),
        _ => pick,
    };
    let mut m = pick.replace(&root, "WS").replace('|', "/");
    if m.chars().count() > 300 {
        m = m.chars().take(297).collect::<String>() + "...";
    }
    m
}

fn execute(r: &Row) -> Outcome {
    let mut cfg = format!("runner_override = {:?}\n{}", MOCK, common::config("", 20.0));
    if let Some((find, put)) = r.config {
        cfg = if find.is_empty() {
            format!("{put}{cfg}")
        } else {
            cfg.replacen(find, put, 1)
        };
    }
    let ws = Ws::with_config(&cfg);
    let pid_file = ws.path("runner.pids");
    let spec = ws.spec(
        "spec.json",
        &format!(
            "{{{}\"pid_file\": {:?}}}",
            r.spec.map(|s| format!("{s}, ")).unwrap_or_default(),
            pid_file.display().to_string()
        ),
    );
    let quiet = |args: &[&str]| {
        let o = ws.run(args, Some(&spec));
        assert_eq!(o.code, 0, "{}: preparing: {}", r.id, o.all());
    };
    if matches!(r.prep, Prep::Run | Prep::Baseline) {
        quiet(&[
            "run",
            "--suite",
            "synth",
            "--variant",
            "baseline=",
            "--reps",
            "3",
            "--warmup",
            "0",
            "--out",
            "r",
        ]);
        std::fs::remove_file(&pid_file).unwrap();
    }
    if matches!(r.prep, Prep::Baseline) {
        quiet(&["baseline", "save", "base", "--from", "r"]);
    }
    if let Some(d) = r.damage {
        d(&ws);
    }
    let tmp = ws.path("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut child = Command::new(PHASELINE)
        .args(r.args)
        .current_dir(ws.dir.path())
        .env_remove("CARGO_TARGET_DIR")
        .env("PHASELINE_MOCK_SPEC", &spec)
        .env("TMPDIR", &tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start phaseline");
    let mut problems = Vec::new();
    if let Fault::Signal(sig) = r.fault {
        let until = Instant::now() + Duration::from_secs(30);
        while pids(&pid_file).len() < 3 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: signals the phaseline process this test started, by pid.
        unsafe { libc::kill(child.id() as i32, sig) };
    }
    let until = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            problems.push("did not end within 60 s".into());
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let code = o.status.code().unwrap_or(-1);
    if stderr.contains("panicked") {
        problems.push(format!("panic: {stderr}"));
    }
    if code != 0 && message(&stderr, &ws).is_empty() {
        problems.push("no message".into());
    }
    // Runners are ended before the harness exits (the hanging one's child with its group).
    std::thread::sleep(Duration::from_millis(50));
    for pid in pids(&pid_file) {
        if alive(pid) {
            problems.push(format!("runner {pid} outlived the harness"));
        }
    }
    if let Some(sid) = stderr.split("pid ").nth(1).and_then(|s| s.split_whitespace().next()) {
        if let Ok(pid) = sid.parse::<i32>() {
            if alive(pid) {
                problems.push(format!("process {pid} named in the error is still running"));
            }
        }
    }
    if !ws.temp_leftovers().is_empty() || std::fs::read_dir(&tmp).unwrap().next().is_some() {
        problems.push("temporary files left".into());
    }
    // Every sample measured is kept: the journal's samples are all in run.json, or readable.
    let journal = ws.path("n/journal.jsonl");
    if journal.is_file() {
        let journaled = std::fs::read_to_string(&journal)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("{\"sample\""))
            .count();
        let rep = ws.run(&["report", "n", "--out", "rep"], None);
        if rep.code != 0 {
            problems.push(format!(
                "{journaled} journaled samples, but report fails: {}",
                rep.all()
            ));
        }
    }
    Outcome {
        code,
        message: message(&stderr, &ws),
        problems,
    }
}

fn table(rows: &[Row], outcomes: &[Outcome]) -> String {
    let mut s = String::from(
        "# Reliability: bad inputs and faults\n\n\
         Every row is a `phaseline` command run by `harness/tests/reliability.rs` on a fresh\n\
         workspace with the mock runner (the test fails if any row exits otherwise, panics,\n\
         leaves a runner or a temporary file behind, or loses a journaled sample). `WS` is the\n\
         workspace folder. Regenerate with `scripts/reliability-table.sh`.\n\n",
    );
    let panics = outcomes
        .iter()
        .filter(|o| o.problems.iter().any(|p| p.starts_with("panic")))
        .count();
    let exit0 = outcomes.iter().filter(|o| o.code == 0).count();
    let _ = writeln!(
        s,
        "{} rows: {} exit 2, {} interrupted (128 + signal), {exit0} exit 0, {panics} panics, {} rows with a problem.\n",
        rows.len(),
        outcomes.iter().filter(|o| o.code == 2).count(),
        outcomes.iter().filter(|o| o.code > 128).count(),
        outcomes.iter().filter(|o| !o.problems.is_empty()).count(),
    );
    s.push_str("| id | fault | command | exit | message |\n|---|---|---|---:|---|\n");
    for (r, o) in rows.iter().zip(outcomes) {
        let mut cmd = format!("phaseline {}", r.args.join(" "));
        if let Some((find, put)) = r.config {
            let edit = if find.is_empty() {
                format!("+ `{put}`")
            } else {
                format!("`{find}` -> `{put}`")
            };
            cmd = format!("{cmd} (config: {})", edit.replace('\n', "\\n"));
        }
        if let Some(sp) = r.spec {
            cmd = format!("{cmd} (runner: `{{{sp}}}`)");
        }
        if let Fault::Signal(sig) = r.fault {
            cmd = format!("{cmd}, then signal {sig}");
        }
        let _ = writeln!(
            s,
            "| `{}` | {} | `{}` | {} | {} |",
            r.id,
            r.what,
            cmd.replace('|', "/").replace('`', "'"),
            o.code,
            o.message.replace('`', "'")
        );
    }
    s
}

#[test]
fn every_bad_input_and_fault_ends_cleanly() {
    let rows = rows();
    assert!(rows.len() >= 50, "the table has {} rows", rows.len());
    let outcomes: Vec<Outcome> = rows.iter().map(execute).collect();
    let text = table(&rows, &outcomes);
    if let Some(p) = std::env::var_os("PHASELINE_RELIABILITY_DOC") {
        std::fs::write(&p, &text).expect("write the doc");
    }
    let mut failures = Vec::new();
    for (r, o) in rows.iter().zip(&outcomes) {
        if o.code != r.expect {
            failures.push(format!(
                "{}: exit {} (expected {}): {}",
                r.id, o.code, r.expect, o.message
            ));
        }
        for p in &o.problems {
            failures.push(format!("{}: {p}", r.id));
        }
    }
    assert!(failures.is_empty(), "{}\n\n{text}", failures.join("\n"));
    // The doc lists exactly these rows with these exit codes.
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reliability.md");
    let doc = std::fs::read_to_string(&doc).unwrap_or_default();
    let listed: Vec<(String, String)> = doc
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].trim_matches('`').to_string(), cells[4].to_string())
        })
        .collect();
    let want: Vec<(String, String)> = rows
        .iter()
        .zip(&outcomes)
        .map(|(r, o)| (r.id.to_string(), o.code.to_string()))
        .collect();
    assert_eq!(
        listed, want,
        "docs/reliability.md is stale: run scripts/reliability-table.sh"
    );
}
