//! The runner's command line as the harness speaks it: built here as a value,
//! turned into argv by [`RunnerArgs::to_argv`], and parsed by every runner
//! from these same structs (feature `cli`, clap), so a renamed flag fails to
//! compile instead of failing at run time. A runner may add flags of its own
//! beside them (`#[command(flatten)]`).

use crate::mode::Backend;
use std::ffi::OsString;
use std::path::PathBuf;

/// What one case of a measurement runs: preset, size, repetitions, seed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct CaseArgs {
    /// Circuit preset (tiny, small, medium, large, xl, xxl, sha-32g, porep-32g;
    /// with a scalar mix `-mixN` or `-mixObB[dD]`, docs/presets.md) or a real
    /// PoRep circuit, porep-real:2KiB|8MiB|512MiB.
    #[cfg_attr(feature = "cli", arg(long, default_value = "tiny"))]
    pub circuit: String,
    /// Circuits of one shape proved in one batch.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub partitions: usize,
    /// Measured repetitions in this process.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub reps: usize,
    /// Repetitions recorded with `warmup: true` before the measured ones.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 0))]
    pub warmup: usize,
    /// Witness seed (the shape does not depend on it).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// JSON Lines output, one record per repetition (default: stdout).
    #[cfg_attr(feature = "cli", arg(long))]
    pub json: Option<PathBuf>,
    /// Harness self-test only: sleep MS milliseconds inside PHASE (PHASE=MS).
    #[cfg_attr(feature = "cli", arg(long = "inject-delay", value_name = "PHASE=MS"))]
    pub inject_delay: Vec<String>,
}

impl Default for CaseArgs {
    fn default() -> Self {
        CaseArgs {
            circuit: "tiny".into(),
            partitions: 1,
            reps: 1,
            warmup: 0,
            seed: 1,
            json: None,
            inject_delay: Vec::new(),
        }
    }
}

/// What a prove run does with parameters it has to make (none cached, none
/// given): write them to the cache, or keep them in this process's memory
/// only, so a host without the file needs no disk for it (about 47 GB at
/// 32 GiB sectors). A file that is there is read either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ParamsStore {
    #[default]
    Cache,
    Memory,
}

impl ParamsStore {
    pub fn as_str(self) -> &'static str {
        match self {
            ParamsStore::Cache => "cache",
            ParamsStore::Memory => "memory",
        }
    }
}

/// Bytes from `SIZE`: a whole number, optionally with a unit (`500MiB`,
/// `64GiB`, `2GB` in powers of 1000, `8G` = `8GiB`); zero is refused. The one
/// parser of sizes: the runner's `--mem-budget` and the harness's config.
pub fn parse_size(s: &str) -> Result<u64, String> {
    const UNITS: &[(&str, u64)] = &[
        ("KiB", 1 << 10),
        ("MiB", 1 << 20),
        ("GiB", 1 << 30),
        ("TiB", 1 << 40),
        ("KB", 1_000),
        ("MB", 1_000_000),
        ("GB", 1_000_000_000),
        ("TB", 1_000_000_000_000),
        ("K", 1 << 10),
        ("M", 1 << 20),
        ("G", 1 << 30),
        ("T", 1 << 40),
        ("B", 1),
    ];
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    if num.is_empty() {
        return Err("wants a whole number of bytes, optionally with a unit (500MiB, 64GiB)".into());
    }
    let unit = unit.trim();
    let mult = if unit.is_empty() {
        1
    } else {
        UNITS
            .iter()
            .find(|(u, _)| u.eq_ignore_ascii_case(unit))
            .map(|(_, m)| *m)
            .ok_or("unknown unit (B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)")?
    };
    let n: u64 = num.parse().map_err(|_| "number too large")?;
    let bytes = n.checked_mul(mult).ok_or("more bytes than fit in 64 bits")?;
    if bytes == 0 {
        return Err("must be more than zero bytes".into());
    }
    Ok(bytes)
}

