//! `phaseline report RUN [--baseline NAME] --out DIR`: one self-contained HTML
//! page (`report.html`), a Markdown summary (`summary.md`) and the CSVs
//! (`samples.csv`, `summary.csv`, one `comparison-*.csv` per comparison).

pub mod html;
pub mod markdown;

#[cfg(test)]
mod tests;

use crate::chart::cmd::{comparisons, load_inputs};
use crate::chart::render::render_svg;
use crate::chart::set::build_charts;
use crate::config::Config;
use crate::fsutil::write_atomic;
use crate::model::{Baseline, Comparison, PhaseComparison, Run, Verdict};
use crate::{ExitCode, HarnessError};
use std::path::PathBuf;

/// Verdict names, in the order of [`Report::verdict_counts`].
pub const VERDICTS: [&str; 5] = ["regressed", "improved", "unchanged", "inconclusive", "overlapped"];

/// Rows per verdict, in the order of [`VERDICTS`].
pub fn count_verdicts<'a>(rows: impl IntoIterator<Item = &'a PhaseComparison>) -> [usize; 5] {
    let mut c = [0; 5];
    for r in rows {
        c[match r.verdict {
            Verdict::Regressed => 0,
            Verdict::Improved => 1,
            Verdict::Unchanged => 2,
            Verdict::Inconclusive => 3,
            Verdict::Overlapped => 4,
        }] += 1;
    }
    c
}

/// Chart size inside the report, in pixels.
pub const CHART_W: u32 = 960;
pub const CHART_H: u32 = 520;

#[derive(clap::Args, Clone, Debug)]
pub struct ReportArgs {
    /// Run directory (or its run.json).
    pub run: PathBuf,
    /// Stored baseline of the run's testbed to compare against; without it the
    /// run's variants are compared with the reference variant.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Allow a baseline of another testbed (flagged in the report).
    #[arg(long)]
    pub allow_cross_testbed: bool,
    /// Variant the others are compared with when there is no baseline
    /// (default: `baseline` if the run has it, else its first variant).
    #[arg(long)]
    pub reference_variant: Option<String>,
    /// Output folder (created if missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// Everything a report shows.
pub struct Report {
    pub run: Run,
    pub baseline: Option<Baseline>,
    pub comparisons: Vec<Comparison>,
    /// (caption, inline SVG document).
    pub charts: Vec<(String, String)>,
}

impl Report {
    /// Draws the charts of `run` and assembles the report.
    pub fn build(run: Run, baseline: Option<Baseline>, comparisons: Vec<Comparison>) -> Result<Self, HarnessError> {
        let history = [&run];
        let charts = build_charts(&run, &history, baseline.as_ref(), &comparisons)
            .into_iter()
            .map(|c| Ok((c.caption, render_svg(&c.chart, CHART_W, CHART_H)?)))
            .collect::<Result<Vec<_>, HarnessError>>()?;
        Ok(Report {
            run,
            baseline,
            comparisons,
            charts,
        })
    }

    /// Rows per verdict: regressed, improved, unchanged, inconclusive, overlapped.
    pub fn verdict_counts(&self) -> [usize; 5] {
        count_verdicts(self.comparisons.iter().flat_map(|c| c.rows.iter()))
    }

    /// The files of the report: (file name, contents).
    pub fn files(&self) -> Result<Vec<(String, Vec<u8>)>, HarnessError> {
        let mut out = vec![
            ("report.html".to_string(), html::page(self).into_bytes()),
            ("summary.md".to_string(), markdown::summary(self).into_bytes()),
            ("samples.csv".to_string(), crate::rundir::samples_csv(&self.run)?),
            ("summary.csv".to_string(), crate::rundir::summary_csv(&self.run)?),
        ];
        for c in &self.comparisons {
            let name = format!(
                "comparison-{}-vs-{}.csv",
                crate::chart::data::slug(&c.candidate),
                crate::chart::data::slug(&c.reference)
            );
            out.push((
                name,
                crate::output::Exporter::comparison(&crate::output::Csv, c)?.into_bytes(),
            ));
        }
        Ok(out)
    }
}

pub fn run_report(cfg: &Config, args: &ReportArgs) -> Result<ExitCode, HarnessError> {
    let dir = cfg.resolve(&cfg.baselines_dir);
    let inputs = load_inputs(
        std::slice::from_ref(&args.run),
        args.baseline.as_deref(),
        &dir,
        args.allow_cross_testbed,
    )?;
    let opts = crate::commands::compare::options(cfg, args.allow_cross_testbed);
    let cmps = comparisons(&inputs, args.reference_variant.as_deref(), &opts)?;
    let report = Report::build(inputs.run, inputs.baseline, cmps)?;
    for (name, bytes) in report.files()? {
        let path = args.out.join(name);
        write_atomic(&path, &bytes)?;
        println!("{}", path.display());
    }
    Ok(ExitCode::Ok)
}
