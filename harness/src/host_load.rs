//! What the rest of the host did while a runner ran: CPU time used by other
//! processes, and time the hypervisor took (steal), each as the average
//! number of CPUs it kept busy over the runner's wall time.
//!
//! A cuda runner's MSM spans hold host work (sppark sums its bucket rows on a
//! host thread pool inside them), so they stretch when other work competes
//! for the CPUs (reports/gpu-msm-host-work). A night that cannot settle its
//! rows should say whether the host was busy; this is the instrument.
//!
//! Measured from the kernel's counters (Linux `/proc/stat`, `getrusage`), so
//! nothing is sampled while the runner runs: all CPU time the host spent
//! outside idle, less the runner's own (its process tree, reaped) and the
//! harness's. No crate reads the host's aggregate CPU counters and a reaped
//! child's CPU time together; sysinfo gives percentages between refreshes.

use crate::model::Sample;
use serde::Serialize;

/// Sample counter: average CPUs busy with other processes while the runner ran.
pub const OTHER_CPUS: &str = "host_other_cpus";
/// Sample counter: average CPUs taken by the hypervisor (steal) meanwhile.
pub const STEAL_CPUS: &str = "host_steal_cpus";

/// Other processes keeping more CPUs than this busy, on average over a night's
/// processes, make the host busy: spans with host work inside them spread with it.
pub const BUSY_CPUS: f64 = 0.5;

/// The host's aggregate CPU counters, in clock ticks, plus the CPU seconds of
/// this process and its reaped children.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapshot {
    /// user + nice + system + irq + softirq, all CPUs (guest time is inside user).
    busy_ticks: u64,
    steal_ticks: u64,
    /// This process's CPU seconds and its reaped descendants'.
    own_cpu_s: f64,
}

/// What the rest of the host used over one interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Load {
    pub other_cpus: f64,
    pub steal_cpus: f64,
}

/// The aggregate `cpu` line of `/proc/stat`: (busy ticks, steal ticks).
pub fn parse_stat(stat: &str) -> Option<(u64, u64)> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let f: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal [guest guest_nice]
    if f.len() < 8 {
        return None;
    }
    Some((f[0] + f[1] + f[2] + f[5] + f[6], f[7]))
}

fn rusage_s(who: libc::c_int) -> Option<f64> {
    // SAFETY: getrusage writes into the struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(who, &mut ru) } != 0 {
        return None;
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    Some(tv(ru.ru_utime) + tv(ru.ru_stime))
}

fn ticks_per_s() -> Option<f64> {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (t > 0).then_some(t as f64)
}

impl Snapshot {
    /// Now; `None` where the counters cannot be read (not Linux).
    pub fn take() -> Option<Snapshot> {
        let (busy_ticks, steal_ticks) = parse_stat(&std::fs::read_to_string("/proc/stat").ok()?)?;
        let own_cpu_s = rusage_s(libc::RUSAGE_SELF)? + rusage_s(libc::RUSAGE_CHILDREN)?;
        Some(Snapshot {
            busy_ticks,
            steal_ticks,
            own_cpu_s,
        })
    }

    /// The rest of the host's use from `self` to `later`, over `wall_s` seconds.
    pub fn until(&self, later: &Snapshot, wall_s: f64) -> Option<Load> {
        between(self, later, wall_s, ticks_per_s()?)
    }
}

/// Pure part of [`Snapshot::until`]. Clock ticks are coarse (10 ms a CPU), so a
/// short interval reads 0 or a little below; it is clamped at 0.
pub fn between(a: &Snapshot, b: &Snapshot, wall_s: f64, ticks_per_s: f64) -> Option<Load> {
    if wall_s <= 0.0 || b.busy_ticks < a.busy_ticks || b.steal_ticks < a.steal_ticks {
        return None;
    }
    let busy_s = (b.busy_ticks - a.busy_ticks) as f64 / ticks_per_s;
    let ours_s = (b.own_cpu_s - a.own_cpu_s).max(0.0);
    Some(Load {
        other_cpus: ((busy_s - ours_s) / wall_s).max(0.0),
        steal_cpus: (b.steal_ticks - a.steal_ticks) as f64 / ticks_per_s / wall_s,
    })
}

/// How busy the rest of the host was over a night's measured processes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HostBusy {
    /// Processes measured (samples carrying the counters).
    pub samples: usize,
    pub mean_other_cpus: f64,
    pub max_other_cpus: f64,
    pub mean_steal_cpus: f64,
    /// `mean_other_cpus` above [`BUSY_CPUS`].
    pub busy: bool,
}