/// `prove`: a case on one backend with the parameters of a directory.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct ProveArgs {
    #[cfg_attr(feature = "cli", command(flatten))]
    pub case: CaseArgs,
    /// Proving backend (default: the runner's first, see `info --json`).
    #[cfg_attr(feature = "cli", arg(long, value_enum))]
    pub backend: Option<Backend>,
    /// Parameter directory (default: $PHASELINE_PARAMS_DIR, then ./params).
    #[cfg_attr(feature = "cli", arg(long))]
    pub params_dir: Option<PathBuf>,
    /// Skip verification of the proofs.
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_verify: bool,
    /// Parameters this run has to make: written to the cache (`cache`, the
    /// default) or kept in memory only (`memory`: no parameter or shape file
    /// written). A runner that makes no parameters refuses `memory`.
    #[cfg_attr(feature = "cli", arg(long, value_enum))]
    pub params_store: Option<ParamsStore>,
    /// Partitions pipelined, with as many in flight as SIZE holds (bytes, or
    /// with a unit: 500MiB, 64GiB, 2GB), measured from the first synthesized
    /// partition. A runner that cannot pipeline refuses it.
    #[cfg_attr(feature = "cli", arg(long, value_name = "SIZE", allow_hyphen_values = true))]
    pub mem_budget: Option<String>,
}

/// `setup`: make (or keep) the parameters of a preset.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct SetupArgs {
    #[cfg_attr(feature = "cli", arg(long, default_value = "tiny"))]
    pub circuit: String,
    /// Parameter directory (default: $PHASELINE_PARAMS_DIR, then ./params).
    #[cfg_attr(feature = "cli", arg(long))]
    pub params_dir: Option<PathBuf>,
    /// Keep cached parameters that pass their check; make them only when absent.
    #[cfg_attr(feature = "cli", arg(long))]
    pub if_missing: bool,
    /// Who makes the parameters: a backend's name (`cpu`, `cuda`; `bellperson`
    /// for its generator), or a runner's own finer choice (ours: `cuda:BITS`,
    /// `cpu-projective`). Default: the runner's first backend.
    #[cfg_attr(feature = "cli", arg(long))]
    pub backend: Option<String>,
    /// JSON Lines output: one record of the setup (default: stdout).
    #[cfg_attr(feature = "cli", arg(long))]
    pub json: Option<PathBuf>,
}

impl SetupArgs {
    /// A measured setup of `circuit` by `backend` into `params_dir`, its record to `json`.
    pub fn measured(circuit: &str, backend: Backend, params_dir: PathBuf, json: PathBuf) -> SetupArgs {
        SetupArgs {
            circuit: circuit.into(),
            params_dir: Some(params_dir),
            if_missing: false,
            backend: Some(backend.as_str().into()),
            json: Some(json),
        }
    }
}

/// `info`: the runner's self-description.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct InfoArgs {
    /// As JSON ([`crate::RunnerInfo`]).
    #[cfg_attr(feature = "cli", arg(long))]
    pub json: bool,
}

/// One runner invocation the harness makes (with `cli`, also a clap
/// subcommand: a runner with no commands of its own parses exactly this).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "cli", derive(clap::Subcommand))]
pub enum RunnerArgs {
    Synth(CaseArgs),
    Prove(ProveArgs),
    Setup(SetupArgs),
    Info(InfoArgs),
}

fn flag(v: &mut Vec<OsString>, name: &str, value: impl Into<OsString>) {
    v.push(name.into());
    v.push(value.into());
}

impl CaseArgs {
    fn push(&self, v: &mut Vec<OsString>) {
        flag(v, "--circuit", &self.circuit);
        flag(v, "--partitions", self.partitions.to_string());
        flag(v, "--reps", self.reps.to_string());
        flag(v, "--warmup", self.warmup.to_string());
        flag(v, "--seed", self.seed.to_string());
        if let Some(j) = &self.json {
            flag(v, "--json", j);
        }
        for d in &self.inject_delay {
            flag(v, "--inject-delay", d);
        }
    }
}

