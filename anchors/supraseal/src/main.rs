//! `phaseline-anchor-supraseal`: the phaseline benchmark circuits proved by
//! supraseal-c2 (through bellperson's `cuda-supraseal` feature), written as
//! the runner's JSON Lines records. Exit status: 0 ok, 2 error.

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use phaseline_anchor_supraseal::{prove, sink};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "phaseline-anchor-supraseal",
    version,
    about = "supraseal-c2 anchor for phaseline"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Synthesis and supraseal-c2 proving of a preset, every proof verified.
    Prove(ProveArgs),
    /// Build facts: fingerprint, commit, nvcc, backend.
    Info,
}

#[derive(Args)]
struct ProveArgs {
    /// Circuit preset: tiny, small, medium, large, xl, xxl, porep-32g.
    #[arg(long, default_value = "tiny")]
    circuit: String,
    /// Circuits of one shape proved in one batch.
    #[arg(long, default_value_t = 1)]
    partitions: usize,
    #[arg(long, default_value_t = 1)]
    reps: usize,
    /// Repetitions recorded with `warmup: true` before the measured ones.
    #[arg(long, default_value_t = 0)]
    warmup: usize,
    /// Witness seed (the shape does not depend on it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Parameter file (bellperson format, as `phaseline-prover setup` writes).
    #[arg(long)]
    params: Option<PathBuf>,
    /// Directory holding `<shape_id>.params` (default: $PHASELINE_PARAMS_DIR, then ./params).
    #[arg(long)]
    params_dir: Option<PathBuf>,
    /// JSON Lines output, one record per repetition (default: stdout).
    #[arg(long)]
    json: Option<PathBuf>,
    #[arg(long)]
    no_verify: bool,
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = dispatch(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}

fn dispatch(cli: Cli) -> Result<()> {
    match cli.cmd {
        Cmd::Info => {
            let info = serde_json::json!({
                "backend": prove::BACKEND,
                "package_version": env!("CARGO_PKG_VERSION"),
                "fingerprint": env!("ANCHOR_FINGERPRINT"),
                "git_commit": env!("ANCHOR_GIT_COMMIT"),
                "nvcc": env!("ANCHOR_NVCC"),
            });
            println!("{}", serde_json::to_string_pretty(&info)?);
        }
        Cmd::Prove(p) => {
            let o = prove::Opts {
                circuit: p.circuit,
                partitions: p.partitions,
                reps: p.reps,
                warmup: p.warmup,
                seed: p.seed,
                params_file: p.params,
                params_dir: p.params_dir,
                verify: !p.no_verify,
            };
            let mut out = sink::Sink::new(p.json.as_deref());
            prove::run(&o, &mut |r| out.put(&r))?;
        }
    }
    Ok(())
}
