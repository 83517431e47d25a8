//! A runner that hangs past the timeout is ended with its whole process group.

mod common;
use common::{assert_error, run_args, Ws};

fn group_gone(pgid: i32) -> bool {
    // SAFETY: signal 0 only probes for existence.
    let r = unsafe { libc::kill(-pgid, 0) };
    r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

#[test]
fn hung_runner_times_out_and_leaves_no_process() {
    let ws = Ws::mock();
    let spec = ws.spec("hang.json", r#"{"behaviour": "hang"}"#);
    let t = std::time::Instant::now();
    let extra = ["--warmup", "0", "--timeout", "1"];
    let o = ws.run(&run_args("synth", &["baseline="], "1", "r", &extra), Some(&spec));
    assert_error(&o, &["timed out after 1.0 s", "process group"]);
    assert!(t.elapsed().as_secs() < 30, "the timeout was not enforced");
    let run = ws.run_json("r");
    let err = run["samples"][0]["error"].as_str().unwrap().to_string();
    let pgid: i32 = err
        .split("process group ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .expect("the error names the process group");
    assert!(pgid > 1);
    // The runner and the `sleep` it started share the group; both must be gone.
    assert!(group_gone(pgid), "process group {pgid} still has members");
}

#[test]
fn exec_ends_the_group_by_id() {
    use phaseline::exec::{group_alive, run, Job, Status};
    let job = Job {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), "sleep 300 & sleep 300".into()],
        env: vec![],
        timeout: std::time::Duration::from_millis(300),
        sample_every: Some(std::time::Duration::from_millis(50)),
        stdout: None,
    };
    let o = run(&job).expect("runs");
    assert_eq!(o.status, Status::TimedOut);
    assert!(!group_alive(o.pgid));
    assert!(group_gone(o.pgid));
    assert!(!o.memory.is_empty(), "memory was sampled while it ran");
}
