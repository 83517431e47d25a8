//! Golden-structure tests of every chart kind on fixture runs: the SVG names
//! the expected series, axes and variants, with the expected count of marks.

use super::palette::{marks, phase_hex};
use super::render::{render_png, render_svg, Chart};
use super::set::{build_charts, AnyChart};
use super::{distribution::Distribution, memory::Memory, ratio::RatioChart, stacked::Stacked};
use super::{timeline::Timeline, trend::Trend};
use crate::model::*;
use crate::testkit::chart_runs as fixture;

/// Text contents of the SVG's `<text>` elements, unescaped enough for tests.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split_once('>').map(|(_, rest)| rest))
        .map(|rest| rest.split("</text>").next().unwrap_or("").trim().replace("&amp;", "&"))
        .collect()
}

fn has_text(svg: &str, want: &str) -> bool {
    texts(svg).iter().any(|t| t.contains(want))
}

/// Count of `<tag ...>` elements whose attributes contain `attr`.
fn count(svg: &str, tag: &str, attr: &str) -> usize {
    svg.split(&format!("<{tag} "))
        .skip(1)
        .filter(|t| t.split('>').next().unwrap_or("").contains(attr))
        .count()
}

fn fill(phase: &str) -> String {
    format!("fill=\"{}\"", phase_hex(phase).to_uppercase())
}

fn svg<C: Chart>(c: &C) -> String {
    render_svg(c, 960, 540).expect("render")
}

#[test]
fn stacked_has_one_segment_per_variant_and_phase() {
    let run = fixture::pair(6);
    let c = Stacked::from_run(&run, &fixture::case());
    let s = svg(&c);
    for want in ["time (ms)", "variant", "baseline", "A1", "median total", "n=6"] {
        assert!(has_text(&s, want), "missing text {want}");
    }
    // Top-level phases only: nested NTT parts are not stacked.
    assert_eq!(c.phases.len(), 8);
    assert!(!c.phases.iter().any(|p| p == "intt"));
    for p in &c.phases {
        assert!(has_text(&s, p), "legend lacks {p}");
        // one segment per variant plus the legend swatch
        assert_eq!(count(&s, "rect", &fill(p)), 3, "segments of {p}");
    }
    // A1's synthesis is 10% slower in the fixture.
    let syn = |b: usize| c.bars[b].segments.iter().find(|s| s.0 == "synthesis").unwrap().1;
    assert!((syn(1) / syn(0) - 1.1).abs() < 0.03);
}

fn row(phase: &str, ratio: f64, ci: (f64, f64), verdict: Verdict, note: Option<&str>) -> PhaseComparison {
    PhaseComparison {
        variant: "A1".into(),
        case: fixture::case(),
        phase: phase.into(),
        ref_n: 6,
        cand_n: 6,
        ref_median_ms: 100.0,
        cand_median_ms: 100.0 * ratio,
        ratio,
        ci_low: ci.0,
        ci_high: ci.1,
        p_value: 0.01,
        q_value: 0.02,
        threshold: 0.03,
        verdict,
        reps_needed: None,
        note: note.map(String::from),
        pairs: None,
        same_as: None,
    }
}

pub(crate) fn comparison() -> Comparison {
    Comparison {
        reference: "baseline nightly".into(),
        candidate: "run-1".into(),
        cross_testbed: false,
        ref_testbed: "t".into(),
        cand_testbed: "t".into(),
        bootstrap_seed: 1,
        alpha: 0.05,
        rows: vec![
            row("synthesis", 1.1, (1.08, 1.12), Verdict::Regressed, None),
            row("msm_h", 0.99, (0.97, 1.01), Verdict::Unchanged, None),
            row("msm_l", 0.9, (0.88, 0.92), Verdict::Improved, None),
            row(
                "pin",
                f64::NAN,
                (f64::NAN, f64::NAN),
                Verdict::Inconclusive,
                Some("phase missing in reference"),
            ),
        ],
    }
}

