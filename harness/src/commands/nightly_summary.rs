//! `nightly.json`: what a night measured, judged and decided, for people and CI.

use super::nightly_steps::{regressed, Regressed};
use crate::error::ExitCode;
use crate::host_load::HostBusy;
use crate::model::{Baseline, Comparison, Run};
use crate::reference::RefChoice;
use crate::settle::SettleReport;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The stored baseline a night was judged against.
#[derive(Debug, Serialize)]
pub struct BaselineInfo {
    pub name: String,
    pub file: String,
    pub commit: String,
    pub run_id: String,
    pub saved_utc: String,
}

#[derive(Debug, Serialize)]
pub struct Paths {
    pub dir: String,
    pub run: String,
    pub compare_md: String,
    pub compare_json: Option<String>,
    pub report: String,
}

/// `nightly.json`.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub schema_version: u32,
    pub testbed: String,
    pub commit: String,
    pub dirty: bool,
    pub run_id: String,
    pub first_night: bool,
    pub baseline: BaselineInfo,
    pub verdicts: BTreeMap<&'static str, usize>,
    pub exit_code: i32,
    pub promoted: bool,
    pub previous_baseline: Option<String>,
    pub message: String,
    pub regressions: Vec<Regressed>,
    pub next_steps: Vec<String>,
    /// What each variant was judged against (empty on a first night).
    pub reference: Vec<RefChoice>,
    /// Rounds of extra repetitions and the rows still undecided.
    pub settle: Option<SettleReport>,
    /// How busy the rest of the host was while tonight's runners ran.
    pub host: Option<HostBusy>,
    pub paths: Paths,
}

fn verdict_counts(c: Option<&Comparison>) -> BTreeMap<&'static str, usize> {
    let counts = crate::report::count_verdicts(c.iter().flat_map(|c| c.rows.iter()));
    crate::report::VERDICTS.iter().copied().zip(counts).collect()
}

/// The baseline part of `nightly.json`: the stored one, or the run itself on the first night.
pub fn baseline_info(file: &Path, name: &str, b: Option<&Baseline>, run: &Run) -> BaselineInfo {
    BaselineInfo {
        name: name.into(),
        file: file.display().to_string(),
        commit: b
            .map_or(&run.provenance.git_commit, |b| &b.run.provenance.git_commit)
            .clone(),
        run_id: b.map_or(&run.id, |b| &b.run.id).clone(),
        saved_utc: b.map_or_else(crate::provenance::now_utc, |b| b.saved_utc.clone()),
    }
}

impl Summary {
    pub fn new(
        run: &Run,
        first: bool,
        cmp: Option<&Comparison>,
        code: ExitCode,
        run_dir: &Path,
        out: &Path,
    ) -> Summary {
        Summary {
            schema_version: 1,
            testbed: run.testbed.key.clone(),
            commit: run.provenance.git_commit.clone(),
            dirty: run.provenance.git_dirty,
            run_id: run.id.clone(),
            first_night: first,
            baseline: baseline_info(Path::new(""), "", None, run),
            verdicts: verdict_counts(cmp),
            exit_code: code as i32,
            promoted: false,
            previous_baseline: None,
            message: String::new(),
            regressions: cmp.map(regressed).unwrap_or_default(),
            next_steps: Vec::new(),
            reference: Vec::new(),
            settle: None,
            host: None,
            paths: Paths {
                dir: out.display().to_string(),
                run: run_dir.display().to_string(),
                compare_md: out.join("compare.md").display().to_string(),
                compare_json: cmp.map(|_| out.join("compare.json").display().to_string()),
                report: out.join("report").join("report.html").display().to_string(),
            },
        }
    }
}
