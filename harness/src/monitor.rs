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

/// RSS of `root` and all its descendants.
fn tree_rss(sys: &System, root: Pid) -> u64 {
    let procs = sys.processes();
    let mut total = 0;
    for (pid, p) in procs {
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
