//! What a chart or report draws: the runs, the baseline, the comparisons, and writing the files.

use super::render::{self, Format};
use super::set::{build_charts, NamedChart};
use crate::baseline::BaselineStore;
use crate::compare::{compare_variants, CompareOptions};
use crate::config::Config;
use crate::model::{Baseline, Comparison, Run};
use crate::HarnessError;
use std::path::{Path, PathBuf};

/// Which runs to chart, against what, and how the files look.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartRequest {
    /// Run directories (or run.json files); the newest is charted, all form the trend.
    pub runs: Vec<PathBuf>,
    /// Stored baseline of the run's testbed to compare against.
    pub baseline: Option<String>,
    /// Allow a baseline of another testbed (flagged in the charts' titles).
    pub allow_cross_testbed: bool,
    /// Output folder (created if missing).
    pub out: PathBuf,
    pub format: Format,
    /// Image size in pixels.
    pub width: u32,
    pub height: u32,
    /// Variant the others are compared with when there is no baseline.
    pub reference_variant: Option<String>,
}

/// Draws the charts `req` asks for; returns the files written.
pub fn draw(cfg: &Config, req: &ChartRequest) -> Result<Vec<PathBuf>, HarnessError> {
    let store = BaselineStore::of(cfg);
    let inputs = load_inputs(&req.runs, req.baseline.as_deref(), &store, req.allow_cross_testbed)?;
    let opts = CompareOptions::from_config(cfg, req.allow_cross_testbed);
    let cmps = comparisons(&inputs, req.reference_variant.as_deref(), &opts)?;
    let history: Vec<&Run> = inputs.history.iter().collect();
    let charts = build_charts(&inputs.run, &history, inputs.baseline.as_ref(), &cmps);
    write_charts(&charts, &req.out, req.format, req.width, req.height)
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
    store: &BaselineStore,
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
            let b = store.load(name, &run.testbed.key, allow_cross)?;
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
        return Ok(vec![crate::baseline::compare_with(b, &inputs.run, opts)?]);
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
