//! `phaseline-mock-prover`: a test double of the runner `phaseline-prover`.
//! It speaks the runner's command line (`info --json`, `synth`, `prove`,
//! `setup`, `--json FILE`) and writes records with chosen timings instead of
//! proving, so every harness command can be tested end to end in seconds.
//!
//! Behaviour comes from a JSON spec named by `PHASELINE_MOCK_SPEC` (defaults
//! without it); every record carries the spec it followed under `mock`.
//! Its features are the ones the harness expects (`PHASELINE_EXPECT_FEATURES`).

use clap::Parser;
use phaseline_record::{Backend, CaseArgs, CircuitInfo, Mode, Phase, RecordHead, RunnerArgs, RunnerInfo};
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// The runner protocol's command line (`phaseline_record::RunnerArgs`), and nothing else.
#[derive(Parser)]
#[command(name = "phaseline-mock-prover", about = "Test double of phaseline-prover")]
struct Cli {
    #[command(subcommand)]
    cmd: RunnerArgs,
}

/// What the mock does.
#[derive(Clone, Debug, Default, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
struct Spec {
    /// Phase -> median ms at the `tiny` preset (defaults: a prover-like set).
    phases: BTreeMap<String, f64>,
    /// Relative standard deviation of every phase (default 0.01).
    noise: Option<f64>,
    /// Feature -> phase -> multiplicative factor.
    effects: BTreeMap<String, BTreeMap<String, f64>>,
    /// Feature -> phase that, with the feature, runs on a second lane beside the phase before
    /// it (starting with it), as `par-bg2` runs B_G2 beside the GPU's MSMs.
    concurrent: BTreeMap<String, String>,
    seed: u64,
    /// `ok`, `crash`, `hang`, `missing_phase`, `garbage`, `setsid` (leaves a
    /// `sleep 600` in a session of its own, then works as `ok`).
    behaviour: Option<String>,
    /// The phase left out in `missing_phase`.
    missing_phase: Option<String>,
    /// Report this fingerprint ...
    fingerprint: Option<String>,
    /// ... or the one a checkout at this root would give for the features.
    fingerprint_root: Option<PathBuf>,
    /// Really sleep each phase's duration.
    sleep: bool,
    /// Mix the clock into the seed: independent noise in every process.
    fresh_noise: bool,
    /// Factor on every phase of a process's first iteration (a cold start).
    cold_factor: Option<f64>,
    /// Append this process's pid to this file (tests find the runners they must see ended).
    pid_file: Option<PathBuf>,
    /// The backends it says it runs (default: `cpu`); e.g. `["supraseal"]` to stand for an anchor.
    backends: Option<Vec<Backend>>,
    /// The features it was "built with", instead of the ones the harness expects (a prebuilt runner).
    features: Option<Vec<String>>,
    /// Say it makes no parameter files (as an anchor).
    no_params: bool,
}

/// The spec named by `PHASELINE_MOCK_SPEC`, else `NAME.mock-spec.json` or
/// `mock-spec.json` beside this binary (so copies of the mock can be different
/// runners: a night's reference and candidate in a runner cache, or one runner
/// per feature set in a folder of prebuilt runners), else the defaults.
fn spec() -> Spec {
    let beside = std::env::current_exe().ok().and_then(|e| {
        let dir = e.parent()?;
        let own = dir.join(format!("{}.mock-spec.json", e.file_name()?.to_string_lossy()));
        [own, dir.join("mock-spec.json")].into_iter().find(|p| p.is_file())
    });
    match std::env::var_os("PHASELINE_MOCK_SPEC").map(PathBuf::from).or(beside) {
        None => Spec::default(),
        Some(p) => {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| fail(&format!("cannot read spec: {e}")));
            serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("bad spec: {e}")))
        }
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("mock: {msg}");
    std::process::exit(1)
}

fn features(s: &Spec) -> Vec<String> {
    let mut f: Vec<String> = match &s.features {
        Some(f) => f.clone(),
        None => std::env::var("PHASELINE_EXPECT_FEATURES")
            .unwrap_or_default()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect(),
    };
    f.sort();
    f
}

fn fingerprint(s: &Spec, feats: &[String]) -> String {
    if let Some(fp) = &s.fingerprint {
        return fp.clone();
    }
    if let Some(root) = &s.fingerprint_root {
        let key = phaseline_fingerprint::BuildKey {
            features: feats.to_vec(),
            profile: "release".into(),
            cuda_archs: String::new(),
        };
        return phaseline_fingerprint::fingerprint(root, &key).unwrap_or_else(|e| fail(&e.to_string()));
    }
    format!("mock-{}", feats.join("+"))
}