impl RunnerArgs {
    /// The subcommand's name.
    pub fn command(&self) -> &'static str {
        match self {
            RunnerArgs::Synth(_) => "synth",
            RunnerArgs::Prove(_) => "prove",
            RunnerArgs::Setup(_) => "setup",
            RunnerArgs::Info(_) => "info",
        }
    }

    /// The arguments after the program name.
    pub fn to_argv(&self) -> Vec<OsString> {
        let mut v: Vec<OsString> = vec![self.command().into()];
        match self {
            RunnerArgs::Synth(c) => c.push(&mut v),
            RunnerArgs::Prove(p) => {
                p.case.push(&mut v);
                if let Some(b) = p.backend {
                    flag(&mut v, "--backend", b.as_str());
                }
                if let Some(d) = &p.params_dir {
                    flag(&mut v, "--params-dir", d);
                }
                if p.no_verify {
                    v.push("--no-verify".into());
                }
                if let Some(s) = p.params_store {
                    flag(&mut v, "--params-store", s.as_str());
                }
                if let Some(b) = &p.mem_budget {
                    flag(&mut v, "--mem-budget", b);
                }
            }
            RunnerArgs::Setup(s) => {
                flag(&mut v, "--circuit", &s.circuit);
                if let Some(d) = &s.params_dir {
                    flag(&mut v, "--params-dir", d);
                }
                if s.if_missing {
                    v.push("--if-missing".into());
                }
                if let Some(b) = &s.backend {
                    flag(&mut v, "--backend", b);
                }
                if let Some(j) = &s.json {
                    flag(&mut v, "--json", j);
                }
            }
            RunnerArgs::Info(i) => {
                if i.json {
                    v.push("--json".into());
                }
            }
        }
        v
    }

    /// Examples covering every flag, for the runners' own round-trip tests
    /// (each parses these argv with its clap command line and must get them back).
    pub fn examples() -> Vec<RunnerArgs> {
        let case = CaseArgs {
            circuit: "porep-real:2KiB".into(),
            partitions: 3,
            reps: 4,
            warmup: 2,
            seed: 99,
            json: Some("out dir/r.jsonl".into()),
            inject_delay: vec!["msm_l=1.5".into(), "ntt_h=2".into()],
        };
        vec![
            RunnerArgs::Synth(CaseArgs::default()),
            RunnerArgs::Synth(case.clone()),
            RunnerArgs::Prove(ProveArgs {
                case,
                backend: Some(Backend::Cuda),
                params_dir: Some("p".into()),
                no_verify: true,
                params_store: Some(ParamsStore::Memory),
                mem_budget: Some("40GiB".into()),
            }),
            RunnerArgs::Prove(ProveArgs {
                case: CaseArgs::default(),
                backend: None,
                params_dir: None,
                no_verify: false,
                params_store: None,
                mem_budget: None,
            }),
            RunnerArgs::Setup(SetupArgs {
                circuit: "medium".into(),
                params_dir: Some("p".into()),
                if_missing: true,
                backend: None,
                json: None,
            }),
            RunnerArgs::Setup(SetupArgs::measured(
                "small",
                Backend::Cuda,
                "p q".into(),
                "out dir/s.jsonl".into(),
            )),
            RunnerArgs::Setup(SetupArgs {
                circuit: "tiny".into(),
                backend: Some("cuda:13".into()),
                ..SetupArgs::default()
            }),
            RunnerArgs::Info(InfoArgs { json: true }),
        ]
    }
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;
    use clap::Parser;

    /// The smallest runner command line: the shared commands and nothing else.
    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        cmd: RunnerArgs,
    }

    fn parse(a: &RunnerArgs) -> RunnerArgs {
        let argv = std::iter::once(OsString::from("runner")).chain(a.to_argv());
        Cli::try_parse_from(argv).unwrap().cmd
    }

    #[test]
    fn argv_round_trips_through_the_shared_command_line() {
        for a in RunnerArgs::examples() {
            assert_eq!(parse(&a), a, "{:?}", a.to_argv());
        }
    }

    #[test]
    fn defaults_match_the_command_line_defaults() {
        let a = parse(&RunnerArgs::Synth(CaseArgs::default()));
        assert_eq!(a, RunnerArgs::Synth(CaseArgs::default()));
        let s = Cli::try_parse_from(["runner", "setup"]).unwrap();
        assert!(matches!(s.cmd, RunnerArgs::Setup(SetupArgs { ref circuit, .. }) if circuit == "tiny"));
    }
}
