//! `phaseline history`: import runs into the history database, list and export
//! it, find steps and trends in its series, chart a series with its steps.

use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use crate::history::export::{export, ExportFormat};
use crate::history::{self, History, Imported, SeriesChanges};
use crate::stats::shifts::ShiftParams;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct HistoryArgs {
    /// History database (default: `[history] path` of the config).
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub cmd: HistoryCmd,
}

/// Which series: every filter left out matches all.
#[derive(Args, Debug, Clone, Default)]
pub struct SeriesFilter {
    #[arg(long)]
    pub testbed: Option<String>,
    #[arg(long)]
    pub variant: Option<String>,
    /// `SUITE/CIRCUIT` or a full case label (`synth/tiny x1 cpu`).
    #[arg(long)]
    pub case: Option<String>,
    #[arg(long)]
    pub phase: Option<String>,
}

/// How steps are searched (docs/history.md).
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Significance level of a step (permutation test) and of a trend (Mann-Kendall).
    #[arg(long, default_value_t = 0.01)]
    pub alpha: f64,
    /// Smallest step, or total drift, reported, in percent.
    #[arg(long, value_name = "PCT", default_value_t = 2.0)]
    pub min_change: f64,
    /// Permutations per tested split.
    #[arg(long, default_value_t = 499)]
    pub permutations: usize,
}

#[derive(Subcommand, Debug)]
pub enum HistoryCmd {
    /// Append run directories to the history (a run already held is skipped).
    Import {
        #[arg(required = true, value_name = "RUN")]
        runs: Vec<PathBuf>,
    },
    /// List the runs held, oldest first.
    List,
    /// Write every stored phase time as CSV or JSON (stdout, or --out FILE).
    Export {
        #[arg(long, value_name = "csv|json")]
        format: ExportFormat,
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Steps (night, commit range, size, p-value) and trends of each series.
    Changes {
        #[command(flatten)]
        filter: SeriesFilter,
        #[command(flatten)]
        search: SearchArgs,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Draw one series (SVG) with its steps marked.
    Chart {
        #[command(flatten)]
        filter: SeriesFilter,
        #[command(flatten)]
        search: SearchArgs,
        #[arg(long, value_name = "FILE.svg")]
        out: PathBuf,
    },
}

/// The database path: `given`, else the config's `[history] path`.
pub fn db_path(cfg: &Config, given: Option<&Path>) -> Option<PathBuf> {
    given
        .map(Path::to_path_buf)
        .or_else(|| cfg.history.path.as_deref().map(|p| cfg.resolve(p)))
}

impl SearchArgs {
    pub fn params(&self) -> Result<ShiftParams, HarnessError> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(HarnessError::Invalid(format!(
                "--alpha {}: use a level in (0, 1)",
                self.alpha
            )));
        }
        if !(self.min_change.is_finite() && self.min_change >= 0.0) {
            return Err(HarnessError::Invalid(format!(
                "--min-change {}: use a percentage >= 0",
                self.min_change
            )));
        }
        if !(19..=100_000).contains(&self.permutations) {
            return Err(HarnessError::Invalid(format!(
                "--permutations {}: use 19 to 100000",
                self.permutations
            )));
        }
        let mut p = ShiftParams::default();
        p.search.alpha = self.alpha;
        p.search.permutations = self.permutations;
        p.trend_alpha = self.alpha;
        p.min_size = self.min_change / 100.0;
        Ok(p)
    }
}

impl SeriesFilter {
    pub fn matches(&self, k: &history::SeriesKey) -> bool {
        let short = format!("{}/{}", k.case.suite, k.case.circuit);
        self.testbed.as_ref().is_none_or(|t| *t == k.testbed)
            && self.variant.as_ref().is_none_or(|v| *v == k.variant)
            && self.case.as_ref().is_none_or(|c| *c == short || *c == k.case.label())
            && self.phase.as_ref().is_none_or(|p| *p == k.phase)
    }
}

fn open(cfg: &Config, db: Option<&Path>, must_exist: bool) -> Result<History, HarnessError> {
    let path = db_path(cfg, db).ok_or_else(|| {
        HarnessError::Invalid("no history database: pass --db PATH or set `[history] path` in the config".into())
    })?;
    if must_exist && !path.is_file() {
        return Err(HarnessError::Invalid(format!(
            "no history at {} (import runs with `phaseline history import RUN...`)",
            path.display()
        )));
    }
    History::open(&path)
}

