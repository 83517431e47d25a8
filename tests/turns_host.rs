//! par-bg2's turn order (`cuda/pl_turns.cuh`) checked on the host: the
//! header is plain C++ (threads, a mutex, a condition variable), so this test
//! builds `tests/turns_host.cpp` with the host's C++ compiler (`CXX`, else
//! `c++`) and runs it; no CUDA toolkit or device is needed. A missing compiler
//! is a failure, never a pass.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn pippenger_turns_keep_their_order_and_free_a_waiter_on_failure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = dir.path().join("turns_host");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let built = Command::new(&cxx)
        .args(["-std=c++17", "-O2", "-pthread", "-Wall", "-Werror", "-I"])
        .arg(root.join("cuda"))
        .arg(root.join("tests/turns_host.cpp"))
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C++ compiler `{cxx}` (set CXX): {e}"));
    assert!(
        built.status.success(),
        "building tests/turns_host.cpp failed:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    // A lost turn would hang the program: it gets a deadline, then is ended
    // by its id.
    let mut child = Command::new(&exe)
        .stdout(Stdio::piped())
        .spawn()
        .expect("run turns_host");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait for turns_host") {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("turns_host still waiting after 60 s: a thread never got its turn");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read stdout");
    assert!(status.success() && out.trim() == "ok", "turns_host: {out}");
}
