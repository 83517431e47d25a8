//! Steps and trends of a series of nightly medians: E-divisive change points
//! ([`super::edivisive`]) told apart from a slow drift ([`super::trend`]).
//!
//! A drift also splits significantly (into a staircase), so two models are
//! fitted by least squares and compared by BIC: the steps alone (a level per
//! segment between the change points of the series), and a line plus the
//! steps found in what the Theil-Sen line leaves over (so a step on top of a
//! drift is still found). The series drifts when Mann-Kendall finds a
//! monotonic trend, the line's total change reaches `min_size` and the line
//! model has the smaller BIC. Steps smaller than `min_size` (relative) are not
//! reported. Pure functions, no I/O.

use super::edivisive::{change_points, EDivisive};
use super::lsq::fit;
use super::median;
use super::trend::{mann_kendall, theil_sen};

/// Parameters of [`analyze`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShiftParams {
    pub search: EDivisive,
    /// Smallest relative step or total drift reported (0.02 = 2%).
    pub min_size: f64,
    /// Mann-Kendall significance level of a trend.
    pub trend_alpha: f64,
}

impl Default for ShiftParams {
    fn default() -> Self {
        ShiftParams {
            search: EDivisive::default(),
            min_size: 0.02,
            trend_alpha: 0.01,
        }
    }
}

/// A step: the level changes between points `index - 1` and `index`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub index: usize,
    /// Median of the segment before, and of the segment after.
    pub before: f64,
    pub after: f64,
    /// `after / before - 1`.
    pub relative: f64,
    pub p_value: f64,
}

/// A monotonic drift.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drift {
    /// Theil-Sen slope per point, relative to the line's start (0.005 = +0.5% a point).
    pub relative_slope: f64,
    /// Mann-Kendall two-sided p-value.
    pub p_value: f64,
}

/// What a series holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shifts {
    pub steps: Vec<Step>,
    pub drift: Option<Drift>,
}

/// Segment medians of `y` cut at `cuts` (sorted indices).
fn segment_medians(y: &[f64], cuts: &[usize]) -> Vec<(usize, usize, f64)> {
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(y.len());
    bounds
        .windows(2)
        .filter(|w| w[1] > w[0])
        .map(|w| (w[0], w[1], median(&y[w[0]..w[1]]).unwrap_or(0.0)))
        .collect()
}

/// Steps of `y` at `splits`, measured on `level` (the series, or the series less a line).
fn steps_of(y: &[f64], splits: &[super::edivisive::Split], min_size: f64) -> Vec<Step> {
    let cuts: Vec<usize> = splits.iter().map(|s| s.index).collect();
    let segs = segment_medians(y, &cuts);
    splits
        .iter()
        .zip(segs.windows(2))
        .map(|(s, w)| Step {
            index: s.index,
            before: w[0].2,
            after: w[1].2,
            relative: if w[0].2 != 0.0 { w[1].2 / w[0].2 - 1.0 } else { 0.0 },
            p_value: s.p_value,
        })
        .filter(|s| s.relative.abs() >= min_size)
        .collect()
}

/// Steps and drift of the series `y` (oldest first, positive values such as medians).
pub fn analyze(y: &[f64], p: &ShiftParams) -> Shifts {
    if y.iter().any(|v| !v.is_finite()) {
        return Shifts::default();
    }
    let n = y.len();
    let splits = change_points(y, &p.search);
    let cuts: Vec<usize> = splits.iter().map(|s| s.index).collect();
    let steps_only = Shifts {
        steps: steps_of(y, &splits, p.min_size),
        drift: None,
    };
    let (Some((slope, _)), Some((_, mk_p)), Some(step_fit)) = (theil_sen(y), mann_kendall(y), fit(y, false, &cuts))
    else {
        return steps_only;
    };
    if mk_p >= p.trend_alpha {
        return steps_only;
    }
    // The drift model: steps searched in what the Theil-Sen line leaves over, then
    // the line and those steps fitted together.
    let resid: Vec<f64> = y.iter().enumerate().map(|(i, v)| v - slope * i as f64).collect();
    let rsplits = change_points(&resid, &p.search);
    let rcuts: Vec<usize> = rsplits.iter().map(|s| s.index).collect();
    let Some(line_fit) = fit(y, true, &rcuts) else {
        return steps_only;
    };
    let total = if line_fit.level != 0.0 {
        line_fit.slope * (n - 1) as f64 / line_fit.level
    } else {
        0.0
    };
    if total.abs() < p.min_size || line_fit.bic(n) >= step_fit.bic(n) {
        return steps_only;
    }
    let mut offset = 0.0;
    let steps = rsplits
        .iter()
        .zip(&line_fit.steps)
        .filter_map(|(s, size)| {
            let before = line_fit.level + line_fit.slope * s.index as f64 + offset;
            offset += size;
            let relative = if before != 0.0 { size / before } else { 0.0 };
            (relative.abs() >= p.min_size).then_some(Step {
                index: s.index,
                before,
                after: before + size,
                relative,
                p_value: s.p_value,
            })
        })
        .collect();
    Shifts {
        steps,
        drift: Some(Drift {
            relative_slope: line_fit.slope / line_fit.level,
            p_value: mk_p,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::super::rng::series;
    use super::*;

    #[test]
    fn a_step_is_a_step_with_its_size() {
        for seed in 0..10 {
            let y = series(30, 0.01, seed, |i| if i >= 17 { 104.0 } else { 100.0 });
            let s = analyze(&y, &ShiftParams::default());
            assert!(s.drift.is_none(), "seed {seed}: {s:?}");
            assert_eq!(s.steps.len(), 1, "seed {seed}: {s:?}");
            assert!((16..=18).contains(&s.steps[0].index), "seed {seed}: {s:?}");
            assert!((s.steps[0].relative - 0.04).abs() < 0.015, "seed {seed}: {s:?}");
        }
    }

    #[test]
    fn a_drift_is_a_trend_not_a_step() {
        for seed in 0..10 {
            let y = series(30, 0.01, seed, |i| 100.0 * (1.0 + 0.005 * i as f64));
            let s = analyze(&y, &ShiftParams::default());
            let d = s.drift.unwrap_or_else(|| panic!("seed {seed}: {s:?}"));
            assert!((d.relative_slope - 0.005).abs() < 0.0015, "seed {seed}: {d:?}");
            assert!(s.steps.is_empty(), "seed {seed}: {s:?}");
        }
    }

    #[test]
    fn a_step_on_a_drift_is_both() {
        let y = series(40, 0.003, 9, |i| {
            100.0 * (1.0 + 0.004 * i as f64) * if i >= 25 { 1.08 } else { 1.0 }
        });
        let s = analyze(&y, &ShiftParams::default());
        assert!(s.drift.is_some(), "{s:?}");
        assert_eq!(s.steps.len(), 1, "{s:?}");
        assert!((24..=26).contains(&s.steps[0].index), "{s:?}");
    }

    #[test]
    fn noise_is_neither() {
        let mut flagged = 0;
        for seed in 0..30 {
            let s = analyze(&series(30, 0.01, 500 + seed, |_| 100.0), &ShiftParams::default());
            if !s.steps.is_empty() || s.drift.is_some() {
                flagged += 1;
            }
        }
        assert!(flagged <= 1, "{flagged} of 30 noise series flagged");
        assert_eq!(
            analyze(&[1.0, f64::NAN, 2.0], &ShiftParams::default()),
            Shifts::default()
        );
    }
}
