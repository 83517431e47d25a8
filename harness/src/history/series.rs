//! Series of nightly medians: the stored points grouped by (testbed, variant,
//! case, phase), one value per run (the median of its measured samples), runs
//! in the order they started. Warm-up samples and the reference runners a
//! night measures beside its own (`*@ref` variants) never enter a series.

use super::rows::Point;
use crate::model::Case;
use serde::Serialize;
use std::collections::BTreeMap;

/// What one series follows.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SeriesKey {
    pub testbed: String,
    pub variant: String,
    pub case: Case,
    pub phase: String,
}

impl SeriesKey {
    /// `testbed variant case phase`, e.g. `cpu-x-2c-nogpu baseline synth/tiny x1 cpu synthesis`.
    pub fn label(&self) -> String {
        format!("{} {} {} {}", self.testbed, self.variant, self.case.label(), self.phase)
    }
}

/// One night of a series.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Night {
    pub run_id: String,
    pub commit: String,
    pub started_utc: String,
    pub median_ms: f64,
    /// Measured samples behind the median.
    pub n: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Series {
    pub key: SeriesKey,
    /// Oldest first.
    pub nights: Vec<Night>,
}

impl Series {
    pub fn medians(&self) -> Vec<f64> {
        self.nights.iter().map(|n| n.median_ms).collect()
    }
}

/// The series of `points` (which come oldest run first), in key order.
pub fn series(points: &[Point]) -> Vec<Series> {
    // key -> run order -> (night without median, values)
    let mut acc: BTreeMap<SeriesKey, Vec<(Night, Vec<f64>)>> = BTreeMap::new();
    for p in points
        .iter()
        .filter(|p| !p.warmup && !crate::reference::is_ref(&p.variant))
    {
        let key = SeriesKey {
            testbed: p.testbed.clone(),
            variant: p.variant.clone(),
            case: p.case.clone(),
            phase: p.phase.clone(),
        };
        let nights = acc.entry(key).or_default();
        match nights.last_mut() {
            Some((n, vals)) if n.run_id == p.run_id => vals.push(p.ms),
            _ => nights.push((
                Night {
                    run_id: p.run_id.clone(),
                    commit: p.commit.clone(),
                    started_utc: p.started_utc.clone(),
                    median_ms: 0.0,
                    n: 0,
                },
                vec![p.ms],
            )),
        }
    }
    acc.into_iter()
        .map(|(key, nights)| Series {
            key,
            nights: nights
                .into_iter()
                .filter_map(|(mut n, vals)| {
                    n.median_ms = crate::stats::median(&vals)?;
                    n.n = vals.len();
                    Some(n)
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(run: &str, variant: &str, phase: &str, ms: f64, warmup: bool) -> Point {
        Point {
            run_id: run.into(),
            testbed: "tb".into(),
            commit: format!("c-{run}"),
            started_utc: run.into(),
            variant: variant.into(),
            features: String::new(),
            case: Case {
                suite: "synth".into(),
                circuit: "tiny".into(),
                partitions: 1,
                backend: crate::model::Backend::Cpu,
                clock: Default::default(),
            },
            rep: 0,
            warmup,
            phase: phase.into(),
            ms,
        }
    }

    #[test]
    fn medians_per_run_without_warmups_or_references() {
        let pts = vec![
            pt("r1", "baseline", "total", 10.0, false),
            pt("r1", "baseline", "total", 12.0, false),
            pt("r1", "baseline", "total", 11.0, false),
            pt("r1", "baseline", "total", 99.0, true),
            pt("r1", "baseline@ref", "total", 50.0, false),
            pt("r2", "baseline", "total", 20.0, false),
        ];
        let s = series(&pts);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].medians(), vec![11.0, 20.0]);
        assert_eq!(s[0].nights[0].n, 3);
        assert_eq!(s[0].nights[1].commit, "c-r2");
    }
}
