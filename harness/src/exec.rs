//! Runs one child in its own process group with a timeout. On timeout the whole
//! group is ended by its id (SIGTERM, then SIGKILL); nothing is ever killed by name.
//! While it runs the group is registered with [`crate::interrupt`], so an
//! interrupt ends it too; after it, processes that left the group are found
//! and ended by [`crate::orphans`].

use crate::error::HarnessError;
use crate::model::MemPoint;
use crate::monitor::Monitor;
use std::ffi::OsString;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Bytes of stderr kept for a failed sample.
pub const TAIL_BYTES: u64 = 2000;

/// What to run.
#[derive(Clone, Debug)]
pub struct Job {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub env: Vec<(String, String)>,
    pub timeout: Duration,
    /// Memory / telemetry sampling period; `None` disables sampling.
    pub sample_every: Option<Duration>,
    /// File for the child's stdout (discarded when `None`).
    pub stdout: Option<PathBuf>,
}

/// How the child ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Exited(i32),
    Signaled(i32),
    TimedOut,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    pub wall_ms: f64,
    pub stderr_tail: String,
    /// The child's process group id (= its pid).
    pub pgid: i32,
    pub memory: Vec<MemPoint>,
    /// Processes that left the group and outlived the child; ended by pid.
    pub orphans: Vec<crate::orphans::Orphan>,
    /// What the rest of the host used while the child ran (`None` where the
    /// counters cannot be read).
    pub host: Option<crate::host_load::Load>,
}

impl Outcome {
    pub fn success(&self) -> bool {
        self.status == Status::Exited(0) && self.orphans.is_empty()
    }

    /// One-line reason for a failure, with the stderr tail.
    pub fn failure(&self, timeout: Duration) -> String {
        let what = match self.status {
            Status::Exited(0) if !self.orphans.is_empty() => format!(
                "runner left {} process(es) outside its process group, ended by pid: {}",
                self.orphans.len(),
                self.orphans
                    .iter()
                    .map(|o| o.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Status::Exited(c) => format!("runner exited with status {c}"),
            Status::Signaled(s) => format!("runner killed by signal {s}"),
            Status::TimedOut => format!(
                "runner timed out after {:.1} s; its process group {} was ended",
                timeout.as_secs_f64(),
                self.pgid
            ),
        };
        let tail = self.stderr_tail.trim();
        if tail.is_empty() {
            what
        } else {
            format!("{what}; stderr tail: {tail}")
        }
    }
}

/// Ends the running children's groups when the harness is interrupted (see [`crate::interrupt`]).
pub fn install_interrupt_handler() {
    crate::interrupt::install();
}

/// True while any process of group `pgid` exists.
pub fn group_alive(pgid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence and permission.
    let r = unsafe { libc::kill(-pgid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Ends group `pgid` (SIGTERM, then SIGKILL after 500 ms), reaping `child`, and
/// waits up to 2 s more for every member to be gone.
fn end_group(pgid: i32, child: &mut std::process::Child) {
    let wait_gone = |child: &mut std::process::Child, ms: u64| {
        let until = Instant::now() + Duration::from_millis(ms);
        loop {
            let _ = child.try_wait();
            if !group_alive(pgid) || Instant::now() >= until {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    // SAFETY: signals only the child's own process group, by id.
    unsafe { libc::killpg(pgid, libc::SIGTERM) };
    wait_gone(child, 500);
    if group_alive(pgid) {
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        wait_gone(child, 2000);
    }
}

fn tail(f: &mut std::fs::File) -> String {
    let len = f.seek(SeekFrom::End(0)).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(TAIL_BYTES)));
    let mut buf = Vec::new();
    let _ = f.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).replace('\n', " | ")
}

/// Runs `job` to completion or timeout.
pub fn run(job: &Job) -> Result<Outcome, HarnessError> {
    let mut err = tempfile::tempfile().map_err(|e| HarnessError::io("stderr capture file", e))?;
    let err2 = err
        .try_clone()
        .map_err(|e| HarnessError::io("stderr capture file", e))?;
    let stdout = match &job.stdout {
        Some(p) => Stdio::from(
            std::fs::File::create(p).map_err(|e| HarnessError::io(format!("cannot create {}", p.display()), e))?,
        ),
        None => Stdio::null(),
    };
    let mut cmd = Command::new(&job.program);
    cmd.args(&job.args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::from(err2))
        .process_group(0);
    for (k, v) in &job.env {
        cmd.env(k, v);
    }
    let before = crate::host_load::Snapshot::take();
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| HarnessError::io(format!("cannot start runner {}", job.program.display()), e))?;
    let pgid = child.id() as i32;
    let registered = crate::interrupt::GroupGuard::new(pgid);
    let monitor = job.sample_every.map(|every| Monitor::start(child.id(), every));
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => {
                break match (st.code(), st.signal()) {
                    (Some(c), _) => Status::Exited(c),
                    (None, Some(s)) => Status::Signaled(s),
                    _ => Status::Exited(-1),
                }
            }
            Ok(None) if start.elapsed() >= job.timeout => {
                end_group(pgid, &mut child);
                let _ = child.wait();
                break Status::TimedOut;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                end_group(pgid, &mut child);
                let _ = child.wait();
                return Err(HarnessError::io("waiting for the runner", e));
            }
        }
    };
    let wall_ms = start.elapsed().as_secs_f64() * 1e3;
    let host = before.and_then(|b| b.until(&crate::host_load::Snapshot::take()?, wall_ms / 1e3));
    // Leftover members of the group (a runner's own children) end with it.
    if group_alive(pgid) {
        end_group(pgid, &mut child);
    }
    drop(registered);
    let memory = monitor.map(Monitor::stop).unwrap_or_default();
    let orphans = crate::orphans::end_orphans(&crate::interrupt::registered());
    if let Some(sig) = crate::interrupt::received() {
        return Err(HarnessError::Interrupted(sig));
    }
    Ok(Outcome {
        status,
        wall_ms,
        stderr_tail: tail(&mut err),
        pgid,
        memory,
        orphans,
        host,
    })
}
