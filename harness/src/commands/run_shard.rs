//! `phaseline run --manifest FILE [--shard K]`: measure one unit of a plan,
//! by the same code path as `phaseline run`, with the unit's cases as the selection.

use super::run::{measure_and_print, RunArgs};
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use crate::measured::{check_samples, refuse_existing};
use crate::run_request::RunRequest;
use crate::runner::MeasureSpec;
use crate::shard::{self, Manifest};

/// `phaseline run --manifest FILE [--shard K]`: measures one unit.
pub fn run_shard(cfg: &Config, a: &RunArgs) -> Result<ExitCode, HarnessError> {
    let Some(path) = &a.shard.manifest else {
        return Err(HarnessError::Invalid("--shard needs --manifest FILE".into()));
    };
    let planned = !a.suites.is_empty()
        || !a.v.variants.is_empty()
        || a.reps.is_some()
        || a.warmup.is_some()
        || a.circuit.is_some()
        || a.partitions.is_some()
        || !a.inject_delay.is_empty()
        || a.baseline.is_some();
    if planned {
        return Err(HarnessError::Invalid(
            "--manifest carries the plan's suites, variants and repetitions; give them to `phaseline plan`, \
             not with --manifest (and compare after `phaseline merge`, not per shard)"
                .into(),
        ));
    }
    let m = Manifest::load(path)?;
    let (k, source) = shard::resolve_index(a.shard.shard, &|v| std::env::var(v).ok())?;
    let unit = m.unit(k)?;
    let (commit, _) = crate::provenance::git_state(&cfg.root);
    if commit != m.commit {
        eprintln!(
            "warning: the plan was made at commit {}, this checkout is at {commit}; `merge` refuses units of different commits",
            m.commit
        );
    }
    let req = RunRequest {
        progress: a.progress.clone(),
        runner: a.v.runner.clone(),
        timeout_s: a.timeout,
        sample_ms: a.sample_ms,
        regenerate_params: a.regenerate_params,
        ..m.options.request()
    };
    let mut spec = MeasureSpec::from_request(cfg, &req)?;
    // One suite entry per case of the unit: exactly its cases, in plan order.
    let mut suites = Vec::new();
    for c in &unit.cases {
        let Some((_, s)) = spec.suites.iter().find(|(n, _)| n == &c.suite) else {
            return Err(HarnessError::Data(format!(
                "unit {k}: suite `{}` is not in the plan's selection",
                c.suite
            )));
        };
        let mut s = s.clone();
        s.circuits = vec![c.circuit.clone()];
        s.partitions = vec![c.partitions];
        suites.push((c.suite.clone(), s));
    }
    let got: Vec<_> = crate::runner::cases_of(&suites).into_iter().map(|c| c.0).collect();
    if got != unit.cases {
        return Err(HarnessError::Data(format!(
            "unit {k}: the config no longer gives the planned cases ({}); plan again",
            unit.label()
        )));
    }
    spec.suites = suites;
    shard::tag_settings(&mut spec.settings, &m, k, source.describe());
    eprintln!(
        "shard {k} of {} (from {}): {}",
        m.units.len(),
        source.describe(),
        unit.label()
    );
    let dir = a.out.clone().unwrap_or_else(|| {
        cfg.resolve(&cfg.runs_dir)
            .join(format!("plan-{}", m.plan_id))
            .join(format!("shard-{k}"))
    });
    refuse_existing(&dir, a.force)?;
    let (run, dir) = measure_and_print(&spec, &a.format, &|_| dir.clone())?;
    check_samples(&run, &dir)?;
    Ok(ExitCode::Ok)
}
