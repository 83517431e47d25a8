//! A flag that runs a phase beside others is judged by the critical path and the concurrent
//! group, not called a regression of the phase it overlaps; a real slowdown of the group still is.

mod common;
use common::{run_args, Ws};

// The mock workspace declares `presize` and `smallvec`: here `presize` runs msm_b_g2 beside
// msm_b_g1 (as `par-bg2` runs B_G2 beside the GPU's MSMs), sharing the machine costs it 10%, and
// `smallvec` makes msm_b_g1 six times slower.
const BESIDE: &str = r#"{"seed": 3, "noise": 0.01, "concurrent": {"presize": "msm_b_g2"},
    "effects": {"presize": {"msm_b_g2": 1.1}, "smallvec": {"msm_b_g1": 6.0}}}"#;

fn judged(ws: &Ws, variants: &[&str], out: &str) -> (i32, serde_json::Value, String) {
    let spec = ws.spec("spec.json", BESIDE);
    let o = ws.run(&run_args("e2e", variants, "8", out, &["--warmup", "0"]), Some(&spec));
    assert_eq!(o.code, 0, "{}", o.all());
    let o = ws.run(
        &["compare", out, "--variants", "baseline,par", "--format", "json"],
        None,
    );
    let table = ws.run(&["compare", out, "--variants", "baseline,par"], None);
    let cmp = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", o.all()));
    (o.code, cmp, table.all())
}

fn verdict(cmp: &serde_json::Value, phase: &str) -> String {
    let rows = cmp
        .pointer("/comparisons/0/rows")
        .or(cmp.pointer("/rows"))
        .expect("rows");
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["phase"] == phase)
        .map(|r| r["verdict"].as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("no row {phase}: {cmp}"))
}

#[test]
fn work_moved_beside_other_work_is_not_a_regression_of_it() {
    let ws = Ws::mock();
    let (code, cmp, all) = judged(&ws, &["baseline=", "par=presize"], "r");
    assert_eq!(code, 0, "{all}");
    assert_eq!(verdict(&cmp, "msm_b_g2"), "overlapped", "{all}");
    assert_eq!(verdict(&cmp, "msm_b_g1+msm_b_g2"), "improved", "{all}");
    assert_eq!(verdict(&cmp, "critical_path"), "improved", "{all}");
    assert_eq!(verdict(&cmp, "total"), "improved", "{all}");
    assert!(all.contains("overlapped"), "{all}");
}

#[test]
fn a_slower_group_is_still_a_regression() {
    let ws = Ws::mock();
    // `smallvec` makes msm_b_g1 six times slower: beside msm_b_g2 it now sets the group's end.
    let (code, cmp, all) = judged(&ws, &["baseline=", "par=presize,smallvec"], "r");
    assert_eq!(code, 1, "{all}");
    assert_eq!(verdict(&cmp, "msm_b_g1"), "regressed", "{all}");
    assert_eq!(verdict(&cmp, "msm_b_g1+msm_b_g2"), "regressed", "{all}");
}
