//! Samples a child's process-tree RSS, system memory and GPU telemetry on a
//! background thread while the child runs.

use crate::model::MemPoint;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use sysinfo::{Pid, ProcessesToUpdate, System};

pub struct Monitor {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Vec<MemPoint>>,
}

/// RSS of `root` and all its descendant processes. The process table also
/// lists every thread of a process as a task with the process's own RSS;
/// those are skipped, or a process with 40 threads would count 41 times.
fn tree_rss(sys: &System, root: Pid) -> u64 {
    let procs = sys.processes();
    let mut total = 0;
    for (pid, p) in procs.iter().filter(|(_, p)| p.thread_kind().is_none()) {
        let mut cur = Some(*pid);
        let mut depth = 0;
        while let Some(c) = cur {
            if c == root {
                total += p.memory();
                break;
            }
            depth += 1;
            cur = if depth > 64 {
                None
            } else {
                procs.get(&c).and_then(|q| q.parent())
            };
        }
    }
    total
}

impl Monitor {
    /// Starts sampling process `pid` (and its descendants) every `every`.
    pub fn start(pid: u32, every: Duration) -> Monitor {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let t0 = Instant::now();
            let root = Pid::from_u32(pid);
            let mut sys = System::new();
            let mut out = Vec::new();
            loop {
                sys.refresh_processes(ProcessesToUpdate::All, true);
                sys.refresh_memory();
                let mut p = MemPoint {
                    t_ms: t0.elapsed().as_secs_f64() * 1e3,
                    rss_bytes: tree_rss(&sys, root),
                    sys_used_bytes: sys.used_memory(),
                    ..Default::default()
                };
                crate::gpu::sample_into(&mut p);
                out.push(p);
                let next = Instant::now() + every;
                while Instant::now() < next {
                    if flag.load(Ordering::Relaxed) {
                        return out;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        });
        Monitor { stop, handle }
    }

    /// Stops sampling and returns the points.
    pub fn stop(self) -> Vec<MemPoint> {
        self.stop.store(true, Ordering::Relaxed);
        self.handle.join().unwrap_or_default()
    }
}

/// Largest RSS and GPU memory seen.
pub fn peaks(points: &[MemPoint]) -> (u64, Option<u64>) {
    let rss = points.iter().map(|p| p.rss_bytes).max().unwrap_or(0);
    let gpu = points.iter().filter_map(|p| p.gpu_used_bytes).max();
    (rss, gpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vm_rss() -> u64 {
        let s = std::fs::read_to_string("/proc/self/status").unwrap();
        let kb: u64 = s
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|k| k.parse().ok())
            .unwrap();
        kb * 1024
    }

    /// A process with many threads counts once.
    #[test]
    fn threads_are_not_counted_as_processes() {
        let stop = Arc::new(AtomicBool::new(false));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let s = stop.clone();
                std::thread::spawn(move || {
                    while !s.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                })
            })
            .collect();
        let mut sys = System::new();
        sys.refresh_processes(ProcessesToUpdate::All, true);
        let tree = tree_rss(&sys, Pid::from_u32(std::process::id()));
        let own = vm_rss();
        stop.store(true, Ordering::SeqCst);
        for t in threads {
            t.join().unwrap();
        }
        assert!(tree > 0 && (tree as f64) < 1.5 * own as f64, "tree {tree} own {own}");
    }
}
