//! `phaseline compare`, `diff`, `calibrate`, and the comparisons printed after
//! `run`: glue between stored runs / baselines and the statistics in `compare`.

use crate::cli::RunArgs;
use crate::compare::{self, CalibrateOptions, CompareOptions, Thresholds};
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use crate::model::{Comparison, Run};
use crate::output::{Exporter, Format};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Run directory of the candidate.
    pub run: PathBuf,
    /// Stored baseline of the run's testbed to compare against.
    #[arg(long, value_name = "NAME", conflicts_with = "against")]
    pub baseline: Option<String>,
    /// Another run directory to compare against.
    #[arg(long, value_name = "RUN", conflicts_with = "variants")]
    pub against: Option<PathBuf>,
    /// Two variants of the one run: `REF,CAND` (interleaved, so drift hits both alike).
    #[arg(long, value_name = "REF,CAND", conflicts_with = "baseline")]
    pub variants: Option<String>,
    /// table, json, csv or markdown.
    #[arg(long, default_value = "table")]
    pub format: String,
    /// Compare across testbeds anyway (flagged in every output).
    #[arg(long)]
    pub allow_cross_testbed: bool,
    /// Compare variants of one name built with different cargo features anyway.
    #[arg(long)]
    pub allow_feature_mismatch: bool,
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// Reference run directory.
    pub run_a: PathBuf,
    /// Candidate run directory.
    pub run_b: PathBuf,
    #[arg(long, default_value = "table")]
    pub format: String,
    #[arg(long)]
    pub allow_cross_testbed: bool,
    /// Compare variants of one name built with different cargo features anyway.
    #[arg(long)]
    pub allow_feature_mismatch: bool,
}

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Run directory holding A/A data (one variant, or variants with identical features).
    pub run: PathBuf,
    /// The A/A variants (default: the run's only variant).
    #[arg(long = "variant")]
    pub variants: Vec<String>,
}

pub fn check_format(f: &str) -> Result<(), HarnessError> {
    f.parse::<Format>().map(|_| ())
}

/// The per-phase medians of a run as a terminal table.
pub fn summary_table(run: &Run) -> Result<String, HarnessError> {
    crate::output::Table.run_summary(&crate::summary::summarize(run))
}

/// Comparison settings from the config.
pub fn options(cfg: &Config, allow_cross: bool) -> CompareOptions {
    CompareOptions {
        alpha: cfg.alpha,
        thresholds: Thresholds {
            default: cfg.thresholds.default,
            floor_ms: cfg.thresholds.floor_ms,
            phases: cfg.thresholds.phases.clone(),
            suite_floor_ms: cfg
                .suites
                .iter()
                .filter_map(|(n, s)| Some((n.clone(), s.floor_ms?)))
                .collect(),
        },
        bootstrap_seed: cfg.bootstrap_seed,
        resamples: cfg.resamples,
        allow_cross_testbed: allow_cross,
        ..CompareOptions::default()
    }
}

fn print(c: &Comparison, format: &str) -> Result<(), HarnessError> {
    print!("{}", format.parse::<Format>()?.exporter().comparison(c)?);
    Ok(())
}

fn failed_samples(run: &Run) -> usize {
    run.samples.iter().filter(|s| !s.ok).count()
}

/// Exit code of a printed comparison; failed samples on either side make it an error.
fn finish(c: &Comparison, reference: &Run, candidate: &Run) -> Result<ExitCode, HarnessError> {
    let failed = failed_samples(reference) + failed_samples(candidate);
    if failed > 0 {
        return Err(HarnessError::Invalid(format!(
            "{failed} failed samples in the compared runs; the comparison above used the successful ones only"
        )));
    }
    Ok(compare::exit_code(c))
}