#[test]
fn ratio_marks_regressions_intervals_and_missing_phases() {
    let c = RatioChart::from_comparison(&comparison(), "A1", &fixture::case());
    let s = svg(&c);
    for want in [
        "median ratio (candidate / reference)",
        "phase",
        "synthesis",
        "msm_h",
        "msm_l",
        "pin",
    ] {
        assert!(has_text(&s, want), "missing text {want}");
    }
    assert!(has_text(&s, "\u{25b2}+10.0%"), "regression mark");
    assert!(has_text(&s, "\u{25bc}-10.0%"), "improvement mark");
    assert!(has_text(&s, "n/a"), "missing phase mark");
    assert!(has_text(&s, "pin: phase missing"), "missing phase reason");
    // exactly one bar outlined as regressed
    let red = format!(
        "stroke=\"#{:02X}{:02X}{:02X}\"",
        marks::REGRESSED.0,
        marks::REGRESSED.1,
        marks::REGRESSED.2
    );
    assert_eq!(count(&s, "rect", &red), 1);
    // bars for the three phases with a ratio; none for the missing one
    assert_eq!(count(&s, "rect", &fill("synthesis")), 1);
    assert_eq!(count(&s, "rect", &fill("pin")), 0);
    // three intervals: a whisker and two caps each
    assert_eq!(
        count(&s, "polyline", "stroke=\"#000000\" stroke-width=\"2\""),
        3 * 3 + 1
    );
}

#[test]
fn distribution_draws_every_raw_sample() {
    let run = fixture::pair(7);
    let c = Distribution::from_run(&run, &fixture::case());
    let s = svg(&c);
    for want in [
        "time per sample (ms, log scale)",
        "baseline",
        "A1",
        "total",
        "intt",
        "synthesis",
    ] {
        assert!(has_text(&s, want), "missing text {want}");
    }
    // baseline: circles, A1: triangles, one per sample and phase
    assert_eq!(count(&s, "circle", &fill("synthesis")), 7);
    assert_eq!(count(&s, "polygon", &fill("synthesis")), 7);
    assert_eq!(count(&s, "circle", &fill("intt")), 7);
}

#[test]
fn timeline_has_lanes_and_nested_spans() {
    let run = fixture::pair(3);
    let c = Timeline::from_run(&run, "A1", &fixture::case());
    let s = svg(&c);
    for want in [
        "main",
        "bg2-worker",
        "time since the prover started (ms)",
        "lane (thread / stream)",
        "intt (nested)",
    ] {
        assert!(has_text(&s, want), "missing text {want}");
    }
    assert_eq!(c.lanes, vec!["main", "bg2-worker"]);
    // one bar per span plus one legend swatch
    assert_eq!(count(&s, "rect", &fill("coset_ntt")), 2);
    assert_eq!(count(&s, "rect", &fill("msm_b_g2")), 2);
    assert_eq!(c.bars.iter().filter(|b| b.depth == 1).count(), 3);
}

#[test]
fn memory_shows_series_and_phase_boundaries() {
    let mut run = fixture::pair(3);
    for smp in run.samples.iter_mut() {
        for (i, m) in smp.memory.iter_mut().enumerate() {
            m.gpu_used_bytes = Some(1_000_000_000 + i as u64);
        }
    }
    let c = Memory::from_run(&run, "baseline", &fixture::case());
    let s = svg(&c);
    for want in [
        "process-tree RSS",
        "system memory used",
        "GPU memory used",
        "memory (GiB)",
        "synthesis starts",
    ] {
        assert!(has_text(&s, want), "missing text {want}");
    }
    assert_eq!(c.series.len(), 3);
    assert_eq!(c.boundaries.len(), 8);
    let rss = format!(
        "stroke=\"#{:02X}{:02X}{:02X}\"",
        marks::RSS.0,
        marks::RSS.1,
        marks::RSS.2
    );
    assert_eq!(count(&s, "polyline", &rss), 2, "line plus legend");
}

