//! `phaseline run` (and `phaseline` alone): measure, save the run, print its
//! medians, then compare two default variants and the stored baseline.

use super::output::{check_format, print_comparison, summary_table};
use crate::baseline::BaselineStore;
use crate::compare::{self, CompareOptions};
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use crate::measured::{check_samples, measure_into, refuse_existing};
use crate::model::Run;
use crate::run_request::RunRequest;
use crate::runner::MeasureSpec;
use clap::Args;
use std::path::{Path, PathBuf};

/// Variants and how to get their runners.
#[derive(Args, Debug, Clone, Default)]
pub struct VariantArgs {
    /// `NAME=feat,feat` (empty for none), or a name from the config (baseline, all, A1, ...). Repeatable.
    #[arg(long = "variant", value_name = "NAME=FEATURES")]
    pub variants: Vec<String>,
    /// Use this runner binary for every variant instead of building (recorded in the run).
    #[arg(long, value_name = "PATH")]
    pub runner: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub v: VariantArgs,
    /// Suite name from the config, or `all`. Repeatable.
    #[arg(long = "suite", value_name = "NAME")]
    pub suites: Vec<String>,
    /// Measured repetitions per variant and case.
    #[arg(long)]
    pub reps: Option<usize>,
    /// Warm-up repetitions (stored, never compared).
    #[arg(long)]
    pub warmup: Option<usize>,
    /// In-process warm-up iterations before each measured repetition (alternate mode).
    #[arg(long, value_name = "N")]
    pub inner_warmup: Option<usize>,
    /// Measured proofs per process, the sample their median (alternate mode).
    #[arg(long, value_name = "N")]
    pub inner_reps: Option<usize>,
    /// Circuit preset replacing the suites' presets.
    #[arg(long = "circuit", value_name = "PRESET")]
    pub circuit: Option<String>,
    /// Partitions replacing the suites' partitions.
    #[arg(long)]
    pub partitions: Option<usize>,
    /// Timeout per repetition, in seconds.
    #[arg(long, value_name = "S")]
    pub timeout: Option<f64>,
    /// `alternate` (A B A B ...) or `block` (A A A, B B B: one process per variant).
    #[arg(long)]
    pub interleave: Option<String>,
    /// Run directory (default: <runs_dir>/<run id>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace an existing run in --out.
    #[arg(long)]
    pub force: bool,
    /// Compare against this stored baseline right after running.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Allow comparing against a baseline of another testbed (flagged in every output).
    #[arg(long)]
    pub allow_cross_testbed: bool,
    /// Allow comparing against baseline variants built with other cargo features.
    #[arg(long)]
    pub allow_feature_mismatch: bool,
    /// Output format of comparisons: table, json, csv, markdown.
    #[arg(long, default_value = "table")]
    pub format: String,
    /// Harness self-test only: ask the runner to sleep MS inside PHASE, for every
    /// variant (PHASE=MS) or one (VARIANT:PHASE=MS).
    #[arg(long = "inject-delay", value_name = "[VARIANT:]PHASE=MS")]
    pub inject_delay: Vec<String>,
    /// Memory / telemetry sampling period in ms (0 = off).
    #[arg(long, default_value_t = 100)]
    pub sample_ms: u64,
    /// Make the parameters of end-to-end cases anew (new toxic waste) instead
    /// of keeping cached ones that pass their check.
    #[arg(long)]
    pub regenerate_params: bool,
    /// Progress display: auto (bar on a terminal), lines, quiet.
    #[arg(long, default_value = "auto")]
    pub progress: String,
    #[command(flatten)]
    pub shard: ShardSel,
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

impl RunArgs {
    /// The measurement these arguments ask for.
    pub fn request(&self) -> RunRequest {
        RunRequest {
            variants: self.v.variants.clone(),
            runner: self.v.runner.clone(),
            suites: self.suites.clone(),
            reps: self.reps,
            warmup: self.warmup,
            inner_warmup: self.inner_warmup,
            inner_reps: self.inner_reps,
            circuit: self.circuit.clone(),
            partitions: self.partitions,
            timeout_s: self.timeout,
            interleave: self.interleave.clone(),
            inject_delay: self.inject_delay.clone(),
            sample_ms: self.sample_ms,
            progress: self.progress.clone(),
            regenerate_params: self.regenerate_params,
        }
    }
}

/// Measures `spec` into `dir_of(run id)` and prints the per-phase medians
/// (on stderr when `format` is machine-readable, so stdout keeps the comparison alone).
pub fn measure_and_print(
    spec: &MeasureSpec,
    format: &str,
    dir_of: &dyn Fn(&str) -> PathBuf,
) -> Result<(Run, PathBuf), HarnessError> {
    let (run, dir) = measure_into(spec, dir_of)?;
    let table = summary_table(&run)?;
    if format == "table" {
        print!("{table}");
        println!("run saved in {}", dir.display());
    } else {
        eprint!("{table}");
        eprintln!("run saved in {}", dir.display());
    }
    Ok((run, dir))
}

/// `phaseline run`; `is_default` when no suite or variant was named.
pub fn run(cfg: &Config, a: &RunArgs, is_default: bool) -> Result<ExitCode, HarnessError> {
    check_format(&a.format)?;
    let spec = MeasureSpec::from_request(cfg, &a.request())?;
    if let Some(out) = &a.out {
        refuse_existing(out, a.force)?;
    }
    // A named baseline must exist before minutes are spent measuring.
    let testbed = crate::testbed::detect();
    if let Some(name) = &a.baseline {
        BaselineStore::of(cfg).load(name, &testbed.key, a.allow_cross_testbed)?;
    }
    let out_dir = |id: &str| a.out.clone().unwrap_or_else(|| cfg.resolve(&cfg.runs_dir).join(id));
    let (run, dir) = measure_and_print(&spec, &a.format, &out_dir)?;
    check_samples(&run, &dir)?;
    after_run(cfg, a, &run, &dir, is_default)
}

/// After `run`: the default comparison of two variants, then the stored baseline.
fn after_run(cfg: &Config, a: &RunArgs, run: &Run, dir: &Path, is_default: bool) -> Result<ExitCode, HarnessError> {
    let names = run.variant_names();
    let [r, c] = &cfg.default.compare;
    if is_default && names.contains(r) && names.contains(c) {
        let cmp = compare::compare_variants(run, r, c, &CompareOptions::from_config(cfg, false))?;
        println!("\n`{c}` against `{r}` on this machine:");
        print_comparison(&cmp, &a.format)?;
        crate::fsutil::write_json(&dir.join(format!("compare-{c}-vs-{r}.json")), &cmp)?;
    }
    let store = BaselineStore::of(cfg);
    let name = match &a.baseline {
        Some(n) => n.clone(),
        None if is_default && store.has(&run.testbed.key, &cfg.default.baseline) => cfg.default.baseline.clone(),
        None => return Ok(ExitCode::Ok),
    };
    let b = store.load(&name, &run.testbed.key, a.allow_cross_testbed)?;
    let mut opts = CompareOptions::from_config(cfg, a.allow_cross_testbed);
    opts.allow_feature_mismatch = a.allow_feature_mismatch;
    let cmp = crate::baseline::compare_with(&b, run, &opts)?;
    println!("\nagainst baseline `{name}`:");
    print_comparison(&cmp, &a.format)?;
    crate::fsutil::write_json(&dir.join(format!("compare-baseline-{name}.json")), &cmp)?;
    Ok(compare::exit_code(&cmp))
}
