//! `phaseline nightly`: the nightly regression job as one command. Measures the
//! nightly suites and variants (as `run` does), compares the run with the stored
//! baseline of this testbed (saving the run as that baseline on the first
//! night), writes the comparison, the HTML report and `nightly.json`, and on a
//! regression prints the next steps (bisect commands). `--promote` replaces the
//! baseline after a clean night, keeping the previous one as `NAME-prev`.

use super::nightly_steps::next_steps;
use super::nightly_summary::{baseline_info, Summary};
use super::output::summary_table;
use crate::baseline::BaselineStore;
use crate::compare::CompareOptions;
use crate::config::{valid_name, Config};
use crate::error::{ExitCode, HarnessError};
use crate::fsutil::{write_atomic, write_json};
use crate::measured::{check_samples, keep_partial, kept_in_journal};
use crate::model::{Baseline, Comparison, Run};
use crate::output::Format;
use crate::reference::{self, RefChoice};
use crate::run_request::{or_default, RunRequest};
use crate::runner::{MeasureSpec, Session};
use crate::settle::{self, SettleReport};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct NightlyArgs {
    /// Suite from the config (default: `[nightly] suites`). Repeatable.
    #[arg(long = "suite", value_name = "NAME")]
    pub suites: Vec<String>,
    /// Variant (`NAME=feat,feat` or a config name; default: `[nightly] variants`). Repeatable.
    #[arg(long = "variant", value_name = "V")]
    pub variants: Vec<String>,
    /// Stored baseline of this testbed to compare against (default: `[nightly] baseline`).
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Output folder: the run goes in DIR/run (default: <runs_dir>/nightly-<run id>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// After a night with no regression, make this run the baseline (the old one is kept as NAME-prev).
    #[arg(long)]
    pub promote: bool,
    /// Refuse to run (exit 2) unless this machine has a GPU and a suite uses the cuda backend.
    #[arg(long)]
    pub require_gpu: bool,
    /// Use this runner binary for every variant instead of building.
    #[arg(long, value_name = "PATH")]
    pub runner: Option<PathBuf>,
    /// Measured repetitions per variant and case (default: each suite's).
    #[arg(long)]
    pub reps: Option<usize>,
    /// Run every selected suite on this circuit only (a night of one case).
    #[arg(long, value_name = "PRESET")]
    pub circuit: Option<String>,
    /// Progress display: auto, lines, quiet.
    #[arg(long, default_value = "auto")]
    pub progress: String,
    /// Time the night may spend measuring, settling undecided rows with more
    /// interleaved repetitions (e.g. `3m`, `90s`; default: `[nightly] budget_s`).
    #[arg(long, value_name = "DURATION")]
    pub budget: Option<String>,
    /// Judge against the baseline's stored samples even where its runner could
    /// be measured tonight (the same-sitting reference is the default).
    #[arg(long)]
    pub stored_reference: bool,
    /// Append the run to this history database (default: `[history] path`; docs/history.md).
    #[arg(long, value_name = "PATH")]
    pub history: Option<PathBuf>,
}

fn refuse(msg: impl Into<String>) -> HarnessError {
    HarnessError::Invalid(msg.into())
}

/// Tonight's own variants: a stored baseline never holds reference runners' samples.
fn tonight_only(run: &Run) -> Run {
    run.only_variants(|n| !reference::is_ref(n))
}

pub fn run(cfg: &Config, a: &NightlyArgs) -> Result<ExitCode, HarnessError> {
    let name = a.baseline.clone().unwrap_or_else(|| cfg.nightly.baseline.clone());
    if !valid_name(&name) {
        return Err(refuse(format!(
            "baseline name `{name}`: use letters, digits, `-` or `_`"
        )));
    }
    if a.require_gpu {
        if let Some((model, driver)) = crate::gpu::model_and_driver() {
            println!("nightly: GPU {model} (driver {driver})");
        } else {
            return Err(refuse(
                "--require-gpu: this machine has no usable GPU (NVML finds no device); \
                 refusing to run a CPU-only nightly in its place",
            ));
        }
    }
    let req = RunRequest {
        variants: or_default(&a.variants, &cfg.nightly.variants),
        runner: a.runner.clone(),
        suites: or_default(&a.suites, &cfg.nightly.suites),
        reps: a.reps,
        circuit: a.circuit.clone(),
        progress: a.progress.clone(),
        ..RunRequest::default()
    };
    let spec = MeasureSpec::from_request(cfg, &req)?;
    if a.require_gpu
        && !spec
            .suites
            .iter()
            .any(|(_, s)| s.backend == crate::model::Backend::Cuda)
    {
        return Err(refuse(format!(
            "--require-gpu: none of the suites ({}) uses the cuda backend; name a GPU suite, e.g. --suite gpu-e2e",
            req.suites.join(", ")
        )));
    }
    if let Some(o) = &a.out {
        if o.join("nightly.json").exists() || crate::rundir::run_file(&o.join("run")).is_file() {
            return Err(refuse(format!(
                "{} already holds a nightly; choose another --out",
                o.display()
            )));
        }
    }
    let store = BaselineStore::of(cfg);
    let testbed = crate::testbed::detect();
    let bfile = store.path(&testbed.key, &name);
    // A stored but unreadable baseline stops the night: it is never overwritten.
    let stored = if bfile.is_file() {
        Some(store.load(&name, &testbed.key, false)?)
    } else {
        let others = store.testbeds_with(&name);
        if !others.is_empty() {
            println!(
                "nightly: baseline `{name}` exists for other testbeds only ({}); never used here",
                others.join(", ")
            );
        }
        None
    };
    let uncovered = match &stored {
        Some(b) => uncovered(b, &spec)?,
        None => Vec::new(),
    };
    let budget = match &a.budget {
        Some(b) => humantime::parse_duration(b).map_err(|e| refuse(format!("--budget `{b}`: {e} (e.g. 3m, 90s)")))?,
        None => std::time::Duration::from_secs_f64(cfg.nightly.budget_s),
    };
    // Tonight's reference: the baseline's runners, measured interleaved with tonight's.
    let mut spec = spec;
    let choices = match &stored {
        Some(b) => {
            let mut say = |m: String| eprintln!("{m}");
            reference::choose(&spec.build, b, &spec.variants, !a.stored_reference, &mut say)
        }
        None => Vec::new(),
    };
    for c in &choices {
        println!("nightly: {}", c.describe());
        if let (Some(v), Some((name, p))) = (&c.ref_variant, c.prebuilt()) {
            spec.variants.push(v.clone());
            spec.prebuilt.insert(name, p);
        }
    }
    let mut session = Session::start(&spec)?;
    let started = std::time::Instant::now();
    let runs_dir = cfg.resolve(&cfg.runs_dir);
    let dir_of = |id: &str| {
        a.out
            .clone()
            .unwrap_or_else(|| runs_dir.join(format!("nightly-{id}")))
            .join("run")
    };
    let journal_dir = dir_of(&session.run().id);
    session.journal_to(&journal_dir)?;
    if let Err(e) = session.measure_all() {
        return Err(keep_partial(&session, &journal_dir, e));
    }
    let first_pass = session.run();
    let (run, settled) = match &stored {
        Some(b) if first_pass.samples.iter().all(|s| s.ok) => {
            let opts = judge_options(cfg, name.as_str(), &choices, &first_pass);
            let judge_run = |r: &Run, level: f64| settle::judge(r, &b.run, &choices, &opts, level);
            let round = |c: &crate::model::Case| {
                spec.suites
                    .iter()
                    .find(|(n, _)| *n == c.suite)
                    .map_or(5, |(_, s)| s.reps.max(5))
            };
            match settle::settle(&mut session, &choices, &round, &judge_run, opts.alpha, budget, started) {
                Ok((run, cmp, rep)) => (run, Some((cmp, rep))),
                Err(e) => {
                    // Whatever was measured is kept (as an incomplete run) before the error ends the night.
                    return Err(keep_partial(&session, &journal_dir, e));
                }
            }
        }
        _ => (first_pass, None),
    };
    session.finish_journal()?;
    let run_dir = dir_of(&run.id);
    crate::rundir::save_run(&run_dir, &run).map_err(|e| kept_in_journal(&session, e))?;
    print!("{}", summary_table(&run)?);
    println!("run saved in {}", run_dir.display());
    let out = run_dir
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    if let Err(e) = check_samples(&run, &run_dir) {
        // No comparison, no baseline change; nightly.json still says what happened.
        let summary = Summary {
            baseline: baseline_info(&bfile, &name, stored.as_ref(), &run),
            message: format!("error: {e}"),
            reference: choices.clone(),
            host: crate::host_load::summarize(&run.samples),
            ..Summary::new(&run, stored.is_none(), None, ExitCode::Error, &run_dir, &out)
        };
        write_json(&out.join("nightly.json"), &summary)?;
        return Err(e);
    }
    let night = Night {
        name: &name,
        stored,
        run: &run,
        run_dir: &run_dir,
        out: &out,
        uncovered,
        choices,
        settled,
    };
    finish(cfg, a, night)
}

/// Comparison options of a night: the config's, labelled with what each side is.
fn judge_options(cfg: &Config, name: &str, choices: &[RefChoice], run: &Run) -> CompareOptions {
    let mut opts = CompareOptions::from_config(cfg, false);
    let measured = choices.iter().filter(|c| c.measured()).count();
    opts.reference_label = Some(if measured == choices.len() {
        format!("baseline {name}'s runners, measured tonight")
    } else if measured == 0 {
        format!("baseline {name} (stored samples)")
    } else {
        format!(
            "baseline {name} ({measured} of {} variants measured tonight)",
            choices.len()
        )
    });
    opts.candidate_label = Some(format!("run {}", run.id));
    // A variant whose features changed since the baseline is judged and named as the suspect
    // in the night's next steps (see `nightly_steps`), so the night does not refuse it.
    opts.allow_feature_mismatch = true;
    // Tonight's runner and its reference are measured in interleaved pairs: judge the pairs.
    opts.paired = true;
    opts
}

/// What tonight measures that the baseline lacks (`variant NAME`, `case SUITE/CIRCUIT`):
/// such rows cannot be judged. Nothing in common is an error, never a silent pass.
fn uncovered(b: &Baseline, spec: &crate::runner::MeasureSpec) -> Result<Vec<String>, HarnessError> {
    let have_v = b.run.variant_names();
    let have_c: Vec<(String, String)> = b
        .run
        .cases
        .iter()
        .map(|c| (c.suite.clone(), c.circuit.clone()))
        .collect();
    let mut missing: Vec<String> = spec
        .variants
        .iter()
        .filter(|v| !have_v.contains(&v.name))
        .map(|v| format!("variant {}", v.name))
        .collect();
    let want_c: Vec<(String, String)> = spec
        .suites
        .iter()
        .flat_map(|(n, s)| s.circuits.iter().map(move |c| (n.clone(), c.clone())))
        .collect();
    missing.extend(
        want_c
            .iter()
            .filter(|c| !have_c.contains(c))
            .map(|(s, c)| format!("case {s}/{c}")),
    );
    let have: Vec<String> = have_c.iter().map(|(s, c)| format!("{s}/{c}")).collect();
    let want: Vec<String> = want_c.iter().map(|(s, c)| format!("{s}/{c}")).collect();
    let names: Vec<String> = spec.variants.iter().map(|v| v.name.clone()).collect();
    crate::compare::common::require_common(
        (
            &format!("baseline `{}` of testbed {}", b.name, b.run.testbed.key),
            &crate::compare::common::Coverage::product(&have_v, &have),
        ),
        (
            "tonight's selection",
            &crate::compare::common::Coverage::product(&names, &want),
        ),
        &format!(
            "pick another --baseline NAME (its first night saves it) or replace this one with \
             `phaseline baseline save {} --from RUN --force`",
            b.name
        ),
    )?;
    Ok(missing)
}

/// A measured night: what `finish` judges.
struct Night<'a> {
    name: &'a str,
    stored: Option<Baseline>,
    run: &'a Run,
    run_dir: &'a Path,
    out: &'a Path,
    /// Tonight's variants and cases the baseline lacks.
    uncovered: Vec<String>,
    /// What each variant is judged against.
    choices: Vec<RefChoice>,
    /// The settled comparison (not on a first night).
    settled: Option<(Comparison, SettleReport)>,
}

