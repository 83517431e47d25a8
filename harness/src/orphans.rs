//! Children that leave their process group (`setsid`) cannot be ended by the
//! group id. The harness makes itself a child subreaper (Linux
//! `PR_SET_CHILD_SUBREAPER`), so such a process, once its parent is gone,
//! becomes a child of the harness; after each runner the harness scans
//! `/proc` for its own children that it did not start, ends each by its pid
//! and reaps it. A cgroup per run would find them too, but needs a writable
//! cgroup tree (root or systemd delegation), which test and CI machines often
//! lack; the subreaper works for any user.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static SUBREAPER: AtomicBool = AtomicBool::new(false);

/// Makes this process the subreaper of its descendants; scanning is on only
/// where this succeeded (so a test process, whose threads start children of
/// their own, never scans).
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with integer arguments only.
        let r = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
        SUBREAPER.store(r == 0, Ordering::SeqCst);
    }
}

/// An orphan the scan ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Orphan {
    pub pid: i32,
    pub command: String,
}

impl std::fmt::Display for Orphan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pid {} ({})", self.pid, self.command)
    }
}

/// `(pid, ppid, state, command)` of every process, from `/proc/PID/stat`.
fn processes() -> Vec<(i32, i32, char, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let comm = stat[open + 1..close].to_string();
        let mut rest = stat[close + 1..].split_whitespace();
        let state = rest.next().and_then(|s| s.chars().next()).unwrap_or('?');
        let ppid = rest.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        out.push((pid, ppid, state, comm));
    }
    out
}

/// Ends and reaps every child of this process that it did not start as a
/// job (`keep` lists the pids it did start and still waits for). Returns the
/// ones that were still running; ones already exited are only reaped.
pub fn end_orphans(keep: &[i32]) -> Vec<Orphan> {
    if !SUBREAPER.load(Ordering::SeqCst) {
        return Vec::new();
    }
    let me = std::process::id() as i32;
    let mut ended = Vec::new();
    // An ended orphan's own children become ours in turn: scan until none is left.
    for _ in 0..20 {
        let found: Vec<_> = processes()
            .into_iter()
            .filter(|p| p.1 == me && !keep.contains(&p.0))
            .collect();
        if found.is_empty() {
            break;
        }
        for (pid, _, state, comm) in found {
            if state != 'Z' {
                // SAFETY: signals one process, by the pid the scan found as our child.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                ended.push(Orphan { pid, command: comm });
            }
            reap(pid);
        }
    }
    ended
}

fn reap(pid: i32) {
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let mut status = 0;
        // SAFETY: waits for one child of ours, by pid, without blocking.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r != 0 || Instant::now() >= until {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
