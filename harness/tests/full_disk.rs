//! A write of the run's outputs that fails (a full disk) never costs the
//! measured samples: the journal keeps them, `report` reads it, and the error
//! is exit 2 naming the path.

mod common;
use common::{assert_error, run_args, Ws};
use std::process::Command;

fn check_kept(ws: &Ws, dir: &str) {
    let o = ws.run(&["report", dir, "--out", "rep"], None);
    assert_eq!(o.code, 0, "{}", o.all());
    let journal = std::fs::read_to_string(ws.path(dir).join("journal.jsonl")).unwrap();
    assert_eq!(journal.lines().filter(|l| l.starts_with("{\"sample\"")).count(), 3);
}

/// `run.json` cannot be written (a folder is in its place: the rename fails).
#[test]
fn a_failed_run_json_write_keeps_the_samples() {
    let ws = Ws::mock();
    std::fs::create_dir_all(ws.path("r/run.json/blocker")).unwrap();
    let o = ws.run(&run_args("synth", &["baseline="], "2", "r", &["--warmup", "1"]), None);
    assert_error(&o, &["run.json", "the 3 measured samples are kept in", "journal.jsonl"]);
    std::fs::remove_dir_all(ws.path("r/run.json")).unwrap();
    check_kept(&ws, "r");
}

/// A real full disk: a 64 KiB tmpfs (in a private mount namespace of a child
/// process) filled before `run.json` is written. Skipped where no tmpfs can be mounted.
#[test]
fn a_full_tmpfs_keeps_the_samples() {
    let ws = Ws::mock();
    let mnt = ws.path("small");
    std::fs::create_dir_all(&mnt).unwrap();
    let out = mnt.join("r");
    // tmpfs counts whole pages: the filler and the journal leave no page for
    // the outputs written after the measurement.
    let script = format!(
        "mount -t tmpfs -o size=16k tmpfs {m:?} || exit 77\n\
         head -c 4096 /dev/zero > {m:?}/filler 2>/dev/null\n\
         {p:?} run --suite synth --variant baseline= --reps 2 --warmup 1 --out {o:?} --progress quiet > out.txt 2> err.txt\n\
         echo $? > code.txt\n\
         cp -r {o:?} kept 2>/dev/null\n\
         exit 0\n",
        m = mnt.display().to_string(),
        o = out.display().to_string(),
        p = common::PHASELINE,
    );
    let st = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", &script])
        .current_dir(ws.dir.path())
        .env_remove("PHASELINE_MOCK_SPEC")
        .status();
    match st {
        Ok(s) if s.code() == Some(0) => {}
        other => {
            println!("skipped: cannot mount a tmpfs here ({other:?})");
            return;
        }
    }
    let code = std::fs::read_to_string(ws.path("code.txt")).unwrap();
    let err = std::fs::read_to_string(ws.path("err.txt")).unwrap();
    assert_eq!(code.trim(), "2", "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("No space left on device"), "{err}");
    assert!(err.contains("measured samples are kept in"), "{err}");
    check_kept(&ws, "kept");
}
