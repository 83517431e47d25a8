//! `phaseline-prover`: the runner the harness builds once per feature set.

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use phaseline_prover::alloc_count::CountingAlloc;
use phaseline_prover::groth16::params::PARAMS_DIR_ENV;
use phaseline_prover::record::Record;
use phaseline_prover::run::{run_prove, run_synth, RunOpts};
use phaseline_prover::setup::runner::{run_setup, Generator, SetupOpts};
use phaseline_prover::{build_info, ProverError};
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
    Prove(ProveArgs),
    /// Make and cache the parameters of a preset.
    Setup(SetupArgs),
    /// Build facts: features, fingerprint, commit, backends.
    Info {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Clone)]
struct Common {
    /// Circuit preset: tiny, small, medium, large, xl, xxl, porep-32g.
    #[arg(long, default_value = "tiny")]
    circuit: String,
    #[arg(long, default_value_t = 1)]
    partitions: usize,
    #[arg(long, default_value_t = 1)]
    reps: usize,
    #[arg(long, default_value_t = 0)]
    warmup: usize,
    /// Witness seed (shape does not depend on it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// JSON Lines output, one record per repetition.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Harness self-test only: sleep MS milliseconds inside PHASE (PHASE=MS).
    #[arg(long = "inject-delay", value_name = "PHASE=MS")]
    inject_delay: Vec<String>,
}

#[derive(Args)]
struct ProveArgs {
    #[command(flatten)]
    common: Common,
    /// Proving backend: `cpu` (ours) or `bellperson` (bellperson's own CPU prover, an anchor).
    #[arg(long, default_value = "cpu")]
    backend: String,
    /// Parameter directory (default: $PHASELINE_PARAMS_DIR or ./params).
    #[arg(long)]
    params_dir: Option<PathBuf>,
    /// Use this parameter file instead of the cache.
    #[arg(long)]
    params: Option<PathBuf>,
    #[arg(long)]
    no_verify: bool,
    /// Test hook (`--backend cuda`): request one extra device allocation of
    /// BYTES per batch, to check that a CUDA failure surfaces as an error.
    #[arg(long, value_name = "BYTES", default_value_t = 0)]
    inject_gpu_alloc: u64,
}

#[derive(Args)]
struct SetupArgs {
    #[arg(long, default_value = "tiny")]
    circuit: String,
    /// Fixed-base backend of our generator: cpu, cpu-projective, cuda[:BITS] or
    /// cuda-host[:BITS] (the GPU code built for the host: a check, not a fast path).
    #[arg(long, default_value = "cpu")]
    backend: String,
    /// Parameter directory (default: $PHASELINE_PARAMS_DIR or ./params).
    #[arg(long)]
    params_dir: Option<PathBuf>,
    /// JSON Lines output (one record).
    #[arg(long)]
    json: Option<PathBuf>,
    /// Known toxic waste from this seed (tests, reproducible runs); random when absent.
    #[arg(long = "toxic-seed", alias = "seed")]
    toxic_seed: Option<u64>,
    /// Generator: phaseline (ours) or bellperson (its generate_random_parameters).
    #[arg(long, default_value = "phaseline")]
    generator: String,
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

fn opts(c: &Common, backend: &str, dir: PathBuf, file: Option<PathBuf>, verify: bool) -> Result<RunOpts> {
    if c.reps == 0 {
        bail!("--reps must be at least 1");
    }
    Ok(RunOpts {
        circuit: c.circuit.clone(),
        partitions: c.partitions,
        reps: c.reps,
        warmup: c.warmup,
        backend: backend.into(),
        params_dir: dir,
        params_file: file,
        verify,
        seed: c.seed,
        delays: delays(&c.inject_delay)?,
        inject_gpu_alloc: 0,
    })
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

fn dispatch(cli: Cli) -> Result<()> {
    match cli.cmd {
        Cmd::Info { json } => {
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
        Cmd::Synth(c) => {
            let o = opts(&c, "cpu", params_dir(None), None, false)?;
            let mut sink = Sink::open(&c.json)?;
            run_synth(&o, &mut |r| sink.put(r))?;
        }
        Cmd::Prove(p) => {
            let mut o = opts(&p.common, &p.backend, params_dir(p.params_dir), p.params, !p.no_verify)?;
            o.inject_gpu_alloc = p.inject_gpu_alloc;
            let mut sink = Sink::open(&p.common.json)?;
            run_prove(&o, &mut |r| sink.put(r))?;
        }
        Cmd::Setup(s) => {
            let generator = match s.generator.as_str() {
                "phaseline" => Generator::Phaseline,
                "bellperson" => Generator::Bellperson,
                g => bail!("--generator wants phaseline or bellperson, got `{g}`"),
            };
            let o = SetupOpts {
                circuit: s.circuit,
                backend: s.backend,
                generator,
                params_dir: params_dir(s.params_dir),
                toxic_seed: s.toxic_seed,
            };
            let mut sink = Sink::open(&s.json)?;
            run_setup(&o, &mut |r| sink.put(r))?;
        }
    }
    Ok(())
}
