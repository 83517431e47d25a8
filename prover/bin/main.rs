//! `phaseline-prover`: the runner the harness builds once per feature set.

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use phaseline_prover::alloc_count::CountingAlloc;
use phaseline_prover::groth16::params::PARAMS_DIR_ENV;
use phaseline_prover::mem_budget::MemBudget;
use phaseline_prover::pipeline::{Depth, DEFAULT_DEPTH};
use phaseline_prover::record::Record;
use phaseline_prover::run::{run_prove, run_synth, RunOpts};
use phaseline_prover::setup::runner::{run_setup, Generator, SetupOpts};
use phaseline_prover::{build_info, real, ProverError};
use phaseline_record::{Backend, CaseArgs, InfoArgs, ProveArgs, SetupArgs};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

#[derive(Parser)]
#[command(
    name = "phaseline-prover",
    version,
    about = "Groth16 prover with per-phase timings as data"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Synthesis only.
    Synth(Common),
    /// Synthesis, proving and verification.
    Prove(ProverProve),
    /// Make and cache the parameters of a preset.
    Setup(ProverSetup),
    /// Seal seeded random data and write its C1 output (filecoin-proofs' JSON).
    C1(C1Args),
    /// Build facts: features, fingerprint, commit, backends (`--json`: the protocol's runner info).
    Info(InfoArgs),
}

/// A case as the harness asks for it (the runner protocol's `CaseArgs`), and
/// a real circuit's C1 file.
#[derive(Args, Clone)]
struct Common {
    #[command(flatten)]
    case: CaseArgs,
    /// Prove the real circuit of this C1 output: filecoin-proofs' JSON of
    /// `SealCommitPhase1Output` or the lotus-bench / curio C2 input file.
    #[arg(long, value_name = "FILE")]
    c1: Option<PathBuf>,
}

#[derive(Args)]
struct ProverProve {
    #[command(flatten)]
    shared: ProveArgs,
    /// Prove the real circuit of this C1 output (see `synth --c1`).
    #[arg(long, value_name = "FILE")]
    c1: Option<PathBuf>,
    /// Use this parameter file instead of the cache.
    #[arg(long)]
    params: Option<PathBuf>,
    /// Test hook (`--backend cuda`): request one extra device allocation of
    /// BYTES per batch, to check that a CUDA failure surfaces as an error.
    #[arg(long, value_name = "BYTES", default_value_t = 0)]
    inject_gpu_alloc: u64,
    /// Partitions pipelined (`on`: each proven while the next is synthesized,
    /// at most 2 in flight unless --mem-budget says otherwise) or all
    /// synthesized first and proven as one batch (`off`, the default
    /// without --mem-budget).
    #[arg(long, value_enum)]
    pipeline: Option<PipelineMode>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PipelineMode {
    Off,
    On,
}

impl ProverProve {
    /// The run's pipeline (`RunOpts::pipeline`): `None` for the batch path.
    fn pipeline(&self, backend: Backend) -> Result<Option<Depth>> {
        let budget = self
            .shared
            .mem_budget
            .as_deref()
            .map(str::parse::<MemBudget>)
            .transpose()?;
        let depth = match (self.pipeline, budget) {
            (Some(PipelineMode::Off), Some(_)) => bail!("--mem-budget pipelines the partitions: drop --pipeline off"),
            (_, Some(b)) => Some(Depth::Budget(b)),
            (Some(PipelineMode::On), None) => Some(Depth::Fixed(DEFAULT_DEPTH)),
            (Some(PipelineMode::Off) | None, None) => None,
        };
        if depth.is_some() && backend == Backend::Bellperson {
            bail!("--pipeline and --mem-budget apply to our engines (cpu, cuda): bellperson proves every partition in one call");
        }
        Ok(depth)
    }
}

#[derive(Args)]
struct C1Args {
    /// Sector size: 2KiB, 8MiB or 512MiB.
    #[arg(long)]
    sector_size: String,
    /// Output file (written atomically).
    #[arg(long)]
    out: PathBuf,
    /// Seed of the data, prover id, sector id, ticket and challenge seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args)]
struct ProverSetup {
    #[command(flatten)]
    shared: SetupArgs,
    /// Known toxic waste from this seed (tests, reproducible runs); random when absent.
    #[arg(long = "toxic-seed", alias = "seed")]
    toxic_seed: Option<u64>,
    /// Generator: phaseline (ours) or bellperson (its generate_random_parameters;
    /// `--backend bellperson` says the same).
    #[arg(long, default_value = "phaseline")]
    generator: String,
}

impl ProverSetup {
    /// The fixed-base backend of our generator (`--backend`): cpu (default),
    /// cpu-projective, cuda[:BITS] or cuda-host[:BITS] (the GPU code built for
    /// the host: a check, not a fast path); `bellperson` names the other generator.
    fn fixed_base(&self) -> &str {
        self.shared.backend.as_deref().unwrap_or("cpu")
    }

