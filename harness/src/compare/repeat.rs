//! Rows that only repeat their one child phase.
//!
//! A phase's children are the spans recorded directly under it: for [`TOTAL`], the top-level
//! spans (no parent); for any other phase, the spans whose `parent` is that phase. A row of
//! phase `P` *only repeats* its child `C` in a family (one variant, one case, both sides) when,
//! in every measured sample (successful, not a warm-up) of both sides:
//!
//! 1. the spans directly under `P` all carry one name, `C`, the same in every sample, and there
//!    is at least one of them;
//! 2. the sample has values of both `P` and `C`, `P`'s is positive, and they differ by at most
//!    [`MAX_UNCOVERED_SHARE`] of `P`'s: `|P - C| <= u * P`.
//!
//! and, when the rows are built, `C`'s row can be tested and `P`'s threshold exceeds what the
//! uncovered part alone can move `P` by (below). Then `P`'s ratio is `C`'s ratio times a factor
//! within `[1 - u, 1 / (1 - u)]` (u the largest share seen): with `u <= 2%`, `P` cannot move by
//! more than about 2% unless `C` moves. Testing `P` as well adds no evidence, only a second
//! p-value of the same measurement to the Benjamini-Hochberg families, which weakens every
//! other row's q-value. The typical case: `total` of a synthesis-only run, whose one top-level
//! phase is `synthesis` and whose end-to-end time is synthesis plus a timer's overhead.
//!
//! Such a row keeps its own medians, ratio, interval and p-value (shown), but is kept out of
//! every family, and its q-value and verdict are its child's ([`follow_children`]); its note
//! says `same as C`.

use crate::model::{PhaseComparison, Sample, TOTAL};

/// The largest share of a parent phase its one child may leave uncovered in any sample for the
/// parent to count as a repeat of the child.
pub const MAX_UNCOVERED_SHARE: f64 = 0.02;

/// The child `phase` only repeats in `samples` (the measured samples of both sides), with the
/// largest uncovered share seen; `None` when it does not (conditions 1 and 2 of the module doc).
pub fn repeated_child(phase: &str, samples: &[&Sample]) -> Option<(String, f64)> {
    let mut child: Option<&str> = None;
    let mut worst: f64 = 0.0;
    if samples.is_empty() {
        return None;
    }
    for s in samples {
        let mut under = s.spans.iter().filter(|sp| {
            if phase == TOTAL {
                sp.parent.is_none() && sp.name != TOTAL
            } else {
                sp.parent.as_deref() == Some(phase)
            }
        });
        let first = under.next()?.name.as_str();
        if first == phase || under.any(|sp| sp.name != first) {
            return None;
        }
        match child {
            None => child = Some(first),
            Some(c) if c != first => return None,
            Some(_) => {}
        }
        let p = *s.phases.get(phase)?;
        let c = *s.phases.get(first)?;
        if !(p.is_finite() && c.is_finite() && p > 0.0) {
            return None;
        }
        let share = (p - c).abs() / p;
        if share > MAX_UNCOVERED_SHARE {
            return None;
        }
        worst = worst.max(share);
    }
    child.map(|c| (c.to_string(), worst))
}

/// How far the uncovered part of a parent whose child leaves at most `share` of it uncovered
/// can move the parent's ratio on its own: `1 / (1 - share) - 1`.
pub fn uncovered_bound(share: f64) -> f64 {
    1.0 / (1.0 - share) - 1.0
}

/// The note of a row that only repeats `child`.
pub fn note(child: &str, share: f64) -> String {
    format!(
        "same as {child}: its one child phase covers it to within {:.1}% in every sample; \
         kept out of the q-value families, takes {child}'s verdict",
        share * 100.0
    )
}

