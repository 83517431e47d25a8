//! A runner child that leaves its process group (`setsid`) is found (the
//! harness is its subreaper), ended by pid, and the sample fails naming it.

mod common;
use common::{alive, assert_error, run_args, Ws};

#[test]
fn a_setsid_child_does_not_outlive_the_run() {
    let ws = Ws::mock();
    let spec = ws.spec("setsid.json", r#"{"behaviour": "setsid"}"#);
    let o = ws.run(
        &run_args("synth", &["baseline="], "1", "r", &["--warmup", "0"]),
        Some(&spec),
    );
    assert_error(&o, &["outside its process group, ended by pid", "(sleep)"]);
    let run = ws.run_json("r");
    let err = run["samples"][0]["error"]
        .as_str()
        .expect("the sample failed")
        .to_string();
    let pid: i32 = err
        .split("pid ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .expect("the error names the pid");
    assert!(!alive(pid), "the setsid child {pid} outlived the run");
}
