//! Phases that run concurrently, and the critical path.
//!
//! A flag that moves work beside other work (B_G2 on the CPU while the GPU runs the G1 MSMs, as
//! `par-bg2` does) makes each of the phases it overlaps look slower, because they now share the
//! machine, while the proof gets faster. Judged phase by phase, such a flag reads as several
//! regressions. So before a family is compared, its concurrent phases are found from the spans:
//!
//! - Two top-level phases (spans without a parent) are concurrent when their spans overlap by
//!   more than [`MIN_OVERLAP_MS`] and more than [`MIN_OVERLAP_SHARE`] of the shorter span in at
//!   least half of one side's measured samples. Concurrency is transitive: the phases connected
//!   by it form one group.
//! - Every group of two or more phases becomes a pseudo-phase named by its members joined with
//!   `+` (in order of first start), valued per sample at the group's elapsed time: last end of
//!   any member's span minus first start. It is defined on both sides whether or not they
//!   overlapped there, so a side that ran them one after another is compared with one that ran
//!   them together.
//! - [`CRITICAL_PATH`] is, per sample, the time covered by at least one top-level span: the
//!   elapsed time of the schedule with idle gaps removed, in which a concurrent group counts
//!   once, by its longest chain.
//!
//! After the family is judged, a member phase that regressed while its group did not is given
//! the verdict `overlapped` (reported, not counted as a regression): the work it shares the
//! machine with finished no later than before.

use crate::model::{Case, PhaseComparison, Run, Sample, Span, Verdict};
use std::collections::BTreeMap;

/// Pseudo-phase: time covered by at least one top-level phase (added only to families with a
/// concurrent group).
pub const CRITICAL_PATH: &str = "critical_path";

/// Overlap below this is clock jitter at phase boundaries, not concurrency.
pub const MIN_OVERLAP_MS: f64 = 0.05;
/// ... and so is overlap below this share of the shorter span.
pub const MIN_OVERLAP_SHARE: f64 = 0.02;

/// A group of concurrent phases of one family.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Members, in order of first start.
    pub members: Vec<String>,
}

impl Group {
    /// The pseudo-phase name: members joined by `+`.
    pub fn name(&self) -> String {
        self.members.join("+")
    }

    /// Elapsed time of the group in one sample; `None` when none of its members ran.
    fn elapsed(&self, spans: &[Span]) -> Option<f64> {
        let mine = top_level(spans).filter(|s| self.members.iter().any(|m| m == &s.name));
        let (lo, hi) = mine.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), s| {
            (lo.min(s.start_ms), hi.max(s.start_ms + s.ms))
        });
        (hi >= lo).then_some(hi - lo)
    }
}

fn top_level(spans: &[Span]) -> impl Iterator<Item = &Span> {
    spans
        .iter()
        .filter(|s| s.parent.is_none() && s.ms.is_finite() && s.start_ms.is_finite())
}

fn overlaps(a: &Span, b: &Span) -> bool {
    let shared = (a.start_ms + a.ms).min(b.start_ms + b.ms) - a.start_ms.max(b.start_ms);
    shared > MIN_OVERLAP_MS && shared > MIN_OVERLAP_SHARE * a.ms.min(b.ms)
}

/// Pairs of distinct phase names that overlap in `sample`.
fn overlapping_pairs(sample: &Sample) -> Vec<(String, String)> {
    let spans: Vec<&Span> = top_level(&sample.spans).collect();
    let mut out = Vec::new();
    for (i, a) in spans.iter().enumerate() {
        for b in &spans[i + 1..] {
            if a.name != b.name && overlaps(a, b) {
                let pair = if a.name < b.name {
                    (a.name.clone(), b.name.clone())
                } else {
                    (b.name.clone(), a.name.clone())
                };
                if !out.contains(&pair) {
                    out.push(pair);
                }
            }
        }
    }
    out
}

/// Time covered by at least one top-level span of a sample; `None` without spans.
pub fn critical_path_ms(spans: &[Span]) -> Option<f64> {
    let mut top = top_level(spans).peekable();
    top.peek()?;
    Some(phaseline_record::union_ms(top.map(|s| (s.start_ms, s.start_ms + s.ms))))
}

