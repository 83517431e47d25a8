//! What to do after a nightly regression: the regressed phases, a `git bisect`
//! command between the baseline's commit and this run's, judged by
//! `phaseline bisect oracle` against the stored baseline, and a
//! `phaseline bisect flags` hint when the regressed variant has flags. When the
//! history shows when the regressed phase got slower, the bisect covers that
//! step's commit range instead.

use crate::config::Config;
use crate::history::Onset;
use crate::model::{Case, Comparison, Run, Verdict, TOTAL};
use serde::Serialize;

/// One regressed row, as `nightly.json` lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Regressed {
    pub variant: String,
    pub case: String,
    pub phase: String,
    pub ref_median_ms: f64,
    pub cand_median_ms: f64,
    /// Candidate median / reference median.
    pub ratio: f64,
}

/// The regressed rows, in the comparison's order.
pub fn regressed(c: &Comparison) -> Vec<Regressed> {
    c.rows
        .iter()
        .filter(|r| r.verdict == Verdict::Regressed)
        .map(|r| Regressed {
            variant: r.variant.clone(),
            case: r.case.label(),
            phase: r.phase.clone(),
            ref_median_ms: r.ref_median_ms,
            cand_median_ms: r.cand_median_ms,
            ratio: r.ratio,
        })
        .collect()
}

/// A commit usable as a `git bisect` end: a hex object name.
fn known(commit: &str) -> bool {
    commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit())
}

/// The next steps, one line each: a header per regressed (variant, case) with
/// its phases, then the commands. `baseline_run` is the stored baseline's run;
/// `onsets`, the steps the history shows for regressed phases.
pub fn next_steps(
    cfg: &Config,
    c: &Comparison,
    name: &str,
    baseline_run: &Run,
    run: &Run,
    onsets: &[Onset],
) -> Vec<String> {
    let mut groups: Vec<(String, Case)> = Vec::new();
    for r in c.rows.iter().filter(|r| r.verdict == Verdict::Regressed) {
        if !groups.iter().any(|(v, k)| *v == r.variant && *k == r.case) {
            groups.push((r.variant.clone(), r.case.clone()));
        }
    }
    let mut out = Vec::new();
    for (variant, case) in groups {
        let rows: Vec<_> = c
            .rows
            .iter()
            .filter(|r| r.verdict == Verdict::Regressed && r.variant == variant && r.case == case)
            .collect();
        let phases: Vec<String> = rows
            .iter()
            .map(|r| format!("{} {:+.1}%", r.phase, (r.ratio - 1.0) * 100.0))
            .collect();
        out.push(format!(
            "regressed: variant `{variant}` on {}: {}",
            case.label(),
            phases.join(", ")
        ));
        // Bisect the largest regressed phase; `total` only when nothing else moved.
        let metric = rows
            .iter()
            .filter(|r| r.phase != TOTAL)
            .max_by(|a, b| a.ratio.total_cmp(&b.ratio))
            .or_else(|| rows.first())
            .map(|r| r.phase.clone())
            .unwrap_or_else(|| TOTAL.into());
        let onset = onsets
            .iter()
            .find(|o| o.key.variant == variant && o.key.case == case && o.key.phase == metric);
        let (mut good, mut bad) = (&baseline_run.provenance.git_commit, &run.provenance.git_commit);
        if let Some(o) = onset {
            let s = &o.step;
            out.push(format!(
                "  history: `{metric}` stepped {:+.1}% (p = {:.4}) at night {} of {} (run {}, {}), between commit {} (last before) and {} (first after)",
                s.change_pct, s.p_value, s.night, o.nights, s.run_id, s.started_utc, s.commit_before, s.commit_after
            ));
            if known(&s.commit_before) && known(&s.commit_after) && s.commit_before != s.commit_after {
                (good, bad) = (&s.commit_before, &s.commit_after);
            }
        }
        let features: Vec<String> = run
            .variants
            .iter()
            .find(|v| v.variant.name == variant)
            .map(|v| v.variant.features.clone())
            .unwrap_or_default();
        let before: Option<&Vec<String>> = baseline_run
            .variants
            .iter()
            .find(|v| v.variant.name == variant)
            .map(|v| &v.variant.features);
        if let Some(before) = before.filter(|b| **b != features) {
            let added: Vec<&str> = features
                .iter()
                .filter(|f| !before.contains(f))
                .map(String::as_str)
                .collect();
            let removed: Vec<&str> = before
                .iter()
                .filter(|f| !features.contains(f))
                .map(String::as_str)
                .collect();
            out.push(format!(
                "  variant `{variant}` was built with other features than in the baseline (added: [{}], removed: [{}]): the first suspect",
                added.join(","),
                removed.join(",")
            ));
        }
        let mut oracle = format!("phaseline bisect oracle --baseline {name} --baseline-variant {variant}");
        if !features.is_empty() {
            oracle.push_str(&format!(" --features {}", features.join(",")));
        }
        oracle.push_str(&format!(
            " --suite {} --circuit {} --metric {metric}",
            case.suite, case.circuit
        ));
        if !known(good) {
            out.push(format!(
                "  no commit bisect: the baseline's commit is `{good}` (not recorded); judge a commit by hand with: {oracle}"
            ));
        } else if good == bad {
            out.push(format!(
                "  no commit to bisect: the baseline and this run are both commit {good}{}; the change comes from the machine or its setup (rerun the nightly to confirm)",
                if run.provenance.git_dirty { " (this run's tree is dirty: uncommitted changes are the first suspect)" } else { "" }
            ));
        } else {
            let end = if known(bad) { bad.as_str() } else { "HEAD" };
            out.push(format!(
                "  bisect the commits: git bisect start {end} {good} && git bisect run {oracle}; git bisect reset"
            ));
        }
        let flag_features: Vec<&String> = features
            .iter()
            .filter(|f| cfg.flags.iter().any(|fl| &fl.feature == *f))
            .collect();
        if !flag_features.is_empty() {
            let rest: Vec<&String> = features.iter().filter(|f| !flag_features.contains(f)).collect();
            let mut cmd = String::from("phaseline bisect flags");
            if !rest.is_empty() {
                cmd.push_str(&format!(
                    " --good {}",
                    rest.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(",")
                ));
            }
            cmd.push_str(&format!(
                " --bad {} --suite {} --circuit {} --metric {metric}",
                features.join(","),
                case.suite,
                case.circuit
            ));
            out.push(format!(
                "  variant `{variant}` has flags ({}): which of them moves `{metric}`: {cmd}",
                flag_features.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    out
}
