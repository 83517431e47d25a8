//! `measure`: prepares each variant's runner, then runs every case with
//! warm-ups and repetitions, interleaving variants, and turns the runner's
//! records into samples. A crashed, hung or invalid child becomes a failed
//! sample carrying the reason and the tail of its stderr.

use crate::builder::{self, BuildSettings, EXPECT_FEATURES_ENV};
use crate::config::{Interleave, Suite};
use crate::error::HarnessError;
use crate::exec::{self, Job};
use crate::model::{BuiltVariant, Case, Run, Sample, Variant, RUN_SCHEMA_VERSION};
use crate::progress::{self, Progress};
use crate::record;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// Everything one measurement needs.
#[derive(Clone, Debug)]
pub struct MeasureSpec {
    pub build: BuildSettings,
    pub variants: Vec<Variant>,
    /// Suites by name, with command-line overrides already applied.
    pub suites: Vec<(String, Suite)>,
    pub params_dir: PathBuf,
    /// Harness self-test: `PHASE=MS` delays handed to the runner.
    pub inject_delay: Vec<String>,
    /// Memory / telemetry sampling period.
    pub sample_every: Option<Duration>,
    pub progress: progress::Mode,
    /// Extra provenance settings (config path, ...).
    pub settings: BTreeMap<String, String>,
}

/// One child process to run.
#[derive(Clone, Debug)]
struct Task {
    case: usize,
    suite: usize,
    variant: usize,
    /// Alternate mode: index of this warm-up or measured repetition.
    rep: usize,
    warmup: bool,
    /// Block mode: one child runs every warm-up and repetition.
    block: bool,
}

fn cases_of(suites: &[(String, Suite)]) -> Vec<(Case, usize)> {
    let mut out = Vec::new();
    for (si, (name, s)) in suites.iter().enumerate() {
        for c in &s.circuits {
            for &p in &s.partitions {
                let backend = if s.mode == "synth" {
                    "cpu".into()
                } else {
                    s.backend.clone()
                };
                out.push((
                    Case {
                        suite: name.clone(),
                        circuit: c.clone(),
                        partitions: p,
                        backend,
                    },
                    si,
                ));
            }
        }
    }
    out
}

fn schedule(cases: &[(Case, usize)], suites: &[(String, Suite)], nv: usize) -> Vec<Task> {
    let mut t = Vec::new();
    for (ci, (_, si)) in cases.iter().enumerate() {
        let s = &suites[*si].1;
        let task = |variant, rep, warmup, block| Task {
            case: ci,
            suite: *si,
            variant,
            rep,
            warmup,
            block,
        };
        match s.interleave {
            Interleave::Block => t.extend((0..nv).map(|v| task(v, 0, false, true))),
            Interleave::Alternate => {
                for w in 0..s.warmup {
                    t.extend((0..nv).map(|v| task(v, w, true, false)));
                }
                for r in 0..s.reps {
                    t.extend((0..nv).map(|v| task(v, r, false, false)));
                }
            }
        }
    }
    t
}

/// Makes the parameters of each end-to-end case once, before anything is timed.
fn setup_params(spec: &MeasureSpec, runner: &BuiltVariant, cases: &[(Case, usize)]) -> Result<(), HarnessError> {
    let mut done: Vec<&str> = Vec::new();
    for (c, si) in cases {
        let s = &spec.suites[*si].1;
        if s.mode != "prove" || done.contains(&c.circuit.as_str()) {
            continue;
        }
        done.push(&c.circuit);
        let job = Job {
            program: PathBuf::from(&runner.binary),
            args: vec![
                "setup".into(),
                "--circuit".into(),
                c.circuit.clone().into(),
                "--params-dir".into(),
                spec.params_dir.clone().into(),
            ],
            env: vec![(EXPECT_FEATURES_ENV.into(), runner.variant.feature_list())],
            timeout: Duration::from_secs_f64((s.timeout_s * 20.0).max(600.0)),
            sample_every: None,
            stdout: None,
        };
        let o = exec::run(&job)?;
        if !o.success() {
            return Err(HarnessError::Invalid(format!(
                "parameter setup for `{}` failed: {}",
                c.circuit,
                o.failure(job.timeout)
            )));
        }
    }
    Ok(())
}

