use super::*;
use crate::compare::{compare_runs, CompareOptions};
use crate::model::{Comparison, Verdict};
use crate::summary::summarize;
use crate::testkit::synthetic::SyntheticRun;

fn build(id: &str, seed: u64, testbed: &str, ntt: f64) -> crate::model::Run {
    SyntheticRun::new(id, seed)
        .testbed(testbed)
        .variant("baseline", &[])
        .phase("synthesize", 200.0, 0.01)
        .phase("ntt", 80.0, 0.01)
        .phase("msm", 120.0, 0.01)
        .effect("baseline", "ntt", ntt)
        .drop_phase("baseline", if id == "cand" { "msm" } else { "none" })
        .reps(8)
        .build()
}

fn comparison(cross: bool) -> Comparison {
    let r = build("ref", 1, "box-a", 1.0);
    let k = build("cand", 2, if cross { "box-b" } else { "box-a" }, 1.2);
    let opts = CompareOptions {
        allow_cross_testbed: cross,
        ..CompareOptions::default()
    };
    compare_runs(&r, &k, &opts).unwrap()
}

#[test]
fn table_is_aligned_with_verdicts_and_cross_testbed_flag() {
    let c = comparison(false);
    let t = Table.comparison(&c).unwrap();
    assert!(
        t.starts_with("reference: run ref (testbed box-a)\ncandidate: run cand (testbed box-a)\n"),
        "{t}"
    );
    assert!(!t.contains("WARNING"));
    let lines: Vec<&str> = t
        .lines()
        .filter(|l| l.contains("baseline") || l.starts_with("variant"))
        .collect();
    let header = lines[0];
    let col = header.find("verdict").unwrap();
    // Every body row has its verdict starting in the verdict column.
    let body: Vec<&str> = t.lines().skip(3).take(c.rows.len()).collect();
    for l in &body {
        let w = &l[col..];
        assert!(
            ["regressed", "improved", "unchanged", "inconclusive"]
                .iter()
                .any(|v| w.starts_with(v)),
            "{l}\n{t}"
        );
    }
    assert!(t.contains("+20.0%") || t.contains("+19.") || t.contains("+20."), "{t}");
    assert!(t.contains("phase missing in candidate"), "{t}");
    let x = Table.comparison(&comparison(true)).unwrap();
    assert!(
        x.contains("WARNING: cross-testbed comparison (reference testbed box-a, candidate testbed box-b)"),
        "{x}"
    );
}

#[test]
fn json_round_trips() {
    let c = comparison(true);
    let s = Json.comparison(&c).unwrap();
    let back: Comparison = serde_json::from_str(&s).unwrap();
    assert_eq!(back.rows.len(), c.rows.len());
    assert!(back.cross_testbed);
    assert_eq!(
        back.rows.iter().map(|r| r.verdict).collect::<Vec<_>>(),
        c.rows.iter().map(|r| r.verdict).collect::<Vec<_>>()
    );
}

#[test]
fn csv_has_one_record_per_row() {
    let c = comparison(false);
    let s = Csv.comparison(&c).unwrap();
    let mut rd = ::csv::Reader::from_reader(s.as_bytes());
    let headers = rd.headers().unwrap().clone();
    let idx = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let recs: Vec<_> = rd.records().map(Result::unwrap).collect();
    assert_eq!(recs.len(), c.rows.len());
    for (rec, row) in recs.iter().zip(&c.rows) {
        assert_eq!(&rec[idx("phase")], row.phase);
        assert_eq!(&rec[idx("verdict")], cells::verdict_word(row.verdict));
        let ratio: f64 = rec[idx("ratio")].parse().unwrap();
        assert!((ratio - row.ratio).abs() < 1e-12);
    }
}

#[test]
fn markdown_lists_regressions_first_under_a_header() {
    let c = comparison(true);
    assert!(c.rows.iter().any(|r| r.verdict == Verdict::Regressed));
    let m = Markdown.comparison(&c).unwrap();
    assert!(m.starts_with("### phaseline compare: "), "{m}");
    assert!(
        m.contains("Reference `run ref` · candidate `run cand` · testbed `box-b`"),
        "{m}"
    );
    assert!(m.contains("Cross-testbed comparison"), "{m}");
    let first_row = m
        .lines()
        .find(|l| l.starts_with("| 🔴") || l.starts_with("| 🟡") || l.starts_with("| ⚪"))
        .unwrap();
    assert!(first_row.starts_with("| 🔴"), "{m}");
    assert!(first_row.contains("| ntt |"), "{first_row}");
    let data_rows = m
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| |"))
        .count();
    assert_eq!(data_rows, c.rows.len());
}

#[test]
fn run_summary_in_every_format() {
    let run = build("r", 3, "box-a", 1.0);
    let s = summarize(&run);
    let t = Table.run_summary(&s).unwrap();
    assert!(
        t.contains("synth/tiny x1 cpu") && t.contains("baseline") && t.contains("samples"),
        "{t}"
    );
    let ntt = s.get("baseline", &run.cases[0], "ntt").unwrap().median_ms.unwrap();
    assert!(t.contains(&cells::ms(ntt)), "{t}");
    let m = Markdown.run_summary(&s).unwrap();
    assert!(m.contains("| ntt |") && m.contains(&cells::ms(ntt)), "{m}");
    let c = Csv.run_summary(&s).unwrap();
    assert_eq!(c.lines().count(), s.rows.len() + 1);
    assert!(c.starts_with("run_id,testbed,variant,"), "{c}");
    let j: crate::summary::RunSummary = serde_json::from_str(&Json.run_summary(&s).unwrap()).unwrap();
    assert_eq!(j, s);
}

#[test]
fn formats_parse_by_name() {
    assert_eq!("markdown".parse::<Format>().unwrap(), Format::Markdown);
    assert_eq!("csv".parse::<Format>().unwrap().extension(), "csv");
    let e = "yaml".parse::<Format>().unwrap_err().to_string();
    assert!(e.contains("yaml") && e.contains("markdown"), "{e}");
    let c = comparison(false);
    for f in [Format::Table, Format::Json, Format::Csv, Format::Markdown] {
        assert!(!f.exporter().comparison(&c).unwrap().is_empty());
    }
}

#[test]
fn threshold_cell_caps_floor_dominated_values() {
    assert_eq!(super::cells::threshold(0.03), "3.0%");
    assert_eq!(super::cells::threshold(9.99), "999.0%");
    // 0.5 ms floor over a 0.4 us phase: 1,250x, shown capped.
    assert_eq!(super::cells::threshold(1250.0), ">999%");
}
