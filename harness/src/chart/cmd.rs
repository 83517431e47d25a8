//! `phaseline chart RUN... [--baseline NAME] --out DIR [--format svg|png]`.

use super::render::{self, Format};
use super::set::{build_charts, NamedChart};
use crate::compare::{compare_runs, compare_variants, CompareOptions};
use crate::config::Config;
use crate::model::{Baseline, Comparison, Run};
use crate::{ExitCode, HarnessError};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Clone, Debug)]
pub struct ChartArgs {
    /// Run directories (or run.json files). The newest is charted; all of them
    /// form the trend chart.
    #[arg(required = true)]
    pub runs: Vec<PathBuf>,
    /// Stored baseline of the run's testbed to compare against (ratio and trend charts).
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Allow a baseline of another testbed (flagged in the charts' titles).
    #[arg(long)]
    pub allow_cross_testbed: bool,
    /// Output folder (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value_t = Format::Svg)]
    pub format: Format,
    /// Image width in pixels.
    #[arg(long, default_value_t = 960)]
    pub width: u32,
    /// Image height in pixels.
    #[arg(long, default_value_t = 540)]
    pub height: u32,
    /// Variant the others are compared with when there is no baseline
    /// (default: `baseline` if the run has it, else its first variant).
    #[arg(long)]
    pub reference_variant: Option<String>,
}

/// Runs loaded for charting: the newest run, all runs oldest first, the baseline.
pub struct Inputs {
    pub run: Run,
    pub history: Vec<Run>,
    pub baseline: Option<Baseline>,
}

/// Loads the runs (sorted by start time) and the baseline named on the command line.
pub fn load_inputs(
    runs: &[PathBuf],
    baseline: Option<&str>,
    baselines_dir: &Path,
    allow_cross: bool,
) -> Result<Inputs, HarnessError> {
    let mut history = runs
        .iter()
        .map(|p| crate::rundir::load_run(p))
        .collect::<Result<Vec<_>, _>>()?;
    history.sort_by(|a, b| a.provenance.started_utc.cmp(&b.provenance.started_utc));
    let run = history
        .last()
        .cloned()
        .ok_or_else(|| HarnessError::Invalid("no run given".into()))?;
    check_not_empty(&run, "run")?;
    let baseline = match baseline {
        Some(name) => {
            let b = crate::baseline::load(baselines_dir, name, &run.testbed.key, allow_cross)?;
            check_not_empty(&b.run, "baseline")?;
            Some(b)
        }
        None => None,
    };
    Ok(Inputs { run, history, baseline })
}

/// Refuses a run that has nothing to chart, naming it.
pub fn check_not_empty(run: &Run, what: &str) -> Result<(), HarnessError> {
    if run.samples.is_empty() {
        return Err(HarnessError::Invalid(format!(
            "{what} {} has no samples: nothing to chart (did the run finish?)",
            run.id
        )));
    }
    Ok(())
}

/// The reference variant of a within-run comparison.
pub fn reference_variant(run: &Run, wanted: Option<&str>) -> Result<String, HarnessError> {
    let names = super::data::variants(run);
    match wanted {
        Some(w) if names.iter().any(|n| n == w) => Ok(w.to_string()),
        Some(w) => Err(HarnessError::Invalid(format!(
            "reference variant {w} is not in run {} (variants: {})",
            run.id,
            names.join(", ")
        ))),
        None => Ok(names
            .iter()
            .find(|n| n.as_str() == "baseline")
            .or(names.first())
            .cloned()
            .unwrap_or_default()),
    }
}

/// Comparisons behind the ratio charts: the run against the baseline when one
/// is given, else every other variant against the reference variant.
pub fn comparisons(
    inputs: &Inputs,
    reference: Option<&str>,
    opts: &CompareOptions,
) -> Result<Vec<Comparison>, HarnessError> {
    if let Some(b) = &inputs.baseline {
        let mut o = opts.clone();
        o.reference_label = Some(format!("baseline {}", b.name));
        o.candidate_label = Some(format!("run {}", inputs.run.id));
        return Ok(vec![compare_runs(&b.run, &inputs.run, &o)?]);
    }
    let reference = reference_variant(&inputs.run, reference)?;
    super::data::variants(&inputs.run)
        .iter()
        .filter(|v| **v != reference)
        .map(|v| {
            let mut o = opts.clone();
            o.reference_label = Some(reference.clone());
            o.candidate_label = Some(v.clone());
            compare_variants(&inputs.run, &reference, v, &o)
        })
        .collect()
}

/// Renders `charts` into `out`, one file each; returns the paths written.
pub fn write_charts(
    charts: &[NamedChart],
    out: &Path,
    format: Format,
    w: u32,
    h: u32,
) -> Result<Vec<PathBuf>, HarnessError> {
    let mut written = Vec::new();
    for c in charts {
        let bytes = render::render(&c.chart, format, w, h)?;
        let path = out.join(format!("{}.{}", c.stem, format.ext()));
        crate::fsutil::write_atomic(&path, &bytes)?;
        written.push(path);
    }
    Ok(written)
}

pub fn run_chart(cfg: &Config, args: &ChartArgs) -> Result<ExitCode, HarnessError> {
    let dir = cfg.resolve(&cfg.baselines_dir);
    let inputs = load_inputs(&args.runs, args.baseline.as_deref(), &dir, args.allow_cross_testbed)?;
    let opts = crate::commands::compare::options(cfg, args.allow_cross_testbed);
    let cmps = comparisons(&inputs, args.reference_variant.as_deref(), &opts)?;
    let history: Vec<&Run> = inputs.history.iter().collect();
    let charts = build_charts(&inputs.run, &history, inputs.baseline.as_ref(), &cmps);
    let written = write_charts(&charts, &args.out, args.format, args.width, args.height)?;
    for p in &written {
        println!("{}", p.display());
    }
    Ok(ExitCode::Ok)
}