/// SplitMix64: a small seeded generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.next().max(1e-12), self.next());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// The phases a runner of `backend` records, with their median ms at `tiny`:
/// what the protocol requires (`phaseline_record::required`), nested as ours nests them.
fn default_phases(mode: Mode, backend: Backend, feats: &[String]) -> Vec<(&'static str, Option<&'static str>, f64)> {
    let mut v = vec![("synthesis", None, 50.0)];
    if mode != Mode::Prove {
        return v;
    }
    match backend {
        Backend::Supraseal => v.push(("supraseal_prove", None, 120.0)),
        Backend::Bellperson => v = vec![("bellperson_prove", None, 250.0)],
        Backend::Cpu | Backend::Cuda => {
            if backend == Backend::Cuda {
                v.push(("msm_prep", None, 6.0));
                if feats.iter().any(|f| f == "pin") {
                    v.push(("pin", None, 4.0));
                }
                v.push(("h2d", None, 3.0));
            }
            v.extend([
                ("ntt_h", None, 24.0),
                ("intt", Some("ntt_h"), 8.0),
                ("coset_ntt", Some("ntt_h"), 8.0),
                ("coset_intt", Some("ntt_h"), 8.0),
                ("msm_h", None, 30.0),
                ("msm_l", None, 40.0),
            ]);
            if backend == Backend::Cuda {
                v.extend([("batch_add", Some("msm_l"), 25.0), ("tail_msm", Some("msm_l"), 10.0)]);
            }
            v.extend([
                ("msm_a", None, 35.0),
                ("msm_b_g1", None, 15.0),
                ("msm_b_g2", None, 45.0),
            ]);
            if backend == Backend::Cuda {
                v.push(("b_g2", Some("msm_b_g2"), 40.0));
            }
            v.push(("assemble", None, 2.0));
        }
    }
    v.push(("verify", None, 10.0));
    v
}

/// As the prover: a preset (with an optional `-mixN`) or a real circuit; anything else is refused.
fn scale(circuit: &str) -> f64 {
    let preset = circuit.split("-mix").next().unwrap_or(circuit);
    match preset {
        "tiny" => 1.0,
        "small" => 10.0,
        "medium" | "large" | "xl" | "xxl" | "sha-32g" | "porep-32g" => 100.0,
        _ if circuit.starts_with("porep-real:") => 100.0,
        _ => fail(&format!("unknown circuit preset `{circuit}`")),
    }
}

