//! `phaseline build` and `phaseline run`.

use crate::builder::{self, BuildSettings};
use crate::cli::{BuildArgs, RunArgs};
use crate::config::{Config, Interleave};
use crate::error::{ExitCode, HarnessError};
use crate::progress;
use crate::runner::{MeasureSpec, Session};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

pub fn build(cfg: &Config, a: &BuildArgs) -> Result<ExitCode, HarnessError> {
    let specs = if a.v.variants.is_empty() {
        cfg.default.variants.clone()
    } else {
        a.v.variants.clone()
    };
    let variants = crate::variant::parse_all(&specs, cfg)?;
    let s = BuildSettings::from_config(cfg, a.v.runner.clone());
    let (ok, failed) = builder::prepare_all(&s, &variants, &mut |m| eprintln!("{m}"));
    if let Some(sig) = crate::interrupt::received() {
        return Err(HarnessError::Interrupted(sig));
    }
    for b in &ok {
        println!(
            "{:<12} [{}] {} {} {}",
            b.variant.name,
            b.variant.feature_list(),
            b.fingerprint,
            if b.cached { "cached" } else { "built" },
            b.binary
        );
    }
    for (v, e) in &failed {
        eprintln!("error: variant `{v}`: {e}");
    }
    Ok(if failed.is_empty() {
        ExitCode::Ok
    } else {
        ExitCode::Error
    })
}

/// The measurement a `run` command line asks for.
pub fn spec(cfg: &Config, a: &RunArgs) -> Result<MeasureSpec, HarnessError> {
    let suite_names = if a.suites.is_empty() {
        cfg.default.suites.clone()
    } else {
        a.suites.clone()
    };
    let mut suites = cfg.select_suites(&suite_names)?;
    let interleave = a.interleave.as_deref().map(Interleave::parse).transpose()?;
    if a.reps == Some(0) {
        return Err(HarnessError::Invalid("--reps must be at least 1".into()));
    }
    if a.partitions == Some(0) {
        return Err(HarnessError::Invalid("--partitions must be at least 1".into()));
    }
    if let Some(t) = a.timeout {
        if !(t > 0.0 && t.is_finite()) {
            return Err(HarnessError::Invalid(
                "--timeout must be a positive number of seconds".into(),
            ));
        }
    }
    if let Some(c) = &a.circuit {
        if !crate::config::valid_name(c) {
            return Err(HarnessError::Invalid(format!("--circuit `{c}` is not a preset name")));
        }
    }
    for d in &a.inject_delay {
        let ok = d
            .rsplit(':')
            .next()
            .unwrap_or(d)
            .split_once('=')
            .is_some_and(|(p, ms)| !p.is_empty() && ms.parse::<f64>().is_ok_and(|x| x >= 0.0));
        if !ok {
            return Err(HarnessError::Invalid(format!(
                "--inject-delay wants PHASE=MS, got `{d}`"
            )));
        }
    }
    for (_, s) in suites.iter_mut() {
        if let Some(r) = a.reps {
            s.reps = r;
        }
        if let Some(w) = a.warmup {
            s.warmup = w;
        }
        if let Some(w) = a.inner_warmup {
            s.inner_warmup = w;
        }
        if let Some(c) = &a.circuit {
            s.circuits = vec![c.clone()];
        }
        if let Some(p) = a.partitions {
            s.partitions = vec![p];
        }
        if let Some(t) = a.timeout {
            s.timeout_s = t;
        }
        if let Some(i) = interleave {
            s.interleave = i;
        }
    }
    for (name, s) in &suites {
        crate::config::check_counts(name, s)
            .map_err(|e| HarnessError::Invalid(format!("{e} (from the command line or the config)")))?;
    }
    let specs = if a.v.variants.is_empty() {
        cfg.default.variants.clone()
    } else {
        a.v.variants.clone()
    };
    let variants = crate::variant::parse_all(&specs, cfg)?;
    for d in &a.inject_delay {
        if let Some((v, _)) = d.split_once(':') {
            if !variants.iter().any(|x| x.name == v) {
                let names: Vec<&str> = variants.iter().map(|x| x.name.as_str()).collect();
                return Err(HarnessError::Invalid(format!(
                    "--inject-delay `{d}` names variant `{v}`, which this run does not measure (it has: {})",
                    names.join(", ")
                )));
            }
        }
    }
    let progress = match a.progress.as_str() {
        "auto" => progress::Mode::Auto,
        "lines" => progress::Mode::Lines,
        "quiet" => progress::Mode::Quiet,
        p => {
            return Err(HarnessError::Invalid(format!(
                "--progress `{p}` is not one of: auto, lines, quiet"
            )))
        }
    };
    let mut settings = BTreeMap::new();
    settings.insert("config".into(), cfg.path.display().to_string());
    settings.insert("variants".into(), specs.join(" "));
    Ok(MeasureSpec {
        build: BuildSettings::from_config(cfg, a.v.runner.clone()),
        variants,
        suites,
        params_dir: cfg.resolve(&cfg.params_dir),
        inject_delay: a.inject_delay.clone(),
        sample_every: (a.sample_ms > 0).then(|| Duration::from_millis(a.sample_ms)),
        progress,
        settings,
        prebuilt: Default::default(),
        regenerate_params: a.regenerate_params,
    })
}

