//! `phaseline plan`, `phaseline run --shard K --manifest FILE` and
//! `phaseline merge`: the command-line side of sharding (`crate::shard` holds
//! the manifest, index and merge rules). A unit is measured by the same code
//! path as `phaseline run`, with its cases as the selection.

use crate::cli::RunArgs;
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use crate::fsutil::write_json;
use crate::shard::{self, Manifest, RunOptions, ShardRun};
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

/// `run`'s shard selection (flattened into `RunArgs`).
#[derive(Args, Debug, Clone, Default)]
pub struct ShardSel {
    /// Run unit K of `--manifest` (default: `JOB_COMPLETION_INDEX`, else `SLURM_ARRAY_TASK_ID`).
    #[arg(long, value_name = "K", requires = "manifest")]
    pub shard: Option<usize>,
    /// Shard manifest written by `phaseline plan`.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' run directories (every unit of one plan, once).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Directory of the merged run.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Replace a run already in --out.
    #[arg(long)]
    pub force: bool,
}

fn pick(given: &[String], dflt: &[String]) -> Vec<String> {
    if given.is_empty() {
        dflt.to_vec()
    } else {
        given.to_vec()
    }
}

/// The `run` arguments a selection of options stands for (everything else at its default).
fn run_args(o: &RunOptions) -> Result<RunArgs, HarnessError> {
    use clap::Parser;
    let mut a = match crate::cli::Cli::try_parse_from(["phaseline", "run"]).map(|c| c.cmd) {
        Ok(Some(crate::cli::Command::Run(a))) => *a,
        _ => return Err(HarnessError::Invalid("cannot build the default run".into())),
    };
    a.suites = o.suites.clone();
    a.v.variants = o.variants.clone();
    a.reps = o.reps;
    a.warmup = o.warmup;
    a.inject_delay = o.inject_delay.clone();
    Ok(a)
}

/// `phaseline plan`.
pub fn plan(cfg: &Config, a: &PlanArgs) -> Result<ExitCode, HarnessError> {
    if a.format == PlanFormat::GhaMatrix && a.out.is_none() {
        return Err(HarnessError::Invalid(
            "--format gha-matrix needs --out FILE: the matrix's jobs run units of that manifest".into(),
        ));
    }
    let options = RunOptions {
        suites: pick(&a.suites, &cfg.default.suites),
        variants: pick(&a.variants, &cfg.default.variants),
        reps: a.reps,
        warmup: a.warmup,
        inject_delay: a.inject_delay.clone(),
    };
    // The same checks and case list as `run` with these options.
    let spec = super::run::spec(cfg, &run_args(&options)?)?;
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
        .map_err(|e| HarnessError::Invalid(format!("cannot serialize: {e}")))
}

/// `phaseline run --manifest FILE [--shard K]`: measures one unit.
pub fn run_shard(cfg: &Config, a: &RunArgs) -> Result<ExitCode, HarnessError> {
    let Some(path) = &a.shard.manifest else {
        return Err(HarnessError::Invalid("--shard needs --manifest FILE".into()));
    };
    let planned = !a.suites.is_empty()
        || !a.v.variants.is_empty()
        || a.reps.is_some()
        || a.warmup.is_some()
        || a.circuit.is_some()
        || a.partitions.is_some()
        || !a.inject_delay.is_empty()
        || a.baseline.is_some();
    if planned {
        return Err(HarnessError::Invalid(
            "--manifest carries the plan's suites, variants and repetitions; give them to `phaseline plan`, \
             not with --manifest (and compare after `phaseline merge`, not per shard)"
                .into(),
        ));
    }
    let m = Manifest::load(path)?;
    let (k, source) = shard::resolve_index(a.shard.shard, &|v| std::env::var(v).ok())?;
    let unit = m.unit(k)?;
    let (commit, _) = crate::provenance::git_state(&cfg.root);
    if commit != m.commit {
        eprintln!(
            "warning: the plan was made at commit {}, this checkout is at {commit}; `merge` refuses units of different commits",
            m.commit
        );
    }
    let mut ra = run_args(&m.options)?;
    ra.out = a.out.clone();
    ra.force = a.force;
    ra.progress = a.progress.clone();
    ra.format = a.format.clone();
    ra.v.runner = a.v.runner.clone();
    ra.timeout = a.timeout;
    ra.sample_ms = a.sample_ms;
    ra.regenerate_params = a.regenerate_params;
    let mut spec = super::run::spec(cfg, &ra)?;
    // One suite entry per case of the unit: exactly its cases, in plan order.
    let mut suites = Vec::new();
    for c in &unit.cases {
        let Some((_, s)) = spec.suites.iter().find(|(n, _)| n == &c.suite) else {
            return Err(HarnessError::Invalid(format!(
                "unit {k}: suite `{}` is not in the plan's selection",
                c.suite
            )));
        };
        let mut s = s.clone();
        s.circuits = vec![c.circuit.clone()];
        s.partitions = vec![c.partitions];
        suites.push((c.suite.clone(), s));
    }
    let got: Vec<_> = crate::runner::cases_of(&suites).into_iter().map(|c| c.0).collect();
    if got != unit.cases {
        return Err(HarnessError::Invalid(format!(
            "unit {k}: the config no longer gives the planned cases ({}); plan again",
            unit.label()
        )));
    }
    spec.suites = suites;
    shard::tag_settings(&mut spec.settings, &m, k, source.describe());
    eprintln!(
        "shard {k} of {} (from {}): {}",
        m.units.len(),
        source.describe(),
        unit.label()
    );
    let dir = ra.out.clone().unwrap_or_else(|| {
        cfg.resolve(&cfg.runs_dir)
            .join(format!("plan-{}", m.plan_id))
            .join(format!("shard-{k}"))
    });
    if crate::rundir::run_file(&dir).is_file() && !a.force {
        return Err(HarnessError::Invalid(format!(
            "{} already holds a run; pass --force to replace it or choose another --out",
            dir.display()
        )));
    }
    let (run, dir) = super::run::measure_and_save(&spec, &ra, &|_| dir.clone())?;
    super::run::check_samples(&run, &dir)?;
    Ok(ExitCode::Ok)
}

/// `phaseline merge DIR... --out DIR`.
pub fn merge(a: &MergeArgs) -> Result<ExitCode, HarnessError> {
    if crate::rundir::run_file(&a.out).is_file() && !a.force {
        return Err(HarnessError::Invalid(format!(
            "{} already holds a run; pass --force to replace it or choose another --out",
            a.out.display()
        )));
    }
    let mut shards = Vec::new();
    for d in &a.dirs {
        let run = crate::rundir::load_run(d)?;
        shards.push(ShardRun { dir: d.clone(), run });
    }
    let n = shards.len();
    let run = shard::merge_runs(shards, std::env::args().collect())?;
    crate::rundir::save_run(&a.out, &run)?;
    println!(
        "merged {n} shards ({} cases, {} samples) into {}",
        run.cases.len(),
        run.samples.len(),
        a.out.display()
    );
    Ok(ExitCode::Ok)
}
