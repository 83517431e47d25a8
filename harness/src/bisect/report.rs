//! The answer of a flag bisect as text: culprits with the phases each moves
//! (change in time and its 95% interval), flags left undecided, the optional
//! factorial fit, and what the hunt cost against trying every combination.

use super::flags::{Culprit, Finding, FlagsAnswer};
use super::judge::describe;
use super::space::Space;
use crate::model::{PhaseComparison, Verdict, TOTAL};
use std::fmt::Write;

/// `+5.70 s` or `+30.1 ms`.
pub fn fmt_ms(x: f64) -> String {
    if x.abs() >= 1000.0 {
        format!("{:+.2} s", x / 1000.0)
    } else {
        format!("{x:+.1} ms")
    }
}

/// `+30.1 ms in `msm_l` (95% CI +28.0 ms .. +32.3 ms; +12.0%)`.
pub fn phase_effect(r: &PhaseComparison) -> String {
    let d = r.cand_median_ms - r.ref_median_ms;
    format!(
        "{} in `{}` (95% CI {} .. {}; {:+.1}%)",
        fmt_ms(d),
        r.phase,
        fmt_ms(r.ref_median_ms * (r.ci_low - 1.0)),
        fmt_ms(r.ref_median_ms * (r.ci_high - 1.0)),
        (r.ratio - 1.0) * 100.0
    )
}

/// Phases (not `total`) the culprit moves decisively, largest change first.
pub fn moved_phases(c: &Culprit) -> Vec<&PhaseComparison> {
    let mut rows: Vec<&PhaseComparison> = c
        .outcome
        .comparison
        .rows
        .iter()
        .filter(|r| r.phase != TOTAL && matches!(r.verdict, Verdict::Regressed | Verdict::Improved))
        .collect();
    rows.sort_by(|a, b| {
        let d = |r: &PhaseComparison| (r.cand_median_ms - r.ref_median_ms).abs();
        d(b).total_cmp(&d(a))
    });
    rows
}

pub struct Cost {
    pub builds: usize,
    /// Every repetition run, in every sitting (the ends re-measured beside their probes included).
    pub runs: usize,
    pub fresh_runs: usize,
    /// Of `runs`: repetitions of a variant that already had samples, measured
    /// again beside the variant it is compared with (mostly the good and bad ends).
    pub repeat_runs: usize,
}

/// The whole answer: one section per bisected metric, then where the samples
/// come from (`samples`, on a resume), then the cost.
pub fn render(space: &Space, answers: &[(String, FlagsAnswer)], cost: &Cost, samples: Option<&str>) -> String {
    let mut s = String::new();
    // Culprit label -> the phase whose section gave its answer: a flag that moves several
    // phases is answered once, and later sections point back to it.
    let mut answered: Vec<(String, String)> = Vec::new();
    for (metric, ans) in answers {
        if answers.len() > 1 {
            let _ = writeln!(s, "== phase `{metric}` ==");
        }
        s.push_str(&render_one(space, metric, ans, &mut answered));
    }
    if let Some(line) = samples {
        let _ = writeln!(s, "{line}");
    }
    let k = space.flags.len();
    let _ = writeln!(
        s,
        "cost: {} variant build(s) and {} run(s) ({} by this invocation; {} of them re-measured an already \
         measured variant, mostly good or bad, in the same call as what it is compared with) for {k} flag(s); \
         trying every combination is 2^{k} = {} builds.",
        cost.builds,
        cost.runs,
        cost.fresh_runs,
        cost.repeat_runs,
        1u64 << k.min(63)
    );
    s
}

fn render_one(space: &Space, metric: &str, ans: &FlagsAnswer, answered: &mut Vec<(String, String)>) -> String {
    let mut s = String::new();
    match &ans.finding {
        Finding::NoChange(o) => {
            let _ = writeln!(
                s,
                "answer: no culprit: good and bad do not differ on `{metric}` ({}).",
                describe(&o.metric)
            );
        }
        Finding::Undecided(o) => {
            let _ = writeln!(
                s,
                "answer: undecided: cannot tell whether bad differs from good on `{metric}` even at the repetition cap ({}); raise --max-reps or quiet the machine.",
                describe(&o.metric)
            );
        }
        Finding::Located {
            total,
            target,
            additive,
            culprits,
            inconclusive,
        } => {
            let word = if *target == Verdict::Regressed {
                "slower"
            } else {
                "faster"
            };
            let _ = writeln!(s, "good -> bad is {word} on `{metric}`: {}", describe(&total.metric));
            if culprits.is_empty() {
                let _ = writeln!(
                    s,
                    "answer: no single flag or flag set could be isolated (see the log above)."
                );
            }
            for c in culprits {
                let who = space.label_set(&c.flags);
                if let Some((_, first)) = answered.iter().find(|(w, _)| *w == who) {
                    let _ = writeln!(s, "same culprit as under phase `{first}` above: {who}");
                    continue;
                }
                answered.push((who.clone(), metric.to_string()));
                let rows = moved_phases(c);
                let head = match rows.first() {
                    Some(r) => phase_effect(r),
                    None => format!("{} on `{metric}`", describe(&c.outcome.metric)),
                };
                if c.interaction {
                    let _ = writeln!(s, "answer: {who} (only together): {head}");
                } else {
                    let _ = writeln!(s, "answer: {who}: {head}");
                }
                let _ = writeln!(
                    s,
                    "  measured as {} -> {}; `{metric}` {}",
                    c.outcome.reference,
                    c.outcome.candidate,
                    describe(&c.outcome.metric)
                );
                for r in rows.iter().skip(1) {
                    let _ = writeln!(s, "  also {}", phase_effect(r));
                }
            }
            if !additive {
                let _ = writeln!(
                    s,
                    "note: the single-flag effects do not add up to the whole change: flags interact."
                );
            }
            for f in inconclusive {
                let _ = writeln!(
                    s,
                    "inconclusive: {} (its effect could not be decided at the repetition cap; not counted as a culprit)",
                    space.label(f)
                );
            }
        }
    }
    if let Some(fit) = &ans.factorial {
        let _ = writeln!(
            s,
            "factorial ({} points, {}) on log `{metric}`; main effects and pairwise interactions:",
            fit.points,
            if fit.fractional { "half fraction" } else { "full" }
        );
        for t in &fit.terms {
            let pct = |x: f64| (x.exp() - 1.0) * 100.0;
            let sig = t.ci_low > 0.0 || t.ci_high < 0.0;
            let names: Vec<String> = t.flags.iter().map(|f| space.label(f)).collect();
            let _ = writeln!(
                s,
                "  {:<32} {:+6.1}% (95% CI {:+.1} .. {:+.1}%){}",
                names.join(" x "),
                pct(t.estimate),
                pct(t.ci_low),
                pct(t.ci_high),
                if sig { "  *" } else { "" }
            );
        }
    }
    s
}
