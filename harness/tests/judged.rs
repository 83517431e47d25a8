//! A comparison judges something or fails: sides with nothing in common, variants of one name
//! built with other features, and mock records against real ones all exit 2.

mod common;
use common::{assert_error, run_args, Ws};

fn measured(ws: &Ws, out: &str, variant: &str) {
    let o = ws.run(&run_args("synth", &[variant], "3", out, &["--warmup", "0"]), None);
    assert_eq!(o.code, 0, "{}", o.all());
}

#[test]
fn nothing_in_common_is_an_error_everywhere() {
    let ws = Ws::mock();
    measured(&ws, "r1", "baseline=");
    measured(&ws, "r2", "other=");
    let needles = ["nothing in common", "baseline @ synth/tiny", "other @ synth/tiny"];
    assert_error(&ws.run(&["diff", "r1", "r2"], None), &needles);
    assert_error(&ws.run(&["compare", "r2", "--against", "r1"], None), &needles);
    assert_eq!(ws.run(&["baseline", "save", "base", "--from", "r1"], None).code, 0);
    assert_error(&ws.run(&["compare", "r2", "--baseline", "base"], None), &needles);
    let o = ws.run(
        &run_args(
            "synth",
            &["other="],
            "3",
            "r3",
            &["--warmup", "0", "--baseline", "base"],
        ),
        None,
    );
    assert_error(&o, &needles);
    // A side in common is judged as before.
    measured(&ws, "r4", "baseline=");
    let o = ws.run(&["diff", "r1", "r4"], None);
    assert!(o.code == 0 || o.code == 1, "{}", o.all());
}

#[test]
fn variants_of_one_name_with_other_features_are_refused_unless_allowed() {
    let ws = Ws::mock();
    measured(&ws, "a", "X=smallvec");
    measured(&ws, "b", "X=presize");
    assert_error(
        &ws.run(&["diff", "a", "b"], None),
        &["`X` is [smallvec]", "[presize]", "--allow-feature-mismatch"],
    );
    assert_error(
        &ws.run(&["compare", "b", "--against", "a"], None),
        &["different features"],
    );
    let o = ws.run(&["diff", "a", "b", "--allow-feature-mismatch"], None);
    assert!(o.code == 0 || o.code == 1, "{}", o.all());
    // Another commit (another fingerprint) with the same features is what a comparison is for.
    let mut run = ws.run_json("a");
    run["variants"][0]["fingerprint"] = "another-commit".into();
    for s in run["samples"].as_array_mut().unwrap() {
        s["fingerprint"] = "another-commit".into();
    }
    std::fs::create_dir_all(ws.path("c")).unwrap();
    std::fs::write(ws.path("c/run.json"), serde_json::to_string(&run).unwrap()).unwrap();
    let o = ws.run(&["diff", "a", "c"], None);
    assert!(o.code == 0 || o.code == 1, "{}", o.all());
}

#[test]
fn mock_records_never_meet_real_ones() {
    let ws = Ws::mock();
    measured(&ws, "m", "baseline=");
    let mut run = ws.run_json("m");
    assert!(run["samples"].as_array().unwrap().iter().all(|s| s["mock"] == true));
    for s in run["samples"].as_array_mut().unwrap() {
        s.as_object_mut().unwrap().remove("mock");
    }
    std::fs::create_dir_all(ws.path("real")).unwrap();
    std::fs::write(ws.path("real/run.json"), serde_json::to_string(&run).unwrap()).unwrap();
    assert_error(
        &ws.run(&["diff", "real", "m"], None),
        &["mock runner", "never compared"],
    );
    assert_eq!(ws.run(&["baseline", "save", "base", "--from", "real"], None).code, 0);
    assert_error(&ws.run(&["compare", "m", "--baseline", "base"], None), &["mock runner"]);
}
