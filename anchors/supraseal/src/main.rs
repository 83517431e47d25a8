//! `phaseline-anchor-supraseal`: the phaseline benchmark circuits proved by
//! supraseal-c2 (through bellperson's `cuda-supraseal` feature), speaking the
//! runner protocol of `phaseline-record`: its command line, `info --json` and
//! JSON Lines records. Exit status: 0 ok, 2 error.

use anyhow::{bail, Result};
use clap::{Args, Parser, Subcommand};
use phaseline_anchor_supraseal::{prove, sink};
use phaseline_record::{InfoArgs, ProveArgs, RunnerInfo};
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
    Prove(AnchorProve),
    /// Build facts (always JSON: the protocol's runner info).
    Info(InfoArgs),
}

#[derive(Args)]
struct AnchorProve {
    #[command(flatten)]
    shared: ProveArgs,
    /// Parameter file (bellperson format, as `phaseline-prover setup` writes),
    /// instead of `<shape_id>.params` in the parameter directory.
    #[arg(long)]
    params: Option<PathBuf>,
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = dispatch(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}

fn info() -> RunnerInfo {
    RunnerInfo {
        schema_version: phaseline_record::SCHEMA_VERSION,
        package_version: env!("CARGO_PKG_VERSION").into(),
        features: vec![],
        fingerprint: env!("ANCHOR_FINGERPRINT").into(),
        profile: "release".into(),
        git_commit: env!("ANCHOR_GIT_COMMIT").into(),
        cuda_archs: format!("as supraseal-c2 ships (nvcc {})", env!("ANCHOR_NVCC")),
        backends: vec![prove::BACKEND],
        makes_params: false,
    }
}

fn dispatch(cli: Cli) -> Result<()> {
    match cli.cmd {
        Cmd::Info(_) => println!("{}", serde_json::to_string_pretty(&info())?),
        Cmd::Prove(AnchorProve { shared: p, params }) => {
            if let Some(b) = p.backend.filter(|b| *b != prove::BACKEND) {
                bail!("this runner proves on `{}` only, not `{b}`", prove::BACKEND);
            }
            if !p.case.inject_delay.is_empty() {
                bail!("--inject-delay is a self-test of our prover; this anchor cannot delay supraseal-c2's phases");
            }
            if p.case.reps == 0 {
                bail!("--reps must be at least 1");
            }
            if p.params_store == Some(phaseline_record::ParamsStore::Memory) {
                bail!("--params-store memory: this anchor makes no parameters; it reads the file our setup wrote");
            }
            if let Some(b) = &p.mem_budget {
                bail!("--mem-budget {b}: supraseal-c2 proves every partition in one call; this anchor cannot pipeline them");
            }
            let o = prove::Opts {
                circuit: p.case.circuit,
                partitions: p.case.partitions,
                reps: p.case.reps,
                warmup: p.case.warmup,
                seed: p.case.seed,
                params_file: params,
                params_dir: p.params_dir,
                verify: !p.no_verify,
            };
            let mut out = sink::Sink::new(p.case.json.as_deref());
            prove::run(&o, &mut |r| out.put(&r))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use phaseline_record::RunnerArgs;

    /// Every `prove` and `info` invocation the harness makes parses back to itself here.
    #[test]
    fn speaks_the_protocol_command_line() {
        for a in RunnerArgs::examples() {
            let argv = std::iter::once("anchor".into()).chain(a.to_argv());
            let got = match (&a, Cli::try_parse_from(argv)) {
                (RunnerArgs::Prove(_), Ok(Cli { cmd: Cmd::Prove(p) })) => RunnerArgs::Prove(p.shared),
                (RunnerArgs::Info(_), Ok(Cli { cmd: Cmd::Info(i) })) => RunnerArgs::Info(i),
                (RunnerArgs::Synth(_) | RunnerArgs::Setup(_), Err(_)) => continue,
                (_, other) => panic!("{:?}: {:?}", a.to_argv(), other.err()),
            };
            assert_eq!(got, a);
        }
        let i = serde_json::to_value(info()).unwrap();
        assert_eq!(i["backends"], serde_json::json!(["supraseal"]));
        assert_eq!(i["makes_params"], false);
    }
}
