//! `phaseline plan`: cut the cases into work units for a scheduler (a shard
//! manifest, or a GitHub Actions matrix).

use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use crate::fsutil::write_json;
use crate::run_request::or_default;
use crate::runner::MeasureSpec;
use crate::shard::{Manifest, RunOptions};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// What `plan` prints on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlanFormat {
    /// The manifest itself.
    Json,
    /// A GitHub Actions `strategy.matrix` (one line, `{"include": [...]}`).
    GhaMatrix,
}

#[derive(Args, Debug)]
pub struct PlanArgs {
    /// Number of work units to cut the cases into (a unit holds whole cases).
    #[arg(long, value_name = "N")]
    pub shards: usize,
    /// Suite name from the config, or `all`. Repeatable.
    #[arg(long = "suite", value_name = "NAME")]
    pub suites: Vec<String>,
    /// `NAME=feat,feat` or a config name. Repeatable.
    #[arg(long = "variant", value_name = "NAME=FEATURES")]
    pub variants: Vec<String>,
    /// Measured repetitions per variant and case.
    #[arg(long)]
    pub reps: Option<usize>,
    /// Warm-up repetitions.
    #[arg(long)]
    pub warmup: Option<usize>,
    /// Harness self-test only: `[VARIANT:]PHASE=MS` delays, as `run --inject-delay`.
    #[arg(long = "inject-delay", value_name = "[VARIANT:]PHASE=MS")]
    pub inject_delay: Vec<String>,
    /// Write the manifest here (stdout then carries `--format`'s output, if not json).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// stdout: the manifest (`json`) or a GitHub Actions matrix (`gha-matrix`).
    #[arg(long, value_enum, default_value = "json")]
    pub format: PlanFormat,
}

/// `phaseline plan`.
pub fn plan(cfg: &Config, a: &PlanArgs) -> Result<ExitCode, HarnessError> {
    if a.format == PlanFormat::GhaMatrix && a.out.is_none() {
        return Err(HarnessError::Invalid(
            "--format gha-matrix needs --out FILE: the matrix's jobs run units of that manifest".into(),
        ));
    }
    let options = RunOptions {
        suites: or_default(&a.suites, &cfg.default.suites),
        variants: or_default(&a.variants, &cfg.default.variants),
        reps: a.reps,
        warmup: a.warmup,
        inject_delay: a.inject_delay.clone(),
    };
    // The same checks and case list as `run` with these options.
    let spec = MeasureSpec::from_request(cfg, &options.request())?;
    let cases: Vec<_> = crate::runner::cases_of(&spec.suites).into_iter().map(|c| c.0).collect();
    let (commit, _) = crate::provenance::git_state(&cfg.root);
    let (m, note) = Manifest::plan(&cases, a.shards, options, commit, crate::provenance::now_utc())?;
    if let Some(n) = note {
        eprintln!("note: {n}");
    }
    let matrix = match a.format {
        PlanFormat::GhaMatrix => Some(m.gha_matrix()?),
        PlanFormat::Json => None,
    };
    if let Some(path) = &a.out {
        write_json(path, &m)?;
        eprintln!(
            "plan {}: {} units written to {}",
            m.plan_id,
            m.units.len(),
            path.display()
        );
    }
    match (matrix, &a.out) {
        (Some(x), _) => println!("{x}"),
        (None, None) => print!("{}", to_json(&m)?),
        (None, Some(_)) => {}
    }
    Ok(ExitCode::Ok)
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, HarnessError> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| HarnessError::Data(format!("cannot serialize: {e}")))
}