    fn generator(&self) -> Result<Generator> {
        match (self.generator.as_str(), self.fixed_base()) {
            ("phaseline", "bellperson") | ("bellperson", "cpu" | "bellperson") => Ok(Generator::Bellperson),
            ("bellperson", b) => bail!("--generator bellperson has no fixed-base backend: drop --backend {b}"),
            ("phaseline", _) => Ok(Generator::Phaseline),
            (g, _) => bail!("--generator wants phaseline or bellperson, got `{g}`"),
        }
    }
}

/// `setup --if-missing`, and `setup` of a real circuit (whose parameters are
/// made on the proving path): the cached parameters when they pass their
/// check, made and cached otherwise (a real circuit's first removed unless
/// `--if-missing`).
fn ensure_params(s: &ProverSetup) -> anyhow::Result<PathBuf> {
    if s.generator()? != Generator::Phaseline || s.toxic_seed.is_some() {
        bail!(
            "--if-missing and real circuits use our generator with random toxic waste: drop --generator/--toxic-seed"
        );
    }
    let backend = if s.fixed_base().starts_with("cuda") {
        Backend::Cuda
    } else {
        Backend::Cpu
    };
    let o = RunOpts {
        verify: false,
        ..RunOpts::new(&s.shared.circuit, backend, params_dir(s.shared.params_dir.clone()))
    };
    Ok(if s.shared.circuit.starts_with(real::PREFIX) {
        real::setup_real(&o, s.shared.if_missing)?
    } else {
        phaseline_prover::run::params_for(&o)?;
        phaseline_prover::run::params_path(&o)?
    })
}

fn params_dir(arg: Option<PathBuf>) -> PathBuf {
    arg.or_else(|| std::env::var_os(PARAMS_DIR_ENV).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("params"))
}

fn delays(list: &[String]) -> Result<BTreeMap<String, f64>> {
    let mut m = BTreeMap::new();
    for d in list {
        let Some((p, ms)) = d.split_once('=') else {
            bail!("--inject-delay wants PHASE=MS, got `{d}`")
        };
        let ms: f64 = ms
            .parse()
            .with_context(|| format!("--inject-delay {d}: `{ms}` is not a number"))?;
        if !(0.0..=600_000.0).contains(&ms) || p.is_empty() {
            bail!("--inject-delay {d}: needs a phase name and 0 <= MS <= 600000");
        }
        m.insert(p.to_string(), ms);
    }
    Ok(m)
}

fn opts(c: &CaseArgs, backend: Backend, dir: PathBuf, file: Option<PathBuf>, verify: bool) -> Result<RunOpts> {
    if c.reps == 0 {
        bail!("--reps must be at least 1");
    }
    Ok(RunOpts {
        circuit: c.circuit.clone(),
        partitions: c.partitions,
        reps: c.reps,
        warmup: c.warmup,
        backend,
        params_dir: dir,
        params_file: file,
        verify,
        seed: c.seed,
        delays: delays(&c.inject_delay)?,
        inject_gpu_alloc: 0,
        pipeline: None,
        params_store: Default::default(),
    })
}

/// Run options for a real circuit: `--partitions` comes from the sector, and
/// with `--c1` the default circuit name stands for "whatever the file holds".
fn real_opts(mut o: RunOpts, c: &CaseArgs) -> Result<RunOpts> {
    if c.partitions != 1 {
        bail!("--partitions does not apply to real circuits (the sector size fixes it)");
    }
    if !real::is_real(&o.circuit) {
        if o.circuit != "tiny" {
            bail!("--c1 proves a real circuit; --circuit `{}` is a preset", o.circuit);
        }
        o.circuit = real::PREFIX.into();
    }
    Ok(o)
}

/// Writes each record as one JSON line, flushed at once.
struct Sink(Option<BufWriter<File>>);

impl Sink {
    fn open(path: &Option<PathBuf>) -> Result<Self> {
        Ok(Sink(match path {
            Some(p) => Some(BufWriter::new(
                File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
            )),
            None => None,
        }))
    }
    fn put(&mut self, r: Record) -> Result<(), ProverError> {
        let line = serde_json::to_string(&r).map_err(|e| ProverError::InvalidArgument(e.to_string()))?;
        let out: &mut dyn Write = match &mut self.0 {
            Some(w) => w,
            None => &mut std::io::stdout(),
        };
        let io = |e| ProverError::io("record output", e);
        writeln!(out, "{line}").map_err(io)?;
        out.flush().map_err(io)
    }
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = dispatch(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// The backend `prove` was asked for: ours (cpu, cuda) or bellperson's; supraseal-c2 is the anchor's.
fn backend(b: Option<Backend>) -> Result<Backend> {
    match b.unwrap_or(Backend::Cpu) {
        Backend::Supraseal => {
            bail!("--backend supraseal is the anchor runner's (phaseline-anchor-supraseal), not this one")
        }
        b => Ok(b),
    }
}

fn dispatch(cli: Cli) -> Result<()> {
    match cli.cmd {
        Cmd::Info(InfoArgs { json }) => {
            let info = build_info::info();
            if json {
                // writeln, not println: a closed pipe is an error, not a panic.
                writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&info)?).context("stdout")?;
            } else {
                writeln!(
                    std::io::stdout(),
                    "phaseline-prover {} fingerprint {} features [{}]",
                    info.package_version,
                    info.fingerprint,
                    info.features.join(",")
                )
                .context("stdout")?;
            }
        }
        Cmd::Synth(Common { case: c, c1 }) => {
            let o = opts(&c, Backend::Cpu, params_dir(None), None, false)?;
            let mut sink = Sink::open(&c.json)?;
            if c1.is_some() || real::is_real(&c.circuit) {
                let o = real_opts(o, &c)?;
                real::run_synth_real(&o, c1.as_deref(), &mut |r| sink.put(r))?;
            } else {
                run_synth(&o, &mut |r| sink.put(r))?;
            }
        }
        Cmd::Prove(p) => {
            let c = &p.shared.case;
            let b = backend(p.shared.backend)?;
            let pipeline = p.pipeline(b)?;
            let mut o = opts(
                c,
                b,
                params_dir(p.shared.params_dir.clone()),
                p.params,
                !p.shared.no_verify,
            )?;
            o.inject_gpu_alloc = p.inject_gpu_alloc;
            o.pipeline = pipeline;
            o.params_store = p.shared.params_store.unwrap_or_default();
            let mut sink = Sink::open(&c.json)?;
            if p.c1.is_some() || real::is_real(&c.circuit) {
                let o = real_opts(o, c)?;
                real::run_prove_real(&o, p.c1.as_deref(), &mut |r| sink.put(r))?;
            } else {
                run_prove(&o, &mut |r| sink.put(r))?;
            }
        }
        Cmd::C1(a) => {
            let sector = phaseline_real::Sector::parse(&a.sector_size)?;
            real::make_c1(sector, a.seed, &a.out)?;
        }
        Cmd::Setup(s) if s.shared.if_missing || s.shared.circuit.starts_with(real::PREFIX) => {
            let path = ensure_params(&s)?;
            eprintln!("parameters of `{}`: {}", s.shared.circuit, path.display());
        }
        Cmd::Setup(s) => {
            let generator = s.generator()?;
            let o = SetupOpts {
                circuit: s.shared.circuit.clone(),
                backend: match generator {
                    Generator::Bellperson => "cpu".into(),
                    Generator::Phaseline => s.fixed_base().into(),
                },
                generator,
                params_dir: params_dir(s.shared.params_dir.clone()),
                toxic_seed: s.toxic_seed,
            };
            let mut sink = Sink::open(&s.shared.json)?;
            run_setup(&o, &mut |r| sink.put(r))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use phaseline_record::RunnerArgs;

    /// Every invocation the harness makes parses here into the protocol's structs, unchanged.
    #[test]
    fn speaks_the_protocol_command_line() {
        for a in RunnerArgs::examples() {
            let argv = std::iter::once("phaseline-prover".into()).chain(a.to_argv());
            let got = match Cli::try_parse_from(argv).unwrap().cmd {
                Cmd::Synth(c) => RunnerArgs::Synth(c.case),
                Cmd::Prove(p) => RunnerArgs::Prove(p.shared),
                Cmd::Setup(s) => RunnerArgs::Setup(s.shared),
                Cmd::Info(i) => RunnerArgs::Info(i),
                Cmd::C1(_) => panic!("the harness never asks for c1"),
            };
            assert_eq!(got, a);
        }
    }
}