/// The concurrent groups of a family, from the measured samples of its two sides.
pub fn groups(sides: [&[&Sample]; 2]) -> Vec<Group> {
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut linked: Vec<(String, String)> = Vec::new();
    for side in sides {
        counts.clear();
        for s in side {
            for p in overlapping_pairs(s) {
                *counts.entry(p).or_default() += 1;
            }
        }
        for (p, n) in &counts {
            if 2 * n >= side.len() && !linked.contains(p) {
                linked.push(p.clone());
            }
        }
    }
    // Union of linked names into groups, each ordered by its members' first start.
    let mut sets: Vec<Vec<String>> = Vec::new();
    for (a, b) in linked {
        let ia = sets.iter().position(|g| g.contains(&a));
        let ib = sets.iter().position(|g| g.contains(&b));
        match (ia, ib) {
            (Some(i), Some(j)) if i != j => {
                let moved = sets.remove(i.max(j));
                sets[i.min(j)].extend(moved);
            }
            (Some(_), Some(_)) => {}
            (Some(i), None) => sets[i].push(b),
            (None, Some(j)) => sets[j].push(a),
            (None, None) => sets.push(vec![a, b]),
        }
    }
    let first_start = |name: &str| {
        sides
            .iter()
            .flat_map(|side| side.iter())
            .flat_map(|s| top_level(&s.spans))
            .filter(|s| s.name == name)
            .map(|s| s.start_ms)
            .fold(f64::INFINITY, f64::min)
    };
    let mut out: Vec<Group> = sets
        .into_iter()
        .map(|mut members| {
            members.sort_by(|a, b| first_start(a).total_cmp(&first_start(b)).then(a.cmp(b)));
            Group { members }
        })
        .collect();
    out.sort_by(|a, b| first_start(&a.members[0]).total_cmp(&first_start(&b.members[0])));
    out
}

/// Adds the groups' pseudo-phases and [`CRITICAL_PATH`] to every sample of `variant` on `case`.
fn annotate(run: &mut Run, variant: &str, case: &Case, groups: &[Group]) {
    for s in run
        .samples
        .iter_mut()
        .filter(|s| s.ok && s.variant == variant && &s.case == case)
    {
        for g in groups {
            if let Some(ms) = g.elapsed(&s.spans) {
                s.phases.insert(g.name(), ms);
            }
        }
        if let Some(ms) = critical_path_ms(&s.spans) {
            s.phases.insert(CRITICAL_PATH.to_string(), ms);
        }
    }
}

/// Finds the concurrent groups of (`ref_variant` in `reference`, `cand_variant` in `candidate`)
/// on `case`, and adds their pseudo-phases to the samples of both (which may be one run).
/// Returns the groups (none: nothing added).
pub fn annotate_family(
    reference: &mut Run,
    ref_variant: &str,
    candidate: Option<&mut Run>,
    cand_variant: &str,
    case: &Case,
) -> Vec<Group> {
    fn measured<'a>(run: &'a Run, v: &str, case: &Case) -> Vec<&'a Sample> {
        run.samples
            .iter()
            .filter(|s| s.ok && !s.warmup && s.variant == v && &s.case == case)
            .collect()
    }
    let found = {
        let r = measured(reference, ref_variant, case);
        let k = match &candidate {
            Some(c) => measured(c, cand_variant, case),
            None => measured(reference, cand_variant, case),
        };
        groups([&r, &k])
    };
    if found.is_empty() {
        return found;
    }
    annotate(reference, ref_variant, case, &found);
    match candidate {
        Some(c) => annotate(c, cand_variant, case, &found),
        None if cand_variant != ref_variant => annotate(reference, cand_variant, case, &found),
        None => {}
    }
    found
}