/// The series `filter` selects, refused when the history or the selection is empty.
fn selected(h: &History, filter: &SeriesFilter) -> Result<Vec<history::Series>, HarnessError> {
    let all = history::series(&h.points()?);
    if all.is_empty() {
        return Err(HarnessError::Invalid(format!(
            "history {} is empty: no night to look for changes in (import runs with `phaseline history import RUN...`)",
            h.path().display()
        )));
    }
    let keep: Vec<_> = all.iter().filter(|s| filter.matches(&s.key)).cloned().collect();
    if keep.is_empty() {
        let mut names: Vec<String> = all.iter().map(|s| s.key.label()).collect();
        names.truncate(12);
        return Err(HarnessError::Invalid(format!(
            "no series of history {} matches the filter; series held include: {}",
            h.path().display(),
            names.join("; ")
        )));
    }
    Ok(keep)
}

pub fn run(cfg: &Config, a: &HistoryArgs) -> Result<ExitCode, HarnessError> {
    let db = a.db.as_deref();
    match &a.cmd {
        HistoryCmd::Import { runs } => {
            // Every run read and checked before anything is written.
            let loaded = runs
                .iter()
                .map(|d| crate::rundir::load_run(d).map(|r| (d, r)))
                .collect::<Result<Vec<_>, _>>()?;
            let mut h = open(cfg, db, false)?;
            for (dir, run) in &loaded {
                match h.import(run, dir)? {
                    Imported::Added { rows } => {
                        println!("imported run {} ({rows} phase times) from {}", run.id, dir.display())
                    }
                    Imported::AlreadyPresent => println!("run {} is already in the history; skipped", run.id),
                }
            }
            Ok(ExitCode::Ok)
        }
        HistoryCmd::List => {
            let runs = open(cfg, db, true)?.runs()?;
            println!(
                "{:<4} {:<40} {:<12} {:<21} {:>7}  testbed",
                "#", "run", "commit", "started", "times"
            );
            for (i, r) in runs.iter().enumerate() {
                let commit = format!(
                    "{}{}",
                    r.commit.get(..10).unwrap_or(&r.commit),
                    if r.dirty { "+" } else { "" }
                );
                println!(
                    "{:<4} {:<40} {:<12} {:<21} {:>7}  {}",
                    i + 1,
                    r.run_id,
                    commit,
                    r.started_utc,
                    r.rows,
                    r.testbed
                );
            }
            println!("{} run(s)", runs.len());
            Ok(ExitCode::Ok)
        }
        HistoryCmd::Export { format, out } => {
            let bytes = export(&open(cfg, db, true)?.points()?, *format)?;
            match out {
                Some(p) => crate::fsutil::write_atomic(p, &bytes)?,
                None => {
                    use std::io::Write;
                    std::io::stdout()
                        .write_all(&bytes)
                        .map_err(|e| HarnessError::io("cannot write to stdout", e))?;
                }
            }
            Ok(ExitCode::Ok)
        }
        HistoryCmd::Changes { filter, search, json } => {
            let params = search.params()?;
            let h = open(cfg, db, true)?;
            let found = history::analyze_all(&selected(&h, filter)?, &params, cfg.bootstrap_seed);
            if *json {
                let text = serde_json::to_string_pretty(&found)
                    .map_err(|e| HarnessError::Data(format!("cannot serialize: {e}")))?;
                println!("{text}");
            } else {
                print!("{}", super::history_table::changes_table(&found));
            }
            Ok(ExitCode::Ok)
        }
        HistoryCmd::Chart { filter, search, out } => {
            let params = search.params()?;
            let h = open(cfg, db, true)?;
            let sel = selected(&h, filter)?;
            let [one] = sel.as_slice() else {
                let names: Vec<String> = sel.iter().take(8).map(|s| s.key.label()).collect();
                return Err(HarnessError::Invalid(format!(
                    "{} series match; name one with --variant, --case, --phase (and --testbed): {}",
                    sel.len(),
                    names.join("; ")
                )));
            };
            let c: SeriesChanges = history::changes::analyze_series(one, &params, cfg.bootstrap_seed);
            let svg = crate::chart::render::render_svg(&history::chart::trend_of(one, &c), 1100, 560)?;
            crate::fsutil::write_atomic(out, svg.as_bytes())?;
            println!("chart of {} written to {}", one.key.label(), out.display());
            Ok(ExitCode::Ok)
        }
    }
}
