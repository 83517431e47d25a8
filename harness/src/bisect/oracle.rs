//! `phaseline bisect oracle`: the good/bad test for `git bisect run`. Builds the
//! checked-out commit, measures it against a reference commit built and
//! measured in the same invocation on the same machine (interleaved, ABBA), or
//! against a stored baseline of this testbed, and answers through its exit
//! code: 0 good, 1 bad (the metric regressed), 125 skip (this commit cannot be
//! built or the comparison stays inconclusive at the repetition cap), 128
//! abort (the setup itself is broken: bad arguments, a reference that does
//! not build). Usage:
//!
//! `git bisect start BAD GOOD && git bisect run phaseline bisect oracle --reference GOOD --metric msm_l`

use super::judge::{describe, Judge, JudgeOptions};
use super::measurer::Measurer;
use super::state::{BisectState, Params};
use super::target::Target;
use crate::baseline::BaselineStore;
use crate::builder::{self, BuildSettings};
use crate::compare::CompareOptions;
use crate::config::{Config, Suite};
use crate::exec::{self, Job};
use crate::git::Git;
use crate::model::{Run, Variant, Verdict};
use crate::runner::{measure, MeasureSpec};
use crate::{progress, ExitCode, HarnessError};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What the oracle judges the checked-out commit against, and how.
#[derive(Debug, Clone, PartialEq)]
pub struct OracleRequest {
    /// Reference commit, built and measured now beside the checkout.
    pub reference: Option<String>,
    /// Stored baseline of this testbed instead of a reference commit.
    pub baseline: Option<String>,
    /// Variant of the baseline (default: the one with `features`).
    pub baseline_variant: Option<String>,
    /// Prover features of both sides, comma-separated.
    pub features: String,
    pub suite: String,
    /// Circuit preset (default: the suite's first).
    pub circuit: Option<String>,
    /// Phase judged (`total` = end-to-end).
    pub metric: String,
    pub reps: usize,
    pub max_reps: usize,
    /// Relative noise threshold (default: the config's for the metric).
    pub threshold: Option<f64>,
    /// Shell command run in each checkout before measuring.
    pub build_cmd: Option<String>,
    /// Runner path inside each checkout instead of building with cargo.
    pub runner: Option<PathBuf>,
    /// Repository (default: the current directory's).
    pub repo: Option<PathBuf>,
}

/// Why the oracle stops without a good/bad answer.
enum Stop {
    Skip(String),
    Abort(String),
}

fn abort(e: HarnessError) -> Stop {
    Stop::Abort(e.to_string())
}

/// Runs the oracle; never fails, every outcome is an exit code.
pub fn run_oracle(config: Option<&Path>, a: &OracleRequest) -> ExitCode {
    match oracle(config, a) {
        Ok(code) => code,
        Err(Stop::Skip(m)) => {
            eprintln!("oracle: skip (exit 125): {m}");
            ExitCode::Skip
        }
        Err(Stop::Abort(m)) => {
            eprintln!("oracle: cannot judge any commit: {m}; aborting (exit 128)");
            ExitCode::Abort
        }
    }
}

/// Runs `cmd` with `sh -c` in `dir`, in its own process group, with a timeout.
fn build_step(cmd: &str, dir: &Path) -> Result<(), String> {
    let job = Job {
        program: PathBuf::from("sh"),
        args: vec![
            "-c".into(),
            format!("cd \"$1\" && {cmd}").into(),
            "sh".into(),
            dir.into(),
        ],
        env: Vec::new(),
        timeout: Duration::from_secs(3600),
        sample_every: None,
        stdout: None,
    };
    let o = exec::run(&job).map_err(|e| e.to_string())?;
    if o.success() {
        Ok(())
    } else {
        Err(format!("`{cmd}` in {}: {}", dir.display(), o.failure(job.timeout)))
    }
}

/// Builds (or reuses) the runner of one checkout and pins it for every later call.
fn prepare(mut s: BuildSettings, root: &Path, a: &OracleRequest, v: &Variant) -> Result<BuildSettings, String> {
    s.root = root.to_path_buf();
    s.runner_override = a.runner.as_ref().map(|r| root.join(r));
    if let Some(cmd) = &a.build_cmd {
        build_step(cmd, root)?;
    }
    let b = builder::prepare(&s, v, &mut |m| eprintln!("oracle: {m}")).map_err(|e| e.to_string())?;
    s.runner_override = Some(PathBuf::from(b.binary));
    Ok(s)
}

