//! Interrupts (SIGINT, SIGTERM): the first one ends every child process group
//! the harness started (runners and builds alike, by group id) and lets the
//! command stop at its next step, keeping what it measured; a second one ends
//! those groups with SIGKILL, removes the registered temporary folders and
//! exits at once. Exit code of an interrupted command: 128 + the signal number.
//!
//! Signals are received by signal-hook's iterator on its own thread, so the
//! work done here runs outside signal-handler context.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

/// The first signal received (0 = none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Process groups of the children running now.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// Temporary folders to remove on a hard exit.
static TEMP_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Files set aside, to put back (`from` -> `to`) on a hard exit.
static RENAMES: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());

/// The signal that interrupted this command, if one did.
pub fn received() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The exit code of a command ended by signal `sig`.
pub fn exit_code(sig: i32) -> i32 {
    128 + sig
}

/// Name of an interrupting signal, for messages.
pub fn name(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Keeps a child's process group registered while it lives.
pub struct GroupGuard(i32);

impl GroupGuard {
    /// Registers `pgid`; when an interrupt has already arrived, ends it at once.
    pub fn new(pgid: i32) -> GroupGuard {
        lock(&GROUPS).push(pgid);
        if received().is_some() {
            // SAFETY: signals only this child's own group, by id.
            unsafe { libc::killpg(pgid, libc::SIGTERM) };
        }
        GroupGuard(pgid)
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        lock(&GROUPS).retain(|g| *g != self.0);
    }
}

/// Keeps a temporary folder registered for removal on a hard exit.
pub struct TempGuard(PathBuf);

impl TempGuard {
    pub fn new(dir: PathBuf) -> TempGuard {
        lock(&TEMP_DIRS).push(dir.clone());
        TempGuard(dir)
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        lock(&TEMP_DIRS).retain(|d| *d != self.0);
    }
}

/// Process groups (= the pids of their leaders) of the children running now.
pub fn registered() -> Vec<i32> {
    lock(&GROUPS).clone()
}

/// Keeps a file that was set aside registered, so a hard exit puts it back.
pub struct PutBack(PathBuf);

impl PutBack {
    pub fn new(aside: PathBuf, original: PathBuf) -> PutBack {
        lock(&RENAMES).push((aside.clone(), original.clone()));
        PutBack(aside)
    }
}

impl Drop for PutBack {
    fn drop(&mut self) {
        lock(&RENAMES).retain(|r| r.0 != self.0);
    }
}

fn signal_groups(sig: i32) {
    for g in lock(&GROUPS).iter() {
        // SAFETY: signals only a registered child's own group, by id.
        unsafe { libc::killpg(*g, sig) };
    }
}

fn on_signal(sig: i32) {
    if SIGNAL
        .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        eprintln!(
            "phaseline: {} received; ending the children and keeping what was measured (send it again to stop at once)",
            name(sig)
        );
        signal_groups(libc::SIGTERM);
        return;
    }
    signal_groups(libc::SIGKILL);
    for d in lock(&TEMP_DIRS).iter() {
        let _ = std::fs::remove_dir_all(d);
    }
    for (aside, original) in lock(&RENAMES).iter() {
        let _ = std::fs::rename(aside, original);
    }
    eprintln!("phaseline: second signal; stopped at once");
    std::process::exit(exit_code(SIGNAL.load(Ordering::SeqCst)));
}

/// Listens for SIGINT and SIGTERM and makes this process the subreaper of its
/// descendants (see [`crate::orphans`]). Called once, by the binary.
pub fn install() {
    crate::orphans::become_subreaper();
    match signal_hook::iterator::Signals::new([libc::SIGINT, libc::SIGTERM]) {
        Ok(mut signals) => {
            std::thread::spawn(move || {
                for sig in signals.forever() {
                    on_signal(sig);
                }
            });
        }
        Err(e) => eprintln!("warning: cannot listen for interrupts ({e}); Ctrl-C will not end children"),
    }
}