fn args_for(spec: &MeasureSpec, s: &Suite, c: &Case, t: &Task, json: &std::path::Path) -> Vec<OsString> {
    let (reps, warmup, seed) = if t.block {
        (s.reps, s.warmup, 1)
    } else {
        // Same witness for every variant at one repetition, a new one per repetition.
        (1, s.inner_warmup, 1 + t.rep as u64 + if t.warmup { 1 << 20 } else { 0 })
    };
    let mut a: Vec<OsString> = vec![
        s.mode.clone().into(),
        "--circuit".into(),
        c.circuit.clone().into(),
        "--partitions".into(),
        c.partitions.to_string().into(),
        "--reps".into(),
        reps.to_string().into(),
        "--warmup".into(),
        warmup.to_string().into(),
        "--seed".into(),
        seed.to_string().into(),
        "--json".into(),
        json.into(),
    ];
    if s.mode == "prove" {
        a.extend([
            "--backend".into(),
            c.backend.clone().into(),
            "--params-dir".into(),
            spec.params_dir.clone().into(),
        ]);
    }
    for d in delays_for(&spec.inject_delay, &spec.variants[t.variant].name) {
        a.extend(["--inject-delay".into(), d.into()]);
    }
    a
}

/// The `PHASE=MS` delays for `variant`: unprefixed ones apply to every variant,
/// `VARIANT:PHASE=MS` only to that one.
pub fn delays_for(all: &[String], variant: &str) -> Vec<String> {
    all.iter()
        .filter_map(|d| match d.split_once(':') {
            Some((v, rest)) if v == variant => Some(rest.to_string()),
            Some(_) => None,
            None => Some(d.clone()),
        })
        .collect()
}

/// Runs one task; returns its samples (failed ones included).
fn run_task(
    spec: &MeasureSpec,
    t: &Task,
    case: &Case,
    bv: &BuiltVariant,
    tmp: &std::path::Path,
    order: &mut usize,
) -> Result<Vec<Sample>, HarnessError> {
    let s = &spec.suites[t.suite].1;
    let json = tmp.join(format!("rec-{}.jsonl", *order));
    let n_children = if t.block { s.reps + s.warmup } else { 1 };
    // Records the child writes: in alternate mode its in-process warm-ups come first.
    let n_records = if t.block { n_children } else { 1 + s.inner_warmup };
    let timeout = Duration::from_secs_f64(s.timeout_s * n_records as f64);
    let job = Job {
        program: PathBuf::from(&bv.binary),
        args: args_for(spec, s, case, t, &json),
        env: vec![(EXPECT_FEATURES_ENV.into(), bv.variant.feature_list())],
        timeout,
        sample_every: spec.sample_every,
        stdout: None,
    };
    let o = exec::run(&job)?;
    let name = &bv.variant.name;
    let fail_all = |why: String, order: &mut usize| -> Vec<Sample> {
        let mut v = Vec::new();
        if t.block {
            for i in 0..n_children {
                let warm = i < s.warmup;
                let rep = if warm { i } else { i - s.warmup };
                v.push(record::failed(name, case, rep, *order, warm, o.wall_ms, why.clone()));
                *order += 1;
            }
        } else {
            v.push(record::failed(name, case, t.rep, *order, t.warmup, o.wall_ms, why));
            *order += 1;
        }
        v
    };
    if !o.success() {
        return Ok(fail_all(o.failure(timeout), order));
    }
    let mut recs = match record::read(&json) {
        Ok(r) => r,
        Err(e) => return Ok(fail_all(format!("{e}; stderr tail: {}", o.stderr_tail.trim()), order)),
    };
    let _ = std::fs::remove_file(&json);
    if recs.len() != n_records {
        return Ok(fail_all(
            format!("runner wrote {} records, expected {n_records}", recs.len()),
            order,
        ));
    }
    if !t.block {
        // The in-process warm-ups are not samples; the measured record is the last one.
        if recs[..s.inner_warmup].iter().any(|r| !r.warmup) || recs[s.inner_warmup].warmup {
            return Ok(fail_all(
                format!(
                    "runner's records are not {} in-process warm-up(s) then one measured repetition",
                    s.inner_warmup
                ),
                order,
            ));
        }
        recs.drain(..s.inner_warmup);
    }
    let expect = record::Expect {
        mode: &s.mode,
        features: &bv.variant.features,
        fingerprint: &bv.fingerprint,
        required_phases: &s.required_phases,
    };
    let (rss_peak, gpu_peak) = crate::monitor::peaks(&o.memory);
    let mut out = Vec::new();
    let mut measured = 0;
    for (i, r) in recs.iter().enumerate() {
        let warm = if t.block { r.warmup } else { t.warmup };
        let rep = if t.block && !warm {
            measured += 1;
            measured - 1
        } else if t.block {
            i
        } else {
            t.rep
        };
        let wall = if t.block { r.total_ms } else { o.wall_ms };
        let mut smp = match record::check(r, &expect) {
            Ok(()) => {
                let mut x = record::to_sample(r, name, case, rep, *order, wall);
                x.warmup = warm;
                x
            }
            Err(why) => record::failed(name, case, rep, *order, warm, wall, why),
        };
        if !o.memory.is_empty() {
            smp.counters.insert("tree_rss_peak_bytes".into(), rss_peak as f64);
            if let Some(g) = gpu_peak {
                smp.counters.insert("gpu_mem_peak_bytes".into(), g as f64);
            }
        }
        if i == 0 {
            smp.memory = o.memory.clone();
        }
        *order += 1;
        out.push(smp);
    }
    Ok(out)
}