/// Measures `reference` and `candidate` with their own runners, alternating
/// ABBA per repetition; warm-ups once per side.
struct PairMeasurer {
    sides: BTreeMap<String, BuildSettings>,
    suite: (String, Suite),
    params_dir: PathBuf,
    warmed: BTreeSet<String>,
}

impl Measurer for PairMeasurer {
    fn measure(&mut self, variants: &[Variant], reps: usize) -> Result<Run, HarnessError> {
        let mut out: Option<Run> = None;
        let mut next_rep: BTreeMap<String, usize> = BTreeMap::new();
        for r in 0..reps {
            let mut order: Vec<&Variant> = variants.iter().collect();
            if r % 2 == 1 {
                order.reverse();
            }
            for v in order {
                let build = self
                    .sides
                    .get(&v.name)
                    .cloned()
                    .ok_or_else(|| HarnessError::Failed(format!("oracle: no checkout for variant `{}`", v.name)))?;
                let mut suite = self.suite.1.clone();
                suite.reps = 1;
                suite.warmup = if self.warmed.insert(v.name.clone()) {
                    suite.warmup
                } else {
                    0
                };
                let mut spec = MeasureSpec::new(
                    build,
                    vec![v.clone()],
                    vec![(self.suite.0.clone(), suite)],
                    self.params_dir.clone(),
                );
                spec.progress = progress::Mode::Quiet;
                spec.settings.insert("command".into(), "bisect oracle".into());
                let run = measure(&spec)?;
                let rep = next_rep.entry(v.name.clone()).or_default();
                match &mut out {
                    None => {
                        let mut run = run;
                        run.samples.iter_mut().filter(|s| !s.warmup).for_each(|s| s.rep = *rep);
                        out = Some(run);
                    }
                    Some(acc) => {
                        for mut s in run.samples {
                            if !s.warmup {
                                s.rep = *rep;
                            }
                            acc.samples.push(s);
                        }
                        acc.variants.extend(run.variants);
                    }
                }
                *rep += 1;
            }
        }
        out.ok_or_else(|| HarnessError::Failed("oracle: nothing measured".into()))
    }
}

