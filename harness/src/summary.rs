//! Run summary: per-phase medians and spread of every variant on every case of a [`Run`],
//! what `phaseline run` prints at the end and writes beside the raw samples.

use serde::{Deserialize, Serialize};

use crate::model::{Case, Run};
use crate::stats;

/// One phase of one variant on one case. Statistics are `None` when the phase has no samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseSummary {
    pub variant: String,
    pub case: Case,
    pub phase: String,
    /// Successful measured samples holding this phase.
    pub n: usize,
    /// Failed measured samples of this variant on this case.
    pub failed: usize,
    pub median_ms: Option<f64>,
    /// Quartiles (type 7).
    pub p25_ms: Option<f64>,
    pub p75_ms: Option<f64>,
    pub min_ms: Option<f64>,
    pub max_ms: Option<f64>,
}

impl PhaseSummary {
    /// Half the interquartile range relative to the median (a robust spread; 0.01 = 1%).
    pub fn rel_half_iqr(&self) -> Option<f64> {
        match (self.median_ms, self.p25_ms, self.p75_ms) {
            (Some(m), Some(a), Some(b)) if m > 0.0 => Some((b - a) / 2.0 / m),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub run_id: String,
    pub testbed: String,
    pub variants: Vec<String>,
    pub cases: Vec<Case>,
    /// Per case, per phase (`total` first), per variant.
    pub rows: Vec<PhaseSummary>,
}

impl RunSummary {
    pub fn get(&self, variant: &str, case: &Case, phase: &str) -> Option<&PhaseSummary> {
        self.rows
            .iter()
            .find(|r| r.variant == variant && &r.case == case && r.phase == phase)
    }

    /// Phase names of `case`, in row order.
    pub fn phases(&self, case: &Case) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in self.rows.iter().filter(|r| &r.case == case) {
            if !out.contains(&r.phase) {
                out.push(r.phase.clone());
            }
        }
        out
    }
}

/// Summarises every variant, case and phase of `run`.
pub fn summarize(run: &Run) -> RunSummary {
    let mut variants = run.variant_names();
    let mut cases = run.cases.clone();
    for s in &run.samples {
        if !variants.contains(&s.variant) {
            variants.push(s.variant.clone());
        }
        if !cases.contains(&s.case) {
            cases.push(s.case.clone());
        }
    }
    let mut rows = Vec::new();
    for case in &cases {
        let mut phases: Vec<String> = Vec::new();
        for v in &variants {
            for p in run.phase_names(v, case) {
                if !phases.contains(&p) {
                    phases.push(p);
                }
            }
        }
        for p in &phases {
            for v in &variants {
                let measured = run
                    .samples
                    .iter()
                    .filter(|s| !s.warmup && &s.variant == v && &s.case == case);
                let (total, failed) = measured.fold((0, 0), |(t, f), s| (t + 1, f + usize::from(!s.ok)));
                if total == 0 {
                    continue;
                }
                let values = stats::quantile::sorted(&run.values(v, case, p));
                let q = |x: f64| stats::quantile_sorted(&values, x);
                rows.push(PhaseSummary {
                    variant: v.clone(),
                    case: case.clone(),
                    phase: p.clone(),
                    n: values.len(),
                    failed,
                    median_ms: q(0.5),
                    p25_ms: q(0.25),
                    p75_ms: q(0.75),
                    min_ms: values.first().copied(),
                    max_ms: values.last().copied(),
                });
            }
        }
    }
    RunSummary {
        run_id: run.id.clone(),
        testbed: run.testbed.key.clone(),
        variants,
        cases,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::synthetic::SyntheticRun;

    #[test]
    fn medians_per_variant_case_and_phase() {
        let run = SyntheticRun::new("r", 1)
            .variant("a", &[])
            .variant("b", &["x"])
            .phase("p", 10.0, 0.0)
            .effect("b", "p", 1.5)
            .drop_phase("a", "q")
            .phase("q", 4.0, 0.0)
            .reps(4)
            .fail("b", 0)
            .build();
        let s = summarize(&run);
        let c = &run.cases[0];
        assert_eq!(s.phases(c), vec!["total", "p", "q"]);
        let bp = s.get("b", c, "p").unwrap();
        assert_eq!((bp.n, bp.failed, bp.median_ms), (3, 1, Some(15.0)));
        assert_eq!(bp.rel_half_iqr(), Some(0.0));
        assert_eq!(s.get("a", c, "total").unwrap().median_ms, Some(10.0));
        let aq = s.get("a", c, "q").unwrap();
        assert_eq!((aq.n, aq.median_ms), (0, None));
        // JSON round trip (None stays None).
        let back: RunSummary = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }
}