/// Builds (or reuses) each variant's runner and measures every case.
pub fn measure(spec: &MeasureSpec) -> Result<Run, HarnessError> {
    let mut prov = crate::provenance::collect(&spec.build.root);
    let testbed = crate::testbed::detect();
    let mut quiet_say = |m: String| {
        if spec.progress != progress::Mode::Quiet {
            eprintln!("{m}");
        }
    };
    let (built, failed) = builder::prepare_all(&spec.build, &spec.variants, &mut quiet_say);
    if !failed.is_empty() {
        let msg: Vec<String> = failed.iter().map(|(v, e)| format!("variant `{v}`: {e}")).collect();
        return Err(HarnessError::Invalid(format!(
            "{} of {} variants could not be prepared:\n{}",
            failed.len(),
            spec.variants.len(),
            msg.join("\n")
        )));
    }
    let cases = cases_of(&spec.suites);
    setup_params(spec, &built[0], &cases)?;
    for b in &built {
        builder::recheck(&spec.build, b)?;
    }
    let tasks = schedule(&cases, &spec.suites, built.len());
    let tmp = tempfile::Builder::new()
        .prefix("phaseline-run-")
        .tempdir()
        .map_err(|e| HarnessError::io("temporary directory", e))?;
    let mut bar = Progress::new(tasks.len(), spec.progress);
    let mut samples = Vec::new();
    let mut order = 0;
    for t in &tasks {
        let case = &cases[t.case].0;
        let bv = &built[t.variant];
        let what = format!(
            "{} · {} · {}",
            case.label(),
            bv.variant.name,
            if t.block {
                "all reps".to_string()
            } else if t.warmup {
                format!("warm-up {}", t.rep + 1)
            } else {
                format!("rep {}", t.rep + 1)
            }
        );
        bar.start(&what);
        let got = run_task(spec, t, case, bv, tmp.path(), &mut order)?;
        let result = match got.iter().find(|s| !s.ok) {
            Some(f) => format!("FAILED: {}", f.error.clone().unwrap_or_default()),
            None => got
                .iter()
                .map(|s| {
                    format!(
                        "{:.1} ms",
                        s.phases.get(crate::model::TOTAL).copied().unwrap_or(s.wall_ms)
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
        };
        bar.done(&what, &result);
        samples.extend(got);
    }
    bar.finish();
    let mut settings = spec.settings.clone();
    for (name, s) in &spec.suites {
        settings.insert(format!("suite.{name}.interleave"), s.interleave.name().into());
        settings.insert(format!("suite.{name}.timeout_s"), s.timeout_s.to_string());
        settings.insert(format!("suite.{name}.reps"), s.reps.to_string());
        settings.insert(format!("suite.{name}.warmup"), s.warmup.to_string());
        settings.insert(format!("suite.{name}.inner_warmup"), s.inner_warmup.to_string());
    }
    settings.extend(spec.build.describe());
    settings.insert("params_dir".into(), spec.params_dir.display().to_string());
    if !spec.inject_delay.is_empty() {
        settings.insert("inject_delay (self-test)".into(), spec.inject_delay.join(" "));
    }
    if let Some(d) = spec.sample_every {
        settings.insert("memory_sample_ms".into(), d.as_millis().to_string());
    }
    prov.settings = settings;
    prov.finished_utc = crate::provenance::now_utc();
    let id = format!("{}-{}", prov.started_utc.replace(['-', ':'], ""), testbed.key);
    Ok(Run {
        schema_version: RUN_SCHEMA_VERSION,
        id,
        testbed,
        provenance: prov,
        variants: built,
        cases: cases.into_iter().map(|c| c.0).collect(),
        samples,
    })
}