pub fn compare(cfg: &Config, a: &CompareArgs) -> Result<ExitCode, HarnessError> {
    check_format(&a.format)?;
    let run = crate::rundir::load_run(&a.run)?;
    let mut opts = options(cfg, a.allow_cross_testbed);
    opts.allow_feature_mismatch = a.allow_feature_mismatch;
    if let Some(pair) = &a.variants {
        let Some((r, c)) = pair.split_once(',') else {
            return Err(HarnessError::Invalid(format!(
                "--variants wants REF,CAND, got `{pair}`"
            )));
        };
        let cmp = compare::compare_variants(&run, r.trim(), c.trim(), &opts)?;
        print(&cmp, &a.format)?;
        return finish(&cmp, &run, &run);
    }
    let reference = match (&a.baseline, &a.against) {
        (Some(name), None) => {
            let b = crate::baseline::load(
                &cfg.resolve(&cfg.baselines_dir),
                name,
                &run.testbed.key,
                a.allow_cross_testbed,
            )?;
            opts.reference_label = Some(format!("baseline {name} ({})", b.run.testbed.key));
            b.run
        }
        (None, Some(dir)) => crate::rundir::load_run(dir)?,
        _ => {
            return Err(HarnessError::Invalid(
                "compare needs --baseline NAME or --against RUN".into(),
            ))
        }
    };
    let c = compare::compare_runs(&reference, &run, &opts)?;
    print(&c, &a.format)?;
    finish(&c, &reference, &run)
}

pub fn diff(cfg: &Config, a: &DiffArgs) -> Result<ExitCode, HarnessError> {
    check_format(&a.format)?;
    let ra = crate::rundir::load_run(&a.run_a)?;
    let rb = crate::rundir::load_run(&a.run_b)?;
    let mut opts = options(cfg, a.allow_cross_testbed);
    opts.allow_feature_mismatch = a.allow_feature_mismatch;
    let c = compare::compare_runs(&ra, &rb, &opts)?;
    print(&c, &a.format)?;
    finish(&c, &ra, &rb)
}

pub fn calibrate(cfg: &Config, a: &CalibrateArgs) -> Result<ExitCode, HarnessError> {
    let run = crate::rundir::load_run(&a.run)?;
    let opts = CalibrateOptions {
        variants: a.variants.clone(),
        seed: cfg.bootstrap_seed,
        floor_ms: cfg.thresholds.floor_ms,
        ..CalibrateOptions::default()
    };
    let t = compare::calibrate(&run, &opts)?;
    println!(
        "# learned from A/A run {} ({} samples); paste into phaseline.toml",
        run.id,
        run.samples.len()
    );
    print!("{}", t.to_toml());
    Ok(ExitCode::Ok)
}

/// After `run`: the default comparison of two variants, then the stored baseline.
pub fn after_run(cfg: &Config, a: &RunArgs, run: &Run, dir: &Path, is_default: bool) -> Result<ExitCode, HarnessError> {
    let names = run.variant_names();
    let [r, c] = &cfg.default.compare;
    if is_default && names.contains(r) && names.contains(c) {
        let cmp = compare::compare_variants(run, r, c, &options(cfg, false))?;
        println!("\n`{c}` against `{r}` on this machine:");
        print(&cmp, &a.format)?;
        crate::fsutil::write_json(&dir.join(format!("compare-{c}-vs-{r}.json")), &cmp)?;
    }
    let bdir = cfg.resolve(&cfg.baselines_dir);
    let name = match &a.baseline {
        Some(n) => n.clone(),
        None if is_default && crate::baseline::path(&bdir, &run.testbed.key, &cfg.default.baseline).is_file() => {
            cfg.default.baseline.clone()
        }
        None => return Ok(ExitCode::Ok),
    };
    let b = crate::baseline::load(&bdir, &name, &run.testbed.key, a.allow_cross_testbed)?;
    let mut opts = options(cfg, a.allow_cross_testbed);
    opts.allow_feature_mismatch = a.allow_feature_mismatch;
    opts.reference_label = Some(format!("baseline {name} ({})", b.run.testbed.key));
    let cmp = compare::compare_runs(&b.run, run, &opts)?;
    println!("\nagainst baseline `{name}`:");
    print(&cmp, &a.format)?;
    crate::fsutil::write_json(&dir.join(format!("compare-baseline-{name}.json")), &cmp)?;
    Ok(compare::exit_code(&cmp))
}
