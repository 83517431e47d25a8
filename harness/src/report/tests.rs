//! Report tests: self-contained HTML with every chart inline, escaping, the
//! Markdown summary, and the command end to end on a stored run and baseline.

use super::*;
use crate::compare::{compare_variants, CompareOptions};
use crate::model::Run;
use crate::testkit::chart_runs as fixture;

fn cfg(baselines: &std::path::Path) -> Config {
    let mut c = Config::parse(include_str!("../../../phaseline.toml")).expect("repo config parses");
    c.baselines_dir = baselines.to_string_lossy().into_owned();
    c
}

fn report_of(run: Run) -> Report {
    let cmp = compare_variants(&run, "baseline", "A1", &CompareOptions::default()).expect("compare");
    Report::build(run, None, vec![cmp]).expect("report")
}

#[test]
fn html_is_self_contained_with_every_chart_inline() {
    let rep = report_of(fixture::pair(8));
    let page = html::page(&rep);
    assert_eq!(page.matches("<svg ").count(), rep.charts.len());
    assert!(
        rep.charts.len() >= 7,
        "stacked, ratio, distribution, 2 timelines, 2 memory"
    );
    for banned in ["<script", "<link", "src=", "url(", "@import", "https://"] {
        assert!(!page.contains(banned), "report contains {banned}");
    }
    // the only URL is the SVG namespace, which browsers never fetch
    let urls = page.matches("http://").count();
    assert_eq!(urls, page.matches("http://www.w3.org/2000/svg").count());
    // A1 synthesis is 10% slower in the fixture: the statistics call it, the page shows it
    assert!(page.contains("<td class=\"regressed\">regressed</td>"));
    for want in [
        "0123abcd",
        "test-cpu-2c-nogpu",
        "Test CPU (2 cores)",
        "fp-A1",
        "Medians",
        "Provenance",
    ] {
        assert!(page.contains(want), "page lacks {want}");
    }
}

#[test]
fn text_from_runs_is_escaped() {
    let mut run = fixture::pair(4);
    run.id = "<img src=x onerror=alert(1)>&".into();
    run.provenance.git_commit = "\"quoted\" 'single'".into();
    let page = html::page(&report_of(run));
    assert!(!page.contains("<img"));
    assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;&amp;"));
    assert!(page.contains("&quot;quoted&quot; &#39;single&#39;"));
    assert_eq!(html::escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
}

#[test]
fn markdown_lists_what_moved_and_escapes_cells() {
    let rep = report_of(fixture::pair(8));
    let md = markdown::summary(&rep);
    assert!(md.starts_with("## phaseline: run run-1"));
    let syn = md
        .lines()
        .find(|l| l.starts_with("| A1 |") && l.contains("| synthesis |"))
        .expect("synthesis row");
    assert!(syn.contains("**REGRESSED**"), "{syn}");
    assert!(md.contains("| msm\\_b\\_g2 |"), "top-level medians table");
    assert!(md.contains("Commit `0123abcd`"));
    assert_eq!(markdown::cell("a|b\nc"), "a\\|b c");
}

#[test]
fn markdown_names_the_builds_of_runners_given_by_path() {
    let md = markdown::summary(&report_of(fixture::pair(4)));
    assert!(!md.contains("Runners given by path"), "none given in the fixture");
    let mut run = fixture::pair(4);
    run.provenance.settings.insert(
        "runner.anchor".into(),
        "given runner 0.1.0 4567cdef (RUNNERS/anchor)".into(),
    );
    let md = markdown::summary(&report_of(run));
    assert!(
        md.contains(
            "Runners given by path (their own builds): `anchor`: given runner 0.1.0 4567cdef (RUNNERS/anchor)."
        ),
        "{md}"
    );
}

#[test]
fn failed_samples_are_listed_with_their_error() {
    let mut run = fixture::pair(5);
    for s in run.samples.iter_mut().filter(|s| s.variant == "A1" && s.rep < 2) {
        s.ok = false;
        s.error = Some("runner exited with signal 9 <oom>".into());
    }
    let rep = report_of(run);
    let page = html::page(&rep);
    assert!(page.contains("2 failed sample(s) of A1"));
    assert!(page.contains("runner exited with signal 9 &lt;oom&gt;"));
    assert!(markdown::summary(&rep).contains("A1: 2 failed sample(s)"));
}

#[test]
fn report_command_writes_html_markdown_and_csvs() {
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    let run = fixture::pair(6);
    crate::rundir::save_run(&run_dir, &run).unwrap();
    let base_dir = tmp.path().join("baselines");
    let mut old = fixture::run("old", &[("baseline", None), ("A1", None)], 6, 3);
    old.provenance.started_utc = "2026-11-30T00:00:00Z".into();
    crate::baseline::BaselineStore::new(&base_dir)
        .save("nightly", &old, &run_dir, false)
        .unwrap();
    let out = tmp.path().join("out");
    let args = ReportRequest {
        run: run_dir.clone(),
        baseline: Some("nightly".into()),
        allow_cross_testbed: false,
        reference_variant: None,
        out: out.clone(),
    };
    assert!(!write_report(&cfg(&base_dir), &args).unwrap().is_empty());
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for want in ["report.html", "summary.md", "samples.csv", "summary.csv"] {
        assert!(names.iter().any(|n| n == want), "{want} missing from {names:?}");
    }
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("comparison-run-run-1-vs-baseline-nightly")),
        "{names:?}"
    );
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains("against baseline <b>nightly</b>"));
    assert!(
        page.contains("Trend of A1 over 1 run(s)"),
        "a baseline adds the trend chart with its band"
    );

    // unknown baseline: a clear error naming it, nothing half-written
    let bad = ReportRequest {
        baseline: Some("nope".into()),
        out: tmp.path().join("out2"),
        ..args
    };
    let e = write_report(&cfg(&base_dir), &bad).unwrap_err().to_string();
    assert!(e.contains("no baseline `nope`"), "{e}");
    assert!(!tmp.path().join("out2").exists());
}

#[test]
fn chart_command_writes_png_of_the_requested_size() {
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    crate::rundir::save_run(&run_dir, &fixture::pair(4)).unwrap();
    let args = crate::chart::ChartRequest {
        runs: vec![run_dir],
        baseline: None,
        allow_cross_testbed: false,
        out: tmp.path().join("charts"),
        format: crate::chart::render::Format::Png,
        width: 700,
        height: 400,
        reference_variant: Some("missing-variant".into()),
    };
    let e = crate::chart::draw(&cfg(tmp.path()), &args).unwrap_err().to_string();
    assert!(e.contains("reference variant missing-variant is not in run"), "{e}");
    let args = crate::chart::ChartRequest {
        reference_variant: None,
        ..args
    };
    crate::chart::draw(&cfg(tmp.path()), &args).unwrap();
    let ratio = tmp.path().join("charts/ratio-e2e-tiny-x1-cpu-a1-vs-baseline.png");
    let img = image::open(&ratio).expect("ratio chart decodes");
    assert_eq!((img.width(), img.height()), (700, 400));
    assert_eq!(std::fs::read_dir(tmp.path().join("charts")).unwrap().count(), 7);
}