fn out_dir(cfg: &Config, a: &RunArgs, id: &str) -> PathBuf {
    a.out.clone().unwrap_or_else(|| cfg.resolve(&cfg.runs_dir).join(id))
}

/// `phaseline run`; `is_default` when no suite or variant was named.
pub fn run(cfg: &Config, a: &RunArgs, is_default: bool) -> Result<ExitCode, HarnessError> {
    if a.shard.manifest.is_some() {
        return super::shard::run_shard(cfg, a);
    }
    crate::commands::compare::check_format(&a.format)?;
    let spec = spec(cfg, a)?;
    if let Some(out) = &a.out {
        if crate::rundir::run_file(out).is_file() && !a.force {
            return Err(HarnessError::Invalid(format!(
                "{} already holds a run; pass --force to replace it or choose another --out",
                out.display()
            )));
        }
    }
    // A named baseline must exist before minutes are spent measuring.
    let testbed = crate::testbed::detect();
    if let Some(name) = &a.baseline {
        crate::baseline::load(
            &cfg.resolve(&cfg.baselines_dir),
            name,
            &testbed.key,
            a.allow_cross_testbed,
        )?;
    }
    let (run, dir) = measure_and_save(&spec, a, &|id| out_dir(cfg, a, id))?;
    check_samples(&run, &dir)?;
    crate::commands::compare::after_run(cfg, a, &run, &dir, is_default)
}

/// Measures `spec`, saves the run in `dir_of(run id)` and prints the per-phase medians.
pub fn measure_and_save(
    spec: &MeasureSpec,
    a: &RunArgs,
    dir_of: &dyn Fn(&str) -> PathBuf,
) -> Result<(crate::model::Run, PathBuf), HarnessError> {
    let mut session = Session::start(spec)?;
    let dir = dir_of(&session.run().id);
    session.journal_to(&dir)?;
    let measured = session.measure_all().and_then(|()| session.finish_journal());
    let run = match measured {
        Ok(()) => session.run(),
        Err(e) => return Err(keep_partial(&session, &dir, e)),
    };
    crate::rundir::save_run(&dir, &run).map_err(|e| kept_in_journal(&session, e))?;
    // Machine-readable formats keep stdout for the comparison alone.
    let table = crate::commands::compare::summary_table(&run)?;
    if a.format == "table" {
        print!("{table}");
        println!("run saved in {}", dir.display());
    } else {
        eprint!("{table}");
        eprintln!("run saved in {}", dir.display());
    }
    Ok((run, dir))
}

/// After a measurement error (an interrupt): saves what was measured as an
/// incomplete run, says where, and returns the error.
pub fn keep_partial(session: &Session, dir: &std::path::Path, e: HarnessError) -> HarnessError {
    let why = match &e {
        HarnessError::Interrupted(sig) => format!("interrupted by {}", crate::interrupt::name(*sig)),
        other => format!("stopped by an error: {other}"),
    };
    let run = session.incomplete_run(&why);
    match crate::rundir::save_run(dir, &run) {
        Ok(()) => eprintln!(
            "incomplete run ({} samples) saved in {}",
            run.samples.len(),
            dir.display()
        ),
        Err(w) => eprintln!("{}", kept_in_journal(session, w)),
    }
    e
}

/// An output write failed: the error names the file, and where the samples are kept.
pub fn kept_in_journal(session: &Session, e: HarnessError) -> HarnessError {
    match session.journal() {
        Some((path, n)) => HarnessError::Invalid(format!(
            "{e}; the {n} measured samples are kept in {} (`compare` and `report` read it)",
            path.display()
        )),
        None => e,
    }
}

/// Failed samples of a saved run are an error naming each of them.
pub fn check_samples(run: &crate::model::Run, dir: &std::path::Path) -> Result<(), HarnessError> {
    let failed: Vec<_> = run.samples.iter().filter(|s| !s.ok).collect();
    if !failed.is_empty() {
        for s in &failed {
            eprintln!(
                "failed: {} {} rep {}: {}",
                s.case.label(),
                s.variant,
                s.rep,
                s.error.as_deref().unwrap_or("")
            );
        }
        return Err(HarnessError::Invalid(format!(
            "{} of {} samples failed (details above and in {})",
            failed.len(),
            run.samples.len(),
            dir.display()
        )));
    }
    Ok(())
}
