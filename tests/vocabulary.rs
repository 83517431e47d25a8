//! Every span name the prover's code can emit is in the runner protocol's
//! vocabulary (`phaseline_record::names`): the CUDA code's host and device
//! spans (`begin_host`, `begin_device`, and the parent name `pl_split_run`
//! times an MSM under), and the Rust code's `time`, `time_in` and
//! `push_span` calls with a literal name. A new span with a name outside the
//! vocabulary fails here instead of being refused by the harness at run time.

use std::path::{Path, PathBuf};

fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("source folder") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            files(&p, exts, out);
        } else if p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)) {
            out.push(p);
        }
    }
}

/// The first string literal after each `call(` in `text` (its `nth` argument for `pl_split_run`).
fn literals(text: &str, call: &str, nth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find(call) {
        let at = from + k + call.len();
        from = at;
        // A call whose closure ends the function (`rec.time("x", || {..})` as
        // the tail expression) has no `);`: its arguments run to the end.
        let close = text[at..].find(");").unwrap_or(text.len() - at);
        let args: Vec<&str> = text[at..at + close].split(',').map(str::trim).collect();
        if let Some(a) = args.get(nth) {
            if let Some(lit) = a.strip_prefix('"').and_then(|r| r.split('"').next()) {
                if !lit.is_empty() {
                    out.push(lit.to_string());
                }
            }
        }
    }
    out
}

#[test]
fn every_span_the_prover_can_emit_is_known() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut src = Vec::new();
    files(&root.join("cuda"), &["cu", "cuh", "cpp"], &mut src);
    files(&root.join("prover"), &["rs"], &mut src);
    let mut seen = Vec::new();
    for f in &src {
        let text = std::fs::read_to_string(f).expect("source");
        // Unit tests name spans of their own (`outer`, `inner`): only the code before them counts.
        let text = text.split("#[cfg(test)]").next().unwrap_or_default();
        let found: Vec<String> = [
            literals(text, "begin_host(", 0),
            literals(text, "begin_device(", 0),
            literals(text, "begin_device(", 1),
            literals(text, "pl_split_run(", 7),
            literals(text, ".time(", 0),
            literals(text, ".time_in(", 0),
            literals(text, ".push_span(", 0),
        ]
        .concat();
        for name in found {
            seen.push(name.clone());
            assert!(
                phaseline_record::names::is_known(&name),
                "{} emits span `{name}`, which is not in phaseline_record::names::KNOWN",
                f.strip_prefix(root).unwrap_or(f).display()
            );
        }
    }
    // The scan found the spans it is for (a scan that reads nothing proves nothing).
    for must in [
        "msm_l",
        "batch_add",
        "tail_msm",
        "pin",
        "unpin",
        "fb_mul",
        "synthesis",
        "msm_b_g2",
    ] {
        assert!(seen.iter().any(|s| s == must), "no `{must}` span found: {seen:?}");
    }
}