/// Over every sample that carries the counters (warm-ups included: they ran
/// on the same host); `None` when none does.
pub fn summarize<'a>(samples: impl IntoIterator<Item = &'a Sample>) -> Option<HostBusy> {
    let mut n = 0usize;
    let (mut sum, mut max, mut steal) = (0.0, 0.0f64, 0.0);
    for s in samples {
        if let Some(&o) = s.counters.get(OTHER_CPUS) {
            n += 1;
            sum += o;
            max = max.max(o);
            steal += s.counters.get(STEAL_CPUS).copied().unwrap_or(0.0);
        }
    }
    (n > 0).then(|| {
        let mean = sum / n as f64;
        HostBusy {
            samples: n,
            mean_other_cpus: mean,
            max_other_cpus: max,
            mean_steal_cpus: steal / n as f64,
            busy: mean > BUSY_CPUS,
        }
    })
}

impl std::fmt::Display for HostBusy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "other processes kept {:.2} CPUs busy on average beside the runner (at most {:.2}, over {} processes); steal {:.2} CPUs",
            self.mean_other_cpus, self.max_other_cpus, self.samples, self.mean_steal_cpus
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn the_aggregate_line_gives_busy_and_steal_ticks() {
        let stat = "cpu  100 5 30 9000 7 2 3 11 40 0\ncpu0 50 2 15 4500 3 1 1 5 20 0\nintr 1\n";
        assert_eq!(parse_stat(stat), Some((100 + 5 + 30 + 2 + 3, 11)));
        assert_eq!(parse_stat("cpu0 1 2 3 4 5 6 7 8\n"), None, "no aggregate line");
        assert_eq!(parse_stat("cpu  1 2 3\n"), None, "too few fields");
        assert_eq!(parse_stat("cpu  1 2 x 4 5 6 7 8\n"), None, "not a number");
    }

    #[test]
    fn the_runner_and_the_harness_are_taken_out_of_the_host_busy_time() {
        let a = Snapshot {
            busy_ticks: 1_000,
            steal_ticks: 10,
            own_cpu_s: 5.0,
        };
        // 4 s of wall: 12 CPU s busy in all, 8 of them ours, 0.4 s stolen.
        let b = Snapshot {
            busy_ticks: 2_200,
            steal_ticks: 50,
            own_cpu_s: 13.0,
        };
        let l = between(&a, &b, 4.0, 100.0).unwrap();
        assert!((l.other_cpus - 1.0).abs() < 1e-9, "{l:?}");
        assert!((l.steal_cpus - 0.1).abs() < 1e-9, "{l:?}");
        // Coarse ticks can read below our own time: never negative.
        let c = Snapshot { busy_ticks: 1_500, ..b };
        assert_eq!(between(&a, &c, 4.0, 100.0).unwrap().other_cpus, 0.0);
        assert_eq!(between(&b, &a, 4.0, 100.0), None, "counters went backwards");
        assert_eq!(between(&a, &b, 0.0, 100.0), None, "no wall time");
    }

    fn sample(other: Option<f64>) -> Sample {
        let mut counters = BTreeMap::new();
        if let Some(o) = other {
            counters.insert(OTHER_CPUS.to_string(), o);
            counters.insert(STEAL_CPUS.to_string(), 0.25);
        }
        let case = crate::testkit::synthetic::case("s", "tiny");
        Sample {
            counters,
            ..crate::record::failed("v", &case, 0, 0, false, 1.0, String::new())
        }
    }

    #[test]
    fn a_night_is_busy_when_other_processes_kept_more_than_half_a_cpu_busy() {
        let quiet = summarize(&[sample(Some(0.1)), sample(Some(0.3)), sample(None)]).unwrap();
        assert_eq!(quiet.samples, 2);
        assert!((quiet.mean_other_cpus - 0.2).abs() < 1e-9);
        assert!((quiet.max_other_cpus - 0.3).abs() < 1e-9);
        assert!((quiet.mean_steal_cpus - 0.25).abs() < 1e-9);
        assert!(!quiet.busy);
        let busy = summarize(&[sample(Some(0.2)), sample(Some(1.9))]).unwrap();
        assert!(busy.busy, "{busy:?}");
        assert!(busy.to_string().contains("1.05 CPUs busy on average"), "{busy}");
        assert_eq!(summarize(&[sample(None)]), None, "no sample carries the counters");
    }

    /// A process spinning beside a sleeping child shows as about one CPU of
    /// other work; the spinner is in its own process group, ended by its id.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_spinning_neighbour_shows_as_other_work() {
        use std::os::unix::process::CommandExt;
        let mut spin = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .process_group(0)
            .spawn()
            .expect("start a busy loop");
        std::thread::sleep(std::time::Duration::from_millis(200));
        let job = crate::exec::Job {
            program: "sleep".into(),
            args: vec!["1".into()],
            env: Vec::new(),
            timeout: std::time::Duration::from_secs(10),
            sample_every: None,
            stdout: None,
        };
        let o = crate::exec::run(&job);
        // SAFETY: signals only the busy loop's own process group, by id.
        unsafe { libc::killpg(spin.id() as i32, libc::SIGKILL) };
        let _ = spin.wait();
        let load = o.expect("sleep runs").host.expect("Linux has the counters");
        assert!(load.other_cpus > 0.5, "{load:?}");
    }
}
