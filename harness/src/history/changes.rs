//! Steps and trends of each series ([`crate::stats::shifts`]), told in the
//! history's terms: the night a step shows, the commit range it lies in (the
//! last commit measured before it, the first after), its size and p-value; and
//! [`onset`], when a regression the nightly just found started.

use super::series::{Series, SeriesKey};
use crate::stats::shifts::{analyze, ShiftParams};
use serde::Serialize;

/// A step of one series.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepReport {
    /// 1-based night (run) of the series where the new level starts.
    pub night: usize,
    pub run_id: String,
    pub started_utc: String,
    /// Last commit measured at the old level, first at the new one.
    pub commit_before: String,
    pub commit_after: String,
    pub before_ms: f64,
    pub after_ms: f64,
    /// `(after / before - 1) * 100`.
    pub change_pct: f64,
    /// Permutation p-value of the split.
    pub p_value: f64,
}

/// A slow drift of one series.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrendReport {
    /// Theil-Sen slope, percent of the starting level per night.
    pub pct_per_night: f64,
    /// Mann-Kendall p-value.
    pub p_value: f64,
    pub first_commit: String,
    pub last_commit: String,
}

/// What one series holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeriesChanges {
    pub key: SeriesKey,
    pub nights: usize,
    pub steps: Vec<StepReport>,
    pub trend: Option<TrendReport>,
}

/// Steps and trend of `s`; the permutation seed comes from `seed` and the series' key,
/// so a history gives the same answer every time it is asked.
pub fn analyze_series(s: &Series, params: &ShiftParams, seed: u64) -> SeriesChanges {
    let mut p = *params;
    p.search.seed = crate::stats::derive_seed(seed, &s.key.label());
    let shifts = analyze(&s.medians(), &p);
    let steps = shifts
        .steps
        .iter()
        .map(|st| {
            let (before, after) = (&s.nights[st.index - 1], &s.nights[st.index]);
            StepReport {
                night: st.index + 1,
                run_id: after.run_id.clone(),
                started_utc: after.started_utc.clone(),
                commit_before: before.commit.clone(),
                commit_after: after.commit.clone(),
                before_ms: st.before,
                after_ms: st.after,
                change_pct: st.relative * 100.0,
                p_value: st.p_value,
            }
        })
        .collect();
    let trend = shifts.drift.map(|d| TrendReport {
        pct_per_night: d.relative_slope * 100.0,
        p_value: d.p_value,
        first_commit: s.nights.first().map(|n| n.commit.clone()).unwrap_or_default(),
        last_commit: s.nights.last().map(|n| n.commit.clone()).unwrap_or_default(),
    });
    SeriesChanges {
        key: s.key.clone(),
        nights: s.nights.len(),
        steps,
        trend,
    }
}

/// Every series analysed, in key order.
pub fn analyze_all(all: &[Series], params: &ShiftParams, seed: u64) -> Vec<SeriesChanges> {
    all.iter().map(|s| analyze_series(s, params, seed)).collect()
}

/// When a slowdown of one series started: its last upward step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Onset {
    pub key: SeriesKey,
    pub step: StepReport,
    pub nights: usize,
}

/// The last upward step (slower) of the series with `key`, if the history shows one.
pub fn onset(all: &[Series], key: &SeriesKey, params: &ShiftParams, seed: u64) -> Option<Onset> {
    let s = all.iter().find(|s| &s.key == key)?;
    let c = analyze_series(s, params, seed);
    let step = c.steps.into_iter().rev().find(|st| st.change_pct > 0.0)?;
    Some(Onset {
        key: key.clone(),
        step,
        nights: c.nights,
    })
}
