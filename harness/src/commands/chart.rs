//! `phaseline chart RUN... [--baseline NAME] --out DIR [--format svg|png]`.

use crate::chart::render::Format;
use crate::chart::ChartRequest;
use crate::config::Config;
use crate::{ExitCode, HarnessError};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `--format` of a chart file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ChartFormat {
    Svg,
    Png,
}

impl From<ChartFormat> for Format {
    fn from(f: ChartFormat) -> Format {
        match f {
            ChartFormat::Svg => Format::Svg,
            ChartFormat::Png => Format::Png,
        }
    }
}

#[derive(Args, Clone, Debug)]
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
    #[arg(long, value_enum, default_value_t = ChartFormat::Svg)]
    pub format: ChartFormat,
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

impl ChartArgs {
    /// The charts these arguments ask for.
    pub fn request(&self) -> ChartRequest {
        ChartRequest {
            runs: self.runs.clone(),
            baseline: self.baseline.clone(),
            allow_cross_testbed: self.allow_cross_testbed,
            out: self.out.clone(),
            format: self.format.into(),
            width: self.width,
            height: self.height,
            reference_variant: self.reference_variant.clone(),
        }
    }
}

pub fn run(cfg: &Config, a: &ChartArgs) -> Result<ExitCode, HarnessError> {
    for p in crate::chart::draw(cfg, &a.request())? {
        println!("{}", p.display());
    }
    Ok(ExitCode::Ok)
}