/// Gives a regressed member of a group whose own row did not regress the verdict `overlapped`,
/// with a note naming the group and its ratio.
pub fn settle_members(rows: &mut [PhaseComparison], groups: &[Group]) {
    for g in groups {
        let name = g.name();
        let Some(group_row) = rows.iter().find(|r| r.phase == name).cloned() else {
            continue;
        };
        if group_row.verdict == Verdict::Regressed {
            continue;
        }
        for r in rows
            .iter_mut()
            .filter(|r| r.verdict == Verdict::Regressed && g.members.contains(&r.phase))
        {
            r.verdict = Verdict::Overlapped;
            let note = format!(
                "ran concurrently with {}; together they took x{:.3} ({}), so not counted",
                g.members
                    .iter()
                    .filter(|m| **m != r.phase)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", "),
                group_row.ratio,
                group_row.verdict.as_str()
            );
            r.note = Some(match r.note.take() {
                Some(n) => format!("{n}; {note}"),
                None => note,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(name: &str, start: f64, ms: f64) -> Span {
        Span {
            name: name.into(),
            parent: None,
            start_ms: start,
            ms,
            thread: String::new(),
        }
    }

    fn sample(spans: Vec<Span>) -> Sample {
        Sample {
            variant: "v".into(),
            case: crate::testkit::case("e2e", "tiny"),
            rep: 0,
            order: 0,
            warmup: false,
            ok: true,
            error: None,
            wall_ms: 0.0,
            phases: BTreeMap::new(),
            spans,
            counters: BTreeMap::new(),
            verified: None,
            fingerprint: String::new(),
            memory: Vec::new(),
            mock: true,
            params: None,
        }
    }

    #[test]
    fn sequential_phases_form_no_group_and_touching_ends_are_not_overlap() {
        let s = sample(vec![span("a", 0.0, 10.0), span("b", 10.0, 5.0), span("c", 15.01, 5.0)]);
        assert!(groups([&[&s], &[&s]]).is_empty());
        assert_eq!(critical_path_ms(&s.spans), Some(20.0));
    }

    #[test]
    fn overlapping_phases_group_transitively_and_the_critical_path_counts_them_once() {
        // b beside a, c beside b: one group {a, b, c}; d alone after a gap.
        let s = sample(vec![
            span("a", 0.0, 10.0),
            span("b", 5.0, 10.0),
            span("c", 14.0, 4.0),
            span("d", 30.0, 2.0),
        ]);
        let seq = sample(vec![span("a", 0.0, 10.0), span("b", 10.0, 10.0), span("c", 20.0, 4.0)]);
        let g = groups([&[&seq], &[&s]]);
        assert_eq!(
            g,
            vec![Group {
                members: vec!["a".into(), "b".into(), "c".into()]
            }]
        );
        assert_eq!(g[0].name(), "a+b+c");
        assert_eq!(g[0].elapsed(&s.spans), Some(18.0));
        assert_eq!(g[0].elapsed(&seq.spans), Some(24.0));
        assert_eq!(critical_path_ms(&s.spans), Some(20.0));
    }

    #[test]
    fn overlap_in_a_minority_of_samples_or_by_jitter_is_not_concurrency() {
        let apart = sample(vec![span("a", 0.0, 10.0), span("b", 10.0, 10.0)]);
        let once = sample(vec![span("a", 0.0, 10.0), span("b", 5.0, 10.0)]);
        let jitter = sample(vec![span("a", 0.0, 10.0), span("b", 9.99, 10.0)]);
        assert!(groups([&[&apart, &apart, &once], &[&jitter, &jitter]]).is_empty());
        assert_eq!(groups([&[&apart, &once], &[&apart]]).len(), 1);
    }

    #[test]
    fn nested_spans_are_not_concurrency() {
        let mut child = span("intt", 1.0, 2.0);
        child.parent = Some("ntt_h".into());
        let s = sample(vec![span("ntt_h", 0.0, 10.0), child]);
        assert!(groups([&[&s], &[&s]]).is_empty());
    }

    fn row(phase: &str, verdict: Verdict, ratio: f64) -> PhaseComparison {
        PhaseComparison {
            variant: "v".into(),
            case: sample(vec![]).case,
            phase: phase.into(),
            ref_n: 5,
            cand_n: 5,
            ref_median_ms: 1.0,
            cand_median_ms: ratio,
            ratio,
            ci_low: ratio,
            ci_high: ratio,
            p_value: 0.01,
            q_value: 0.01,
            threshold: 0.03,
            verdict,
            reps_needed: None,
            note: None,
            pairs: None,
            same_as: None,
        }
    }

    #[test]
    fn a_member_is_overlapped_only_while_its_group_did_not_regress() {
        let g = vec![Group {
            members: vec!["a".into(), "b".into()],
        }];
        let mut rows = vec![
            row("a", Verdict::Regressed, 1.2),
            row("b", Verdict::Unchanged, 1.0),
            row("x", Verdict::Regressed, 1.2),
            row("a+b", Verdict::Improved, 0.9),
        ];
        settle_members(&mut rows, &g);
        assert_eq!(rows[0].verdict, Verdict::Overlapped);
        assert!(
            rows[0].note.as_deref().unwrap().contains("concurrently with b"),
            "{:?}",
            rows[0].note
        );
        assert_eq!(rows[2].verdict, Verdict::Regressed, "not a member");
        let mut rows = vec![row("a", Verdict::Regressed, 1.2), row("a+b", Verdict::Regressed, 1.1)];
        settle_members(&mut rows, &g);
        assert_eq!(rows[0].verdict, Verdict::Regressed, "the group itself regressed");
    }
}