fn run(mode: Mode, c: &CaseArgs, backend: Backend) {
    let s = spec();
    let feats = features(&s);
    let behaviour = s.behaviour.clone().unwrap_or_else(|| "ok".into());
    if let Some(p) = &s.pid_file {
        let line = format!("{}\n", std::process::id());
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .and_then(|mut f| f.write_all(line.as_bytes()));
    }
    match behaviour.as_str() {
        "setsid" => {
            // A child that leaves the process group (as `setsid sleep` does): the
            // group id cannot end it, the harness must find it by other means.
            use std::os::unix::process::CommandExt;
            let mut c = std::process::Command::new("sleep");
            c.arg("600");
            // SAFETY: setsid is async-signal-safe and only affects the child.
            unsafe {
                c.pre_exec(|| {
                    libc::setsid();
                    Ok(())
                });
            }
            let _ = c.spawn();
        }
        "crash" => {
            eprintln!("mock: simulated crash in synthesis");
            std::process::exit(3);
        }
        "hang" => {
            // A grandchild in the same process group: ending the group must end it too.
            let _child = std::process::Command::new("sleep").arg("600").spawn();
            std::thread::sleep(std::time::Duration::from_secs(600));
        }
        _ => {}
    }
    let mut delays = BTreeMap::new();
    for d in &c.inject_delay {
        let (p, ms) = d
            .split_once('=')
            .unwrap_or_else(|| fail("--inject-delay wants PHASE=MS"));
        delays.insert(p.to_string(), ms.parse::<f64>().unwrap_or_else(|_| fail("bad delay")));
    }
    let fp = fingerprint(&s, &feats);
    let mut out: Box<dyn Write> = match &c.json {
        Some(p) => Box::new(std::fs::File::create(p).unwrap_or_else(|e| fail(&e.to_string()))),
        None => Box::new(std::io::stdout()),
    };
    let feat_salt: u64 = feats
        .iter()
        .flat_map(|f| f.bytes())
        .fold(7, |a, b| a.wrapping_mul(31).wrapping_add(b as u64));
    let fresh = if s.fresh_noise {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
            ^ u64::from(std::process::id())
    } else {
        0
    };
    let mut rng = Rng(s.seed ^ c.seed.wrapping_mul(0x1000_0000_01B3) ^ feat_salt ^ fresh);
    let noise = s.noise.unwrap_or(0.01);
    for rep in 0..c.warmup + c.reps {
        let mut phases = Vec::new();
        let (mut t, mut prev_start) = (0.0, 0.0);
        for (name, parent, base) in default_phases(mode, backend, &feats) {
            if behaviour == "missing_phase" && s.missing_phase.as_deref().unwrap_or("synthesis") == name {
                continue;
            }
            let mut ms = s.phases.get(name).copied().unwrap_or(base) * scale(&c.circuit) * c.partitions as f64;
            for f in &feats {
                ms *= s.effects.get(f).and_then(|e| e.get(name)).copied().unwrap_or(1.0);
            }
            if rep == 0 {
                ms *= s.cold_factor.unwrap_or(1.0);
            }
            ms = (ms * (1.0 + noise * rng.normal())).max(0.0) + delays.get(name).copied().unwrap_or(0.0);
            if s.sleep {
                std::thread::sleep(std::time::Duration::from_secs_f64(ms / 1e3));
            }
            let beside = parent.is_none() && feats.iter().any(|f| s.concurrent.get(f).is_some_and(|p| p == name));
            let (start, lane) = match (parent, beside) {
                (Some(_), _) => (t - ms, "main"),
                (None, true) => (prev_start, "side"),
                (None, false) => (t, "main"),
            };
            phases.push(Phase {
                name: name.into(),
                parent: parent.map(String::from),
                start_ms: start,
                ms,
                thread: lane.into(),
                extra: Default::default(),
            });
            if parent.is_none() {
                prev_start = start;
                t = f64::max(t, start + ms);
            }
        }
        let rec = if behaviour == "garbage" {
            json!({"schema_version": 1, "mode": mode})
        } else {
            let mut head = RecordHead::new(mode, backend, feats.clone(), fp.clone(), "mock".into());
            head.rep = rep;
            head.warmup = rep < c.warmup;
            head.circuit = CircuitInfo {
                name: c.circuit.clone(),
                partitions: c.partitions,
                constraints: 1000,
                ..Default::default()
            };
            head.phases = phases;
            head.set_totals(t + 0.5);
            head.verified = (mode == Mode::Prove).then_some(true);
            let mut rec = serde_json::to_value(&head).unwrap_or_else(|e| fail(&e.to_string()));
            let own = json!({
                "allocations": 1000, "reallocations": 10, "allocated_bytes": 4096, "peak_rss_bytes": 1 << 20,
                "injected_delays": delays, "mock": s,
            });
            if let (Some(r), serde_json::Value::Object(o)) = (rec.as_object_mut(), own) {
                r.extend(o);
            }
            rec
        };
        writeln!(out, "{rec}").unwrap_or_else(|e| fail(&e.to_string()));
        out.flush().unwrap_or_else(|e| fail(&e.to_string()));
    }
}

fn main() {
    match Cli::parse().cmd {
        RunnerArgs::Info(_) => {
            let s = spec();
            let feats = features(&s);
            let info = RunnerInfo {
                schema_version: phaseline_record::SCHEMA_VERSION,
                package_version: "mock".into(),
                fingerprint: fingerprint(&s, &feats),
                features: feats,
                profile: "release".into(),
                git_commit: "mock".into(),
                cuda_archs: String::new(),
                backends: s.backends.clone().unwrap_or_else(|| vec![Backend::Cpu]),
                makes_params: !s.no_params,
            };
            println!(
                "{}",
                serde_json::to_string(&info).unwrap_or_else(|e| fail(&e.to_string()))
            );
        }
        RunnerArgs::Synth(c) => run(Mode::Synth, &c, Backend::Cpu),
        RunnerArgs::Prove(p) => {
            let s = spec();
            let backends = s.backends.unwrap_or_else(|| vec![Backend::Cpu]);
            let b = p.backend.unwrap_or(backends[0]);
            if !backends.contains(&b) {
                fail(&format!("backend `{b}` is not one of this runner's"));
            }
            run(Mode::Prove, &p.case, b)
        }
        RunnerArgs::Setup(_) if spec().no_params => fail("this runner makes no parameter files"),
        RunnerArgs::Setup(a) => println!("mock parameters for `{}` ready", a.circuit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every invocation the harness can make parses back to itself here.
    #[test]
    fn speaks_the_protocol_command_line() {
        for a in RunnerArgs::examples() {
            let argv = std::iter::once("mock".into()).chain(a.to_argv());
            assert_eq!(Cli::try_parse_from(argv).unwrap().cmd, a);
        }
    }
}