#[test]
fn trend_has_one_point_per_run_and_a_baseline_band() {
    let runs: Vec<Run> = (0..4u64)
        .map(|i| {
            fixture::run(
                &format!("night-{i}"),
                &[("baseline", Some(("synthesis", 1.0 + 0.05 * i as f64)))],
                3,
                i,
            )
        })
        .collect();
    let refs: Vec<&Run> = runs.iter().collect();
    let c = Trend::from_runs(&refs, "baseline", &fixture::case(), Some(("nightly", &runs[0])));
    let s = svg(&c);
    for want in [
        "night-0",
        "night-3",
        "median time (ms, log scale)",
        "band: nightly min-max",
        "synthesis",
    ] {
        assert!(has_text(&s, want), "missing text {want}");
    }
    assert_eq!(count(&s, "circle", &fill("synthesis")), 4);
    let syn = c.lines.iter().find(|l| l.phase == "synthesis").unwrap();
    assert!(syn.points[3].1 > syn.points[0].1 * 1.1);
    assert!(syn.band.is_some());
}

#[test]
fn png_decodes_with_the_requested_size() {
    let run = fixture::pair(3);
    for (w, h) in [(640, 360), (1200, 700)] {
        for c in build_charts(&run, &[], None, &[comparison()]) {
            let png = render_png(&c.chart, w, h).expect("png");
            let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png).expect("decode");
            assert_eq!((img.width(), img.height()), (w, h), "{}", c.stem);
        }
    }
    let err = render_png(&Stacked::from_run(&run, &fixture::case()), 10, 10).unwrap_err();
    assert!(err.to_string().contains("out of range"));
}

#[test]
fn only_failed_samples_are_marked_not_drawn() {
    let mut run = fixture::pair(3);
    for smp in run.samples.iter_mut() {
        smp.ok = false;
        smp.error = Some("timed out after 60 s\nstderr tail".into());
    }
    for c in build_charts(&run, &[], None, &[]) {
        let s = svg(&c.chart);
        assert!(
            has_text(&s, "failed sample(s), first: timed out after 60 s"),
            "{} does not say why",
            c.stem
        );
    }
}

#[test]
fn missing_spans_and_memory_are_marked() {
    let mut run = fixture::pair(3);
    for smp in run.samples.iter_mut() {
        smp.spans.clear();
        smp.memory.clear();
    }
    let t = svg(&Timeline::from_run(&run, "A1", &fixture::case()));
    assert!(has_text(&t, "has no spans"));
    let m = svg(&Memory::from_run(&run, "A1", &fixture::case()));
    assert!(has_text(&m, "No memory points recorded"));
    // without spans every phase but total is stacked, nested ones included
    let st = Stacked::from_run(&run, &fixture::case());
    assert_eq!(st.phases.len(), 11);
}

#[test]
fn baseline_with_other_phases_still_charts() {
    let run = fixture::pair(3);
    let mut base = fixture::run("old", &[("baseline", None)], 3, 9);
    for smp in base.samples.iter_mut() {
        smp.phases.remove("msm_h");
        smp.spans.retain(|s| s.name != "msm_h");
        smp.phases.insert("legacy_phase".into(), 12.0);
    }
    let c = Trend::from_runs(&[&base, &run], "baseline", &fixture::case(), Some(("old", &base)));
    let msm_h = c.lines.iter().find(|l| l.phase == "msm_h").unwrap();
    assert_eq!(msm_h.points.len(), 1, "only the run that has it");
    assert!(msm_h.band.is_none());
    assert!(has_text(&svg(&c), "msm_h"));
}

#[test]
fn empty_run_is_a_clear_error() {
    let mut run = fixture::pair(1);
    run.samples.clear();
    let e = super::inputs::check_not_empty(&run, "run").unwrap_err().to_string();
    assert!(e.contains("has no samples"), "{e}");
    // drawing it anyway marks the gap instead of panicking
    let charts = build_charts(&run, &[], None, &[]);
    assert!(matches!(charts[0].chart, AnyChart::Stacked(_)));
    for c in charts {
        assert!(
            has_text(&svg(&c.chart), "no samples") || has_text(&svg(&c.chart), "No "),
            "{}",
            c.stem
        );
    }
}