/// Everything after the measurement: baseline, comparison, report, summary.
fn finish(cfg: &Config, a: &NightlyArgs, night: Night) -> Result<ExitCode, HarnessError> {
    let Night {
        name,
        stored,
        run,
        run_dir,
        out,
        uncovered,
        choices,
        settled,
    } = night;
    let store = BaselineStore::of(cfg);
    let key = &run.testbed.key;
    let compare_md = out.join("compare.md");
    let report_dir = out.join("report");
    let mut promoted = false;
    let mut previous = None;
    let host = crate::host_load::summarize(&run.samples);
    // Tonight joins the history first, so a regression's onset can be looked up in it.
    let history =
        super::nightly_history::path(cfg, a.history.as_deref()).map(|db| {
            match super::nightly_history::append(&db, run, run_dir) {
                Ok(line) => {
                    println!("nightly: {line}");
                    (db, true)
                }
                Err(e) => {
                    eprintln!("warning: tonight's run was not appended to the history: {e}");
                    (db, false)
                }
            }
        });
    let (cmp, code, mut message, info, steps) = match &stored {
        None => {
            let file = store.save(name, &tonight_only(run), run_dir, false)?;
            let message = format!("first night: this run is now baseline {name} of testbed {key}");
            write_atomic(
                &compare_md,
                format!("# Nightly {}\n\n{message} (nothing to compare against yet).\n", run.id).as_bytes(),
            )?;
            let info = baseline_info(&file, name, None, run);
            (None, ExitCode::Ok, message, info, Vec::new())
        }
        Some(b) => {
            let (cmp, _) = settled
                .clone()
                .ok_or_else(|| refuse("internal: a night with a baseline was not judged"))?;
            let refs: Vec<String> = choices.iter().map(|c| format!("- {}", c.describe())).collect();
            let md = Format::Markdown.exporter().comparison(&cmp)?;
            write_atomic(
                &compare_md,
                format!("# Nightly {}\n\nReference:\n\n{}\n\n{md}", run.id, refs.join("\n")).as_bytes(),
            )?;
            write_json(&out.join("compare.json"), &cmp)?;
            print!("{}", Format::Table.exporter().comparison(&cmp)?);
            let code = crate::compare::exit_code(&cmp);
            let steps = if code == ExitCode::Regression {
                let onsets = match &history {
                    Some((db, true)) => super::nightly_history::onsets(db, key, &cmp, cfg.bootstrap_seed)
                        .unwrap_or_else(|e| {
                            eprintln!("warning: history: {e}");
                            Vec::new()
                        }),
                    _ => Vec::new(),
                };
                let mut steps = next_steps(cfg, &cmp, name, &b.run, run, &onsets);
                if matches!(history, Some((_, true))) && onsets.is_empty() {
                    steps.push(super::nightly_history::NO_ONSET.into());
                }
                steps
            } else {
                Vec::new()
            };
            let mut message = if code == ExitCode::Regression {
                format!("regression against baseline {name} of testbed {key}")
            } else {
                format!("no regression against baseline {name} of testbed {key}")
            };
            if let Some((_, rep)) = &settled {
                message.push_str(&format!(
                    "; settling: {} round(s), {} repetitions added, stopped: {}; {} row(s) undecided",
                    rep.rounds,
                    rep.added_reps,
                    rep.stopped,
                    rep.undecided.len()
                ));
                if rep.out_of_reach > 0 {
                    message.push_str(&format!(
                        " ({} of them beyond what the budget could buy)",
                        rep.out_of_reach
                    ));
                }
                if rep.budget_rule_regressions > 0 {
                    message.push_str(&format!(
                        "; {} row(s) regressed by the budget rule",
                        rep.budget_rule_regressions
                    ));
                }
            }
            if let Some(h) = host.as_ref().filter(|h| h.busy) {
                message.push_str(&format!(
                    "; the host was busy beside the runners ({:.2} CPUs of other work on average): spans with host work inside them (a cuda runner's MSMs) spread with it",
                    h.mean_other_cpus
                ));
            }
            if let Some((db, false)) = &history {
                message.push_str(&format!("; not appended to the history {}", db.display()));
            }
            if !uncovered.is_empty() {
                message.push_str(&format!(
                    "; not in the baseline, so not judged: {}",
                    uncovered.join(", ")
                ));
            }
            if a.promote && code == ExitCode::Regression {
                message.push_str("; --promote refused: a night with a regression never becomes the baseline");
            }
            let info = baseline_info(&store.path(key, name), name, Some(b), run);
            (Some(cmp), code, message, info, steps)
        }
    };
    if a.promote && stored.is_none() {
        println!("nightly: --promote has nothing to replace on the first night");
    }
    // The report compares with the baseline as it was before any promotion
    // (on the first night: the run's variants with each other).
    let report_req = crate::report::ReportRequest {
        run: run_dir.to_path_buf(),
        baseline: None,
        allow_cross_testbed: false,
        reference_variant: None,
        out: report_dir.clone(),
    };
    match (&stored, &cmp) {
        (Some(b), Some(c)) => {
            let report = crate::report::Report::build(run.clone(), Some(b.clone()), vec![c.clone()])?;
            for (file, bytes) in report.files()? {
                write_atomic(&report_dir.join(file), &bytes)?;
            }
        }
        _ => {
            for p in crate::report::write_report(cfg, &report_req)? {
                println!("{}", p.display());
            }
        }
    }
    // Promotion last but for the summary: every other output already exists.
    if let (Some(b), true) = (&stored, a.promote && code == ExitCode::Ok) {
        let prev = store.promote(name, b, &tonight_only(run), run_dir)?;
        message.push_str(&format!(
            "; promoted: this run is now baseline {name}, the previous one is kept as {}",
            prev.display()
        ));
        promoted = true;
        previous = Some(prev.display().to_string());
    }
    let summary = Summary {
        baseline: info,
        host,
        reference: choices.clone(),
        settle: settled.as_ref().map(|(_, r)| r.clone()),
        promoted,
        previous_baseline: previous,
        message: message.clone(),
        next_steps: steps.clone(),
        ..Summary::new(run, stored.is_none(), cmp.as_ref(), code, run_dir, out)
    };
    write_json(&out.join("nightly.json"), &summary)?;
    if let Some(h) = &summary.host {
        println!("nightly: host: {h}");
    }
    println!("\nnightly: {message}");
    if !steps.is_empty() {
        println!("next steps:");
        for s in &steps {
            println!("  {s}");
        }
    }
    println!("nightly: outputs in {} (exit {})", out.display(), code as i32);
    Ok(code)
}