fn oracle(config: Option<&Path>, a: &OracleRequest) -> Result<ExitCode, Stop> {
    if a.reps < 3 || a.max_reps < a.reps {
        return Err(Stop::Abort(format!(
            "need 3 <= --reps <= --max-reps (got {} and {})",
            a.reps, a.max_reps
        )));
    }
    let start = a.repo.clone().unwrap_or_else(|| PathBuf::from("."));
    let root = PathBuf::from(
        Git::at(start)
            .run(&["rev-parse", "--show-toplevel"])
            .map_err(Stop::Abort)?,
    );
    let git = Git::at(&root);
    let head = git.run(&["rev-parse", "HEAD"]).map_err(Stop::Abort)?;
    let cfg = match config {
        Some(p) => Config::load(Some(p)).map_err(abort)?,
        None => Config::load(Some(&root.join(crate::config::CONFIG_FILE)))
            .map_err(|e| Stop::Skip(format!("the checkout's config: {e}")))?,
    };
    let features = super::space::parse_features(&a.features).map_err(abort)?;
    let Target {
        suite_name,
        mut suite,
        circuit,
    } = Target::resolve(&cfg, &a.suite, a.circuit.as_deref()).map_err(abort)?;
    suite.partitions.truncate(1);
    let compare = CompareOptions::from_config(&cfg, false)
        .for_suite(&suite_name)
        .with_threshold(&a.metric, a.threshold);
    compare.validate().map_err(abort)?;
    let threshold = compare.thresholds.relative(&a.metric);
    let base = BuildSettings::from_config(&cfg, None);
    let reference = Variant::new("reference", features.clone());
    let candidate = Variant::new("candidate", features.clone());
    eprintln!("oracle: commit {head}: building");
    let cand = prepare(base.clone(), &root, a, &candidate).map_err(|m| Stop::Skip(format!("cannot build: {m}")))?;
    let mut sides = BTreeMap::from([("candidate".to_string(), cand)]);
    let _ref_dir;
    let mut baseline_samples = None;
    match (&a.reference, &a.baseline) {
        (Some(rev), _) => {
            let hash = git
                .run(&["rev-parse", "--verify", &format!("{rev}^{{commit}}")])
                .map_err(Stop::Abort)?;
            let dir = tempfile::Builder::new()
                .prefix("phaseline-oracle-ref-")
                .tempdir()
                .map_err(|e| Stop::Abort(format!("temporary directory: {e}")))?;
            git.extract(&hash, dir.path()).map_err(Stop::Abort)?;
            eprintln!("oracle: reference {hash}: building");
            let s = prepare(base.clone(), dir.path(), a, &reference)
                .map_err(|m| Stop::Abort(format!("the reference {rev} does not build: {m}")))?;
            sides.insert("reference".into(), s);
            _ref_dir = dir;
        }
        (None, Some(name)) => {
            let tb = crate::testbed::detect();
            let b = BaselineStore::of(&cfg).load(name, &tb.key, false).map_err(abort)?;
            let bv = match &a.baseline_variant {
                Some(n) => b.run.variants.iter().find(|v| &v.variant.name == n),
                None => b.run.variants.iter().find(|v| v.variant.features == features),
            }
            .ok_or_else(|| {
                let names: Vec<String> = b.run.variant_names();
                Stop::Abort(format!(
                    "baseline `{name}` has no variant {} (it has: {})",
                    a.baseline_variant
                        .clone()
                        .unwrap_or_else(|| format!("with features [{}]", features.join(","))),
                    names.join(", ")
                ))
            })?;
            let samples: Vec<_> = b
                .run
                .samples
                .iter()
                .filter(|s| s.variant == bv.variant.name && s.case.suite == suite_name && s.case.circuit == circuit)
                .cloned()
                .map(|mut s| {
                    s.variant = "reference".into();
                    s
                })
                .collect();
            if samples.iter().filter(|s| s.ok && !s.warmup).count() < 3 {
                return Err(Stop::Abort(format!(
                    "baseline `{name}` holds fewer than 3 good samples of `{}` on {suite_name}/{circuit}",
                    bv.variant.name
                )));
            }
            baseline_samples = Some((samples, bv.clone(), b.run.testbed.clone()));
        }
        (None, None) => return Err(Stop::Abort("give --reference REV or --baseline NAME".into())),
    }
    let mut measurer = PairMeasurer {
        sides,
        suite: (suite_name.clone(), suite),
        params_dir: cfg.resolve(&cfg.params_dir),
        warmed: BTreeSet::new(),
    };
    let params = Params {
        good: features.clone(),
        bad: features,
        suite: suite_name,
        circuit,
        metric: a.metric.clone(),
        reps: a.reps,
        max_reps: a.max_reps,
        threshold,
        seed: cfg.bootstrap_seed,
    };
    let mut state = BisectState::new(params);
    let frozen = baseline_samples.is_some();
    if let Some((samples, mut bv, tb)) = baseline_samples {
        bv.variant.name = "reference".into();
        state.built.insert("reference".into(), bv);
        state.bank.insert("reference".into(), samples);
        state.testbed = Some(tb);
    }
    let opts = JudgeOptions {
        metric: a.metric.clone(),
        reps: a.reps,
        max_reps: a.max_reps,
        threshold,
        compare,
    };
    let mut say = |l: &str| eprintln!("oracle: {l}");
    let mut judge = Judge::new(&mut measurer, state, None, opts, &mut say);
    if frozen {
        judge.frozen.insert("reference".into());
    }
    let out = judge
        .compare(&reference, &candidate)
        .map_err(|e| Stop::Skip(format!("cannot measure: {e}")))?;
    let line = format!("`{}` {}", a.metric, describe(&out.metric));
    let code = match out.verdict {
        Verdict::Regressed => ExitCode::Regression,
        Verdict::Unchanged | Verdict::Improved | Verdict::Overlapped => ExitCode::Ok,
        Verdict::Inconclusive => {
            return Err(Stop::Skip(format!(
                "inconclusive at the repetition cap ({} reps): {line}",
                a.max_reps
            )))
        }
    };
    println!(
        "oracle: {head}: {} ({line}) -> exit {}",
        if code == ExitCode::Ok { "good" } else { "bad" },
        code as i32
    );
    Ok(code)
}