/// Gives every row that only repeats a child (`same_as`) the q-value and verdict of the row it
/// repeats (following a chain of repeats to its end), and no repetitions needed of its own.
pub fn follow_children(rows: &mut [PhaseComparison]) {
    for i in 0..rows.len() {
        let mut j = i;
        for _ in 0..rows.len() {
            let Some(child) = rows[j].same_as.as_deref() else {
                break;
            };
            let Some(k) = rows
                .iter()
                .position(|r| r.variant == rows[j].variant && r.case == rows[j].case && r.phase == child)
            else {
                break;
            };
            j = k;
        }
        if j != i && rows[j].same_as.is_none() {
            let (q, verdict) = (rows[j].q_value, rows[j].verdict);
            let r = &mut rows[i];
            r.q_value = q;
            r.verdict = verdict;
            r.reps_needed = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Span;

    fn sample(spans: &[(&str, Option<&str>, f64)], total: f64) -> Sample {
        let mut s = crate::testkit::SyntheticRun::new("r", 1)
            .variant("v", &[])
            .phase("x", 1.0, 0.0)
            .reps(1)
            .build()
            .samples
            .remove(0);
        s.spans = spans
            .iter()
            .map(|&(name, parent, ms)| Span {
                name: name.into(),
                parent: parent.map(String::from),
                start_ms: 0.0,
                ms,
                thread: "main".into(),
            })
            .collect();
        s.phases.clear();
        for &(name, _, ms) in spans {
            *s.phases.entry(name.to_string()).or_default() += ms;
        }
        s.phases.insert(TOTAL.into(), total);
        s
    }

    #[test]
    fn a_total_with_one_covering_top_level_phase_repeats_it() {
        let a = sample(&[("synthesis", None, 100.0)], 100.5);
        let b = sample(&[("synthesis", None, 120.0)], 120.4);
        let (child, share) = repeated_child(TOTAL, &[&a, &b]).unwrap();
        assert_eq!(child, "synthesis");
        assert!((share - 0.5 / 100.5).abs() < 1e-12);
        // Its children do not matter to `total`: `synthesis` still is the one top-level phase.
        let c = sample(&[("synthesis", None, 100.0), ("alloc", Some("synthesis"), 30.0)], 100.2);
        assert_eq!(repeated_child(TOTAL, &[&a, &c]).unwrap().0, "synthesis");
        // A phase with one child covering it repeats it too; the child's own rows do not.
        let d = sample(&[("msm_l", None, 50.0), ("tail_msm", Some("msm_l"), 49.5)], 50.0);
        assert_eq!(repeated_child("msm_l", &[&d]).unwrap().0, "tail_msm");
        assert_eq!(repeated_child("tail_msm", &[&d]), None);
    }

    #[test]
    fn a_second_child_an_uncovered_part_or_one_odd_sample_is_not_a_repeat() {
        let one = sample(&[("synthesis", None, 100.0)], 100.5);
        // Two top-level phases.
        let two = sample(&[("synthesis", None, 100.0), ("msm_l", None, 1.0)], 101.5);
        assert_eq!(repeated_child(TOTAL, &[&two]), None);
        assert_eq!(repeated_child(TOTAL, &[&one, &two]), None);
        // More than 2% left uncovered in one sample.
        let loose = sample(&[("synthesis", None, 100.0)], 103.0);
        assert_eq!(repeated_child(TOTAL, &[&one, &loose]), None);
        // Another child name in another sample.
        let other = sample(&[("bellperson_prove", None, 100.0)], 100.1);
        assert_eq!(repeated_child(TOTAL, &[&one, &other]), None);
        // No children, no samples.
        assert_eq!(repeated_child("synthesis", &[&one]), None);
        assert_eq!(repeated_child(TOTAL, &[]), None);
    }

    #[test]
    fn a_total_that_repeats_its_one_phase_is_kept_out_of_the_family() {
        use crate::compare::{compare_variants, CompareOptions};
        use crate::model::Verdict;
        let opts = CompareOptions::default();
        let row = |c: &crate::model::Comparison, p: &str| c.rows.iter().find(|r| r.phase == p).unwrap().clone();
        // One phase: `total` is its sum, so it only repeats `synthesis`.
        let run = crate::testkit::SyntheticRun::new("r", 5)
            .variant("ref", &[])
            .variant("cand", &["x"])
            .phase("synthesis", 100.0, 0.01)
            .effect("cand", "synthesis", 1.10)
            .reps(10)
            .build();
        let c = compare_variants(&run, "ref", "cand", &opts).unwrap();
        let (total, syn) = (row(&c, TOTAL), row(&c, "synthesis"));
        assert_eq!(total.same_as.as_deref(), Some("synthesis"));
        assert_eq!(syn.same_as, None);
        assert!(total.note.as_deref().unwrap().starts_with("same as synthesis"));
        // `synthesis` is a family of one: its q-value is its p-value.
        assert_eq!(syn.q_value, syn.p_value);
        assert_eq!(syn.verdict, Verdict::Regressed);
        assert_eq!((total.q_value, total.verdict), (syn.q_value, syn.verdict));
        // The total still shows its own numbers.
        assert!(total.ratio > 1.05 && total.ref_median_ms > 0.0);
        // Two phases: `total` is a row of its own, in the family.
        let run = crate::testkit::SyntheticRun::new("r", 5)
            .variant("ref", &[])
            .variant("cand", &["x"])
            .phase("synthesis", 100.0, 0.01)
            .phase("msm_l", 100.0, 0.01)
            .effect("cand", "synthesis", 1.10)
            .reps(10)
            .build();
        let c = compare_variants(&run, "ref", "cand", &opts).unwrap();
        assert!(c.rows.iter().all(|r| r.same_as.is_none()));
        assert!(row(&c, "synthesis").q_value > row(&c, "synthesis").p_value);
    }

    #[test]
    fn the_uncovered_bound_is_what_the_rest_can_move_the_ratio_by() {
        assert!((uncovered_bound(0.02) - 0.02 / 0.98).abs() < 1e-12);
        assert_eq!(uncovered_bound(0.0), 0.0);
    }
}
