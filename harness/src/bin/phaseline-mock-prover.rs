//! `phaseline-mock-prover`: a test double of the runner `phaseline-prover`.
//! It speaks the runner's command line (`info --json`, `synth`, `prove`,
//! `setup`, `--json FILE`) and writes records with chosen timings instead of
//! proving, so every harness command can be tested end to end in seconds.
//!
//! Behaviour comes from a JSON spec named by `PHASELINE_MOCK_SPEC` (defaults
//! without it); every record carries the spec it followed under `mock`.
//! Its features are the ones the harness expects (`PHASELINE_EXPECT_FEATURES`).

use clap::Parser;
use phaseline::testkit::mock_runner::{self, MockCase, MockSpec};
use phaseline_record::{Backend, CaseArgs, Mode, RunnerArgs, RunnerInfo};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The runner protocol's command line (`phaseline_record::RunnerArgs`), and nothing else.
#[derive(Parser)]
#[command(name = "phaseline-mock-prover", about = "Test double of phaseline-prover")]
struct Cli {
    #[command(subcommand)]
    cmd: RunnerArgs,
}

/// The spec named by `PHASELINE_MOCK_SPEC`, else `NAME.mock-spec.json` or
/// `mock-spec.json` beside this binary (so copies of the mock can be different
/// runners: a night's reference and candidate in a runner cache, or one runner
/// per feature set in a folder of prebuilt runners), else the defaults.
fn spec() -> MockSpec {
    let beside = std::env::current_exe().ok().and_then(|e| {
        let dir = e.parent()?;
        let own = dir.join(format!("{}.mock-spec.json", e.file_name()?.to_string_lossy()));
        [own, dir.join("mock-spec.json")].into_iter().find(|p| p.is_file())
    });
    match std::env::var_os("PHASELINE_MOCK_SPEC").map(PathBuf::from).or(beside) {
        None => MockSpec::default(),
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

fn features(s: &MockSpec) -> Vec<String> {
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

fn fingerprint(s: &MockSpec, feats: &[String]) -> String {
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

/// Writes the model's records of `case` (see `phaseline::testkit::mock_runner`)
/// to `json` or stdout, after the behaviours that are side effects.
fn run(s: &MockSpec, case: &MockCase, json: Option<&Path>) {
    let feats = features(s);
    if let Some(p) = &s.pid_file {
        let line = format!("{}\n", std::process::id());
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .and_then(|mut f| f.write_all(line.as_bytes()));
    }
    match s.behaviour() {
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
    let fp = fingerprint(s, &feats);
    let fresh = if s.fresh_noise {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
            ^ u64::from(std::process::id())
    } else {
        0
    };
    let recs = mock_runner::records(s, case, &feats, &fp, fresh).unwrap_or_else(|e| fail(&e));
    let mut out: Box<dyn Write> = match json {
        Some(p) => Box::new(std::fs::File::create(p).unwrap_or_else(|e| fail(&e.to_string()))),
        None => Box::new(std::io::stdout()),
    };
    for r in recs {
        if s.sleep {
            std::thread::sleep(std::time::Duration::from_secs_f64(r.phases_ms / 1e3));
        }
        writeln!(out, "{}", r.json).unwrap_or_else(|e| fail(&e.to_string()));
        out.flush().unwrap_or_else(|e| fail(&e.to_string()));
    }
}

/// The backend asked for (default: the runner's first), refused when the spec's backends lack it.
fn backend(s: &MockSpec, asked: Option<Backend>) -> Backend {
    let backends = s.backends();
    let b = asked.unwrap_or(backends[0]);
    if !backends.contains(&b) {
        fail(&format!("backend `{b}` is not one of this runner's"));
    }
    b
}

fn delays(list: &[String]) -> BTreeMap<String, f64> {
    let mut delays = BTreeMap::new();
    for d in list {
        let (p, ms) = d
            .split_once('=')
            .unwrap_or_else(|| fail("--inject-delay wants PHASE=MS"));
        delays.insert(p.to_string(), ms.parse::<f64>().unwrap_or_else(|_| fail("bad delay")));
    }
    delays
}

fn case_of(mode: Mode, c: &CaseArgs, backend: Backend) -> MockCase {
    MockCase {
        mode,
        backend,
        circuit: c.circuit.clone(),
        partitions: c.partitions,
        warmup: c.warmup,
        reps: c.reps,
        seed: c.seed,
        delays: delays(&c.inject_delay),
    }
}

fn main() {
    if let Some(p) = &spec().args_file {
        let line: Vec<String> = std::env::args().skip(1).collect();
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .and_then(|mut f| f.write_all(format!("{}\n", line.join(" ")).as_bytes()));
    }
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
                backends: s.backends(),
                makes_params: !s.no_params,
            };
            println!(
                "{}",
                serde_json::to_string(&info).unwrap_or_else(|e| fail(&e.to_string()))
            );
        }
        RunnerArgs::Synth(c) => run(&spec(), &case_of(Mode::Synth, &c, Backend::Cpu), c.json.as_deref()),
        RunnerArgs::Prove(p) => {
            let s = spec();
            if let Some(m) = &p.mem_budget {
                if let Err(why) = phaseline_record::parse_size(m) {
                    fail(&format!("--mem-budget `{m}`: {why}"));
                }
            }
            if p.params_store == Some(phaseline_record::ParamsStore::Memory) && s.no_params {
                fail("--params-store memory: this runner makes no parameters");
            }
            let b = backend(&s, p.backend);
            run(&s, &case_of(Mode::Prove, &p.case, b), p.case.json.as_deref())
        }
        RunnerArgs::Setup(_) if spec().no_params => fail("this runner makes no parameter files"),
        // The harness's parameter making before a measurement: nothing to make.
        RunnerArgs::Setup(a) if a.if_missing => println!("mock parameters for `{}` ready", a.circuit),
        // A measured setup: one record.
        RunnerArgs::Setup(a) => {
            let s = spec();
            let asked = a
                .backend
                .as_deref()
                .map(|b| b.parse::<Backend>().unwrap_or_else(|e| fail(&e)));
            let case = MockCase {
                mode: Mode::Setup,
                backend: backend(&s, asked),
                circuit: a.circuit.clone(),
                partitions: 1,
                warmup: 0,
                reps: 1,
                // A setup takes no seed: the output file's name (`rec-N.jsonl`, one a
                // process of the run) gives each its own, reproducible noise.
                seed: mock_runner::salt(
                    a.json
                        .iter()
                        .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned())),
                ),
                delays: BTreeMap::new(),
            };
            run(&s, &case, a.json.as_deref())
        }
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
