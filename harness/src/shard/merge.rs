//! The shard tags a unit's run carries in its provenance settings, and
//! [`merge_runs`]: the runs of every unit of one plan, measured on one
//! testbed from one commit with the same runners, become one run that
//! `compare`, `report` and the history read as any other.

use crate::error::HarnessError;
use crate::model::{Provenance, Run, RUN_SCHEMA_VERSION};
use crate::shard::manifest::Manifest;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Setting naming the plan a unit's run belongs to.
pub const PLAN_KEY: &str = "shard.plan";
/// Setting holding the unit's index.
pub const INDEX_KEY: &str = "shard.index";
/// Setting holding the plan's number of units.
pub const UNITS_KEY: &str = "shard.units";
/// Setting saying where the index came from (`--shard` or a scheduler's variable).
pub const SOURCE_KEY: &str = "shard.index_from";
/// Setting of a merged run: how many units it combines.
pub const MERGED_KEY: &str = "shard.merged";

/// Marks a unit's run settings with its plan and index.
pub fn tag_settings(settings: &mut BTreeMap<String, String>, m: &Manifest, k: usize, source: &str) {
    settings.insert(PLAN_KEY.into(), m.plan_id.clone());
    settings.insert(INDEX_KEY.into(), k.to_string());
    settings.insert(UNITS_KEY.into(), m.units.len().to_string());
    settings.insert(SOURCE_KEY.into(), source.into());
}

/// One unit's run and the directory it was read from.
pub struct ShardRun {
    pub dir: PathBuf,
    pub run: Run,
}

/// A unit's run as (plan, index, units), from its tags.
fn tags(s: &ShardRun) -> Result<(String, usize, usize), HarnessError> {
    let set = &s.run.provenance.settings;
    let get = |k: &str| {
        set.get(k).cloned().ok_or_else(|| {
            HarnessError::Data(format!(
                "{} is not a shard's run (no `{k}` setting; `phaseline run --shard K --manifest FILE` makes one)",
                s.dir.display()
            ))
        })
    };
    let num = |k: &str| -> Result<usize, HarnessError> {
        get(k)?
            .parse()
            .map_err(|_| HarnessError::Data(format!("{}: setting `{k}` is not a number", s.dir.display())))
    };
    Ok((get(PLAN_KEY)?, num(INDEX_KEY)?, num(UNITS_KEY)?))
}

fn refuse(msg: String) -> HarnessError {
    HarnessError::Incomparable(msg)
}

/// Every shard must agree with the first on `what` (plan, testbed, commit, runners).
fn same<T: PartialEq + std::fmt::Debug>(
    shards: &[ShardRun],
    what: &str,
    f: impl Fn(&ShardRun) -> T,
) -> Result<(), HarnessError> {
    let first = f(&shards[0]);
    for s in &shards[1..] {
        let v = f(s);
        if v != first {
            return Err(refuse(format!(
                "{what} differs: {:?} in {} but {:?} in {}; shards merge only within one {what}",
                first,
                shards[0].dir.display(),
                v,
                s.dir.display()
            )));
        }
    }
    Ok(())
}

/// Combines the runs of every unit of one plan into one run. Refused: an
/// incomplete shard, a run that is no shard, shards of other plans, other
/// testbeds, other commits or other runners, a unit given twice, a case in two
/// shards, and missing units.
pub fn merge_runs(shards: Vec<ShardRun>, command: Vec<String>) -> Result<Run, HarnessError> {
    let Some(first) = shards.first() else {
        return Err(refuse("merge needs at least one shard run directory".into()));
    };
    for s in &shards {
        if let Some(why) = &s.run.incomplete {
            return Err(refuse(format!(
                "{} is incomplete ({why}); run that unit again",
                s.dir.display()
            )));
        }
    }
    let (plan, _, units) = tags(first)?;
    let mut by_index: BTreeMap<usize, &ShardRun> = BTreeMap::new();
    for s in &shards {
        let (p, k, n) = tags(s)?;
        if p != plan || n != units {
            return Err(refuse(format!(
                "{} belongs to plan {p} ({n} units), {} to plan {plan} ({units} units); shards of one plan only",
                s.dir.display(),
                first.dir.display()
            )));
        }
        if let Some(other) = by_index.insert(k, s) {
            return Err(refuse(format!(
                "unit {k} is given twice: {} and {}",
                other.dir.display(),
                s.dir.display()
            )));
        }
    }
    same(&shards, "testbed", |s| s.run.testbed.key.clone())?;
    same(&shards, "commit", |s| {
        (s.run.provenance.git_commit.clone(), s.run.provenance.git_dirty)
    })?;
    same(&shards, "runner set", |s| {
        s.run
            .variants
            .iter()
            .map(|v| (v.variant.clone(), v.fingerprint.clone()))
            .collect::<Vec<_>>()
    })?;
    let missing: Vec<String> = (0..units)
        .filter(|k| !by_index.contains_key(k))
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(refuse(format!(
            "missing units {} of plan {plan} ({units} units); merge every shard's run directory",
            missing.join(", ")
        )));
    }
    let mut cases = Vec::new();
    let mut samples = Vec::new();
    for s in by_index.values() {
        for c in &s.run.cases {
            if cases.contains(c) {
                return Err(refuse(format!(
                    "case {} is in two shards (the last is {}); overlapping shards are refused",
                    c.label(),
                    s.dir.display()
                )));
            }
            cases.push(c.clone());
        }
        // Execution order stays unique: each shard's order follows the previous shard's.
        let offset = samples.len();
        samples.extend(s.run.samples.iter().cloned().map(|mut x| {
            x.order += offset;
            x
        }));
    }
    let runs: Vec<&Run> = by_index.values().map(|s| &s.run).collect();
    let mut settings = first.run.provenance.settings.clone();
    settings.remove(INDEX_KEY);
    settings.remove(SOURCE_KEY);
    settings.insert(MERGED_KEY.into(), format!("{units} units"));
    let started = runs
        .iter()
        .map(|r| r.provenance.started_utc.clone())
        .min()
        .unwrap_or_default();
    let finished = runs
        .iter()
        .map(|r| r.provenance.finished_utc.clone())
        .max()
        .unwrap_or_default();
    let provenance = Provenance {
        command,
        started_utc: started.clone(),
        finished_utc: finished,
        settings,
        ..first.run.provenance.clone()
    };
    let run = Run {
        schema_version: RUN_SCHEMA_VERSION,
        id: format!("{}-{}-merged", started.replace(['-', ':'], ""), first.run.testbed.key),
        testbed: first.run.testbed.clone(),
        provenance,
        variants: first.run.variants.clone(),
        cases,
        samples,
        incomplete: None,
    };
    crate::rundir::validate(&run).map_err(|why| refuse(format!("merged run: {why}")))?;
    Ok(run)
}
