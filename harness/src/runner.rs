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
use phaseline_record::{Backend, CaseArgs, Mode, ProveArgs, RunnerArgs, RunnerInfo, SetupArgs};
use std::collections::BTreeMap;
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
    /// Variants (by name) whose runner is given instead of built from the
    /// checkout: a nightly's reference runners.
    pub prebuilt: BTreeMap<String, Prebuilt>,
    /// Make every end-to-end case's parameters anew before measuring
    /// (`--regenerate-params`); otherwise cached ones that pass their check are kept.
    pub regenerate_params: bool,
}

/// A runner that is not built from the checkout: checked by `info --json`
/// against its own fingerprint, before the run and before every use.
#[derive(Clone, Debug)]
pub struct Prebuilt {
    pub binary: PathBuf,
    pub fingerprint: String,
    /// Where it came from, for the run's provenance.
    pub origin: String,
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
    /// Block mode: the child's warm-ups and measured repetitions.
    block_warmup: usize,
    block_reps: usize,
}

/// The cases of `suites` (suite, preset, partitions), each with its suite's index.
pub fn cases_of(suites: &[(String, Suite)]) -> Vec<(Case, usize)> {
    let mut out = Vec::new();
    for (si, (name, s)) in suites.iter().enumerate() {
        for c in &s.circuits {
            for &p in &s.partitions {
                let backend = if s.mode == Mode::Synth { Backend::Cpu } else { s.backend };
                out.push((
                    Case {
                        suite: name.clone(),
                        circuit: c.clone(),
                        partitions: p,
                        backend,
                        clock: s.clock,
                    },
                    si,
                ));
            }
        }
    }
    out
}

/// The tasks of `reps` measured repetitions (and `warmup` warm-ups) of the
/// variants `vs` on case `ci`, repetition numbers starting at `first_rep`.
fn case_tasks(
    ci: usize,
    si: usize,
    s: &Suite,
    vs: &[usize],
    first_rep: usize,
    warmup: usize,
    reps: usize,
) -> Vec<Task> {
    let task = |variant, rep, warm, block| Task {
        case: ci,
        suite: si,
        variant,
        rep,
        warmup: warm,
        block,
        block_warmup: warmup,
        block_reps: reps,
    };
    let mut t = Vec::new();
    match s.interleave {
        Interleave::Block => t.extend(vs.iter().map(|&v| task(v, first_rep, false, true))),
        Interleave::Alternate => {
            for w in 0..warmup {
                t.extend(vs.iter().map(|&v| task(v, w, true, false)));
            }
            // Odd repetitions run the variants in reverse (A B, B A, ...), so no variant is
            // always first after the switch and a pair's two members share their minute.
            for r in first_rep..first_rep + reps {
                if r % 2 == 0 {
                    t.extend(vs.iter().map(|&v| task(v, r, false, false)));
                } else {
                    t.extend(vs.iter().rev().map(|&v| task(v, r, false, false)));
                }
            }
        }
    }
    t
}

fn schedule(cases: &[(Case, usize)], suites: &[(String, Suite)], nv: usize) -> Vec<Task> {
    let all: Vec<usize> = (0..nv).collect();
    let mut t = Vec::new();
    for (ci, (_, si)) in cases.iter().enumerate() {
        let s = &suites[*si].1;
        t.extend(case_tasks(ci, *si, s, &all, 0, s.warmup, s.reps));
    }
    t
}

/// Makes the parameters of each end-to-end case once, before anything is
/// timed; not for suites whose runners keep the parameters they make in memory
/// (`params_store = "memory"`: every process makes its own, outside its records).
fn setup_params(spec: &MeasureSpec, runner: &BuiltVariant, cases: &[(Case, usize)]) -> Result<(), HarnessError> {
    let mut done: Vec<&str> = Vec::new();
    for (c, si) in cases {
        let s = &spec.suites[*si].1;
        let in_memory = s.params_store == Some(phaseline_record::ParamsStore::Memory);
        if s.mode != Mode::Prove || in_memory || done.contains(&c.circuit.as_str()) {
            continue;
        }
        done.push(&c.circuit);
        let args = RunnerArgs::Setup(SetupArgs {
            circuit: c.circuit.clone(),
            params_dir: Some(spec.params_dir.clone()),
            if_missing: !spec.regenerate_params,
            ..SetupArgs::default()
        });
        let job = Job {
            program: PathBuf::from(&runner.binary),
            args: args.to_argv(),
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

/// The runner invocation of task `t` on case `c`, proving on `backend`.
fn args_for(spec: &MeasureSpec, s: &Suite, c: &Case, t: &Task, backend: Backend, json: &std::path::Path) -> RunnerArgs {
    let (reps, warmup, seed) = if t.block {
        (t.block_reps, t.block_warmup, 1 + t.rep as u64)
    } else {
        // Same witness for every variant at one repetition, a new one per repetition.
        (
            s.inner_reps,
            s.inner_warmup,
            1 + t.rep as u64 + if t.warmup { 1 << 20 } else { 0 },
        )
    };
    let case = CaseArgs {
        circuit: c.circuit.clone(),
        partitions: c.partitions,
        reps,
        warmup,
        seed,
        json: Some(json.to_path_buf()),
        inject_delay: delays_for(&spec.inject_delay, &spec.variants[t.variant].name),
    };
    match s.mode {
        Mode::Synth => RunnerArgs::Synth(case),
        // One setup per process, into the parameter directory (the cached
        // parameters are replaced by the measured ones; the shape cached
        // beside them is reused, so a warm-up records it).
        Mode::Setup => RunnerArgs::Setup(SetupArgs::measured(
            &c.circuit,
            backend,
            spec.params_dir.clone(),
            json.to_path_buf(),
        )),
        Mode::Prove => RunnerArgs::Prove(ProveArgs {
            case,
            backend: Some(backend),
            params_dir: Some(spec.params_dir.clone()),
            no_verify: false,
            params_store: s.params_store,
            mem_budget: s.mem_budget.clone(),
        }),
    }
}

/// The backend variant `v` (whose runner says `info`) proves case `c` of a
/// `mode` suite on: the variant's own, else the case's when the runner has it,
/// else the runner's only backend when it is of the case's device class (an
/// anchor such as supraseal-c2 on a `cuda` case). Anything else is refused.
pub fn backend_for(v: &Variant, info: &RunnerInfo, c: &Case, mode: Mode) -> Result<Backend, HarnessError> {
    let has = |b: Backend| info.backends.contains(&b);
    let names = || info.backends.iter().map(|b| b.as_str()).collect::<Vec<_>>().join(", ");
    let want = match (mode, v.backend) {
        // Synthesis is the CPU's on every runner that does it.
        (Mode::Synth, _) => Backend::Cpu,
        (_, Some(b)) => b,
        (_, None) if has(c.backend) => c.backend,
        (_, None) => match info.backends.as_slice() {
            [only] if only.is_gpu() == c.backend.is_gpu() => *only,
            _ => c.backend,
        },
    };
    if has(want) {
        return Ok(want);
    }
    Err(HarnessError::Invalid(format!(
        "variant `{}` cannot run case {} ({mode}): its runner runs backends [{}], not `{want}`",
        v.name,
        c.label(),
        names()
    )))
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

/// Runs one task on `backend`; returns its samples (failed ones included).
fn run_task(
    spec: &MeasureSpec,
    t: &Task,
    case: &Case,
    bv: &BuiltVariant,
    backend: Backend,
    tmp: &std::path::Path,
    order: &mut usize,
) -> Result<Vec<Sample>, HarnessError> {
    let s = &spec.suites[t.suite].1;
    let json = tmp.join(format!("rec-{}.jsonl", *order));
    let n_children = if t.block { t.block_reps + t.block_warmup } else { 1 };
    // Records the child writes: in alternate mode its in-process warm-ups come
    // first, then the suite's `inner_reps` measured proofs (one sample).
    let n_records = if t.block {
        n_children
    } else {
        s.inner_warmup + s.inner_reps
    };
    let timeout = Duration::from_secs_f64(s.timeout_s * n_records as f64);
    let job = Job {
        program: PathBuf::from(&bv.binary),
        args: args_for(spec, s, case, t, backend, &json).to_argv(),
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
                let warm = i < t.block_warmup;
                let rep = if warm { i } else { t.rep + i - t.block_warmup };
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
        // The in-process warm-ups are not samples; the measured records follow them.
        if recs[..s.inner_warmup].iter().any(|r| !r.head.warmup) || recs[s.inner_warmup..].iter().any(|r| r.head.warmup)
        {
            return Ok(fail_all(
                format!(
                    "runner's records are not {} in-process warm-up(s) then {} measured repetition(s)",
                    s.inner_warmup, s.inner_reps
                ),
                order,
            ));
        }
        recs.drain(..s.inner_warmup);
    }
    // The suite's own required phases are its backend's; another backend on the case
    // (an anchor) owes only what the protocol requires of it.
    let own = if s.mode == Mode::Synth {
        Backend::Cpu
    } else {
        case.backend
    };
    let expect = record::Expect {
        mode: s.mode,
        backend,
        features: &bv.variant.features,
        fingerprint: &bv.fingerprint,
        extra_phases: if backend == own { &s.required_phases } else { &[] },
    };
    let made: Vec<Sample> = if t.block {
        let mut measured = 0;
        recs.iter()
            .enumerate()
            .map(|(i, r)| {
                let warm = r.head.warmup;
                let rep = if warm {
                    i
                } else {
                    measured += 1;
                    t.rep + measured - 1
                };
                let wall = r.head.total_ms;
                let mut x = record::check(r, &expect)
                    .and_then(|()| record::to_sample(r, name, case, rep, *order + i, wall))
                    .unwrap_or_else(|why| record::failed(name, case, rep, *order + i, warm, wall, why));
                x.warmup = warm;
                x
            })
            .collect()
    } else {
        // One sample per process: its one measured proof, or the median of the
        // suite's `inner_reps` proofs (any bad proof fails the sample).
        let proofs: Result<Vec<Sample>, String> = recs
            .iter()
            .map(|r| {
                record::check(r, &expect).and_then(|()| record::to_sample(r, name, case, t.rep, *order, o.wall_ms))
            })
            .collect();
        let mut x = match proofs {
            Ok(p) => record::median_of(p),
            Err(why) if recs.len() > 1 => record::failed(
                name,
                case,
                t.rep,
                *order,
                t.warmup,
                o.wall_ms,
                format!("one of {} in-process proofs: {why}", recs.len()),
            ),
            Err(why) => record::failed(name, case, t.rep, *order, t.warmup, o.wall_ms, why),
        };
        x.warmup = t.warmup;
        vec![x]
    };
    let (rss_peak, gpu_peak) = crate::monitor::peaks(&o.memory);
    let mut out = Vec::with_capacity(made.len());
    for (i, mut smp) in made.into_iter().enumerate() {
        if !o.memory.is_empty() {
            smp.counters.insert("tree_rss_peak_bytes".into(), rss_peak as f64);
            if let Some(g) = gpu_peak {
                smp.counters.insert("gpu_mem_peak_bytes".into(), g as f64);
            }
        }
        // What belongs to the process, not to a repetition, goes on its first
        // sample only: a block of repetitions is one process, counted once.
        if i == 0 {
            smp.memory = o.memory.clone();
            if let Some(h) = &o.host {
                smp.counters.insert(crate::host_load::OTHER_CPUS.into(), h.other_cpus);
                smp.counters.insert(crate::host_load::STEAL_CPUS.into(), h.steal_cpus);
            }
        }
        *order += 1;
        out.push(smp);
    }
    Ok(out)
}

/// Prepares one variant's runner and returns it with its `info --json`: a
/// given one (a nightly's reference, or a variant that names its runner),
/// from then on held to the fingerprint it reported, or one built from the
/// checkout. A runner named by the variant is asked once: its features and
/// fingerprint are what it says.
fn prepare_variant(
    spec: &MeasureSpec,
    v: &Variant,
    given: &mut BTreeMap<String, Prebuilt>,
    say: &mut dyn FnMut(String),
) -> Result<(BuiltVariant, RunnerInfo), HarnessError> {
    let (variant, p, info) = match (given.get(&v.name), &v.runner) {
        (Some(p), _) => (
            v.clone(),
            p.clone(),
            builder::verify(&p.binary, v, Some(&p.fingerprint))?,
        ),
        (None, Some(bin)) => {
            let info = builder::query_info(bin, v)?;
            if info.schema_version != phaseline_record::SCHEMA_VERSION {
                return Err(HarnessError::Invalid(format!(
                    "runner {} writes records of schema {} (this harness reads {})",
                    bin.display(),
                    info.schema_version,
                    phaseline_record::SCHEMA_VERSION
                )));
            }
            let p = Prebuilt {
                binary: bin.clone(),
                fingerprint: info.fingerprint.clone(),
                origin: format!("given runner {} {}", info.package_version, info.git_commit),
            };
            given.insert(v.name.clone(), p.clone());
            (
                Variant::new(v.name.clone(), info.features.clone()).with_runner(bin),
                p,
                info,
            )
        }
        (None, None) => {
            let b = builder::prepare(&spec.build, v, say)?;
            let info = builder::query_info(std::path::Path::new(&b.binary), &b.variant)?;
            return Ok((b, info));
        }
    };
    let variant = match v.backend {
        Some(b) => variant.with_backend(b),
        None => variant,
    };
    say(format!("variant `{}`: {} ({})", v.name, p.origin, p.fingerprint));
    let built = BuiltVariant {
        variant,
        fingerprint: p.fingerprint,
        binary: p.binary.display().to_string(),
        cached: true,
    };
    Ok((built, info))
}

/// A measurement in progress: runners prepared and checked, parameters made,
/// samples gathered so far. [`Session::measure_all`] runs the suites' schedule;
/// [`Session::more`] adds interleaved repetitions of some variants on one case
/// (a nightly settling its undecided rows); [`Session::run`] is the run so far.
pub struct Session<'a> {
    spec: &'a MeasureSpec,
    built: Vec<BuiltVariant>,
    /// Runners not built from the checkout, by variant name, with the fingerprint each must keep.
    given: BTreeMap<String, Prebuilt>,
    /// The backend each (variant, case) index proves on.
    backends: BTreeMap<(usize, usize), Backend>,
    cases: Vec<(Case, usize)>,
    tmp: tempfile::TempDir,
    order: usize,
    /// Measured repetitions so far per (variant, case) index.
    done: BTreeMap<(usize, usize), usize>,
    samples: Vec<Sample>,
    prov: crate::model::Provenance,
    testbed: crate::model::Testbed,
    /// Where each sample is appended as it is measured (see [`Session::journal_to`]).
    journal: Option<crate::journal::Journal>,
    /// Removes the records folder on an immediate exit (a second interrupt).
    _tmp_guard: crate::interrupt::TempGuard,
}

impl<'a> Session<'a> {
    /// Builds (or reuses) each variant's runner, checks it and makes the parameters.
    pub fn start(spec: &'a MeasureSpec) -> Result<Session<'a>, HarnessError> {
        let prov = crate::provenance::collect(&spec.build.root);
        let testbed = crate::testbed::detect();
        let mut quiet_say = |m: String| {
            if spec.progress != progress::Mode::Quiet {
                eprintln!("{m}");
            }
        };
        let mut built = Vec::new();
        let mut failed = Vec::new();
        let mut given = spec.prebuilt.clone();
        let mut infos = Vec::new();
        for v in &spec.variants {
            match prepare_variant(spec, v, &mut given, &mut quiet_say) {
                Ok((b, info)) => {
                    built.push(b);
                    infos.push(info);
                }
                Err(HarnessError::Interrupted(sig)) => return Err(HarnessError::Interrupted(sig)),
                Err(e) => failed.push(format!("variant `{}`: {e}", v.name)),
            }
        }
        if !failed.is_empty() {
            return Err(HarnessError::Invalid(format!(
                "{} of {} variants could not be prepared:\n{}",
                failed.len(),
                spec.variants.len(),
                failed.join("\n")
            )));
        }
        let cases = cases_of(&spec.suites);
        let mut backends = BTreeMap::new();
        for (vi, b) in built.iter().enumerate() {
            for (ci, (c, si)) in cases.iter().enumerate() {
                let mode = spec.suites[*si].1.mode;
                if mode == Mode::Setup && !infos[vi].makes_params {
                    return Err(HarnessError::Invalid(format!(
                        "variant `{}` cannot run case {} (setup): its runner makes no parameter files",
                        b.variant.name,
                        c.label()
                    )));
                }
                backends.insert((vi, ci), backend_for(&b.variant, &infos[vi], c, mode)?);
            }
        }
        // Parameters come from a runner that makes them, built from the checkout when there is one.
        let makers: Vec<usize> = (0..built.len()).filter(|&i| infos[i].makes_params).collect();
        let maker = makers
            .iter()
            .find(|&&i| !given.contains_key(&built[i].variant.name))
            .or(makers.first())
            .map(|&i| &built[i]);
        match maker {
            Some(m) => setup_params(spec, m, &cases)?,
            None if spec.suites.iter().any(|(_, s)| s.mode == Mode::Prove) => {
                return Err(HarnessError::Invalid(
                    "no variant's runner makes parameter files (`setup`): add one of our runners".into(),
                ))
            }
            None => {}
        }
        let tmp = tempfile::Builder::new()
            .prefix("phaseline-run-")
            .tempdir()
            .map_err(|e| HarnessError::io("temporary directory", e))?;
        let session = Session {
            spec,
            built,
            given,
            backends,
            cases,
            _tmp_guard: crate::interrupt::TempGuard::new(tmp.path().to_path_buf()),
            tmp,
            journal: None,
            order: 0,
            done: BTreeMap::new(),
            samples: Vec::new(),
            prov,
            testbed,
        };
        session.recheck()?;
        Ok(session)
    }

    /// Journals every sample measured from now on to `dir` (the run directory).
    pub fn journal_to(&mut self, dir: &std::path::Path) -> Result<(), HarnessError> {
        let mut j = crate::journal::Journal::create(dir, &self.run())?;
        for s in &self.samples {
            j.append(s)?;
        }
        self.journal = Some(j);
        Ok(())
    }

    /// Marks the journal complete; the measurement is over.
    pub fn finish_journal(&mut self) -> Result<(), HarnessError> {
        match &mut self.journal {
            Some(j) => j.finish(),
            None => Ok(()),
        }
    }

    /// The journal's path and its sample count, when there is one.
    pub fn journal(&self) -> Option<(PathBuf, usize)> {
        self.journal.as_ref().map(|j| (j.path().to_path_buf(), j.samples()))
    }

    /// The run so far, marked incomplete with `why`.
    pub fn incomplete_run(&self, why: &str) -> Run {
        let mut run = self.run();
        run.incomplete = Some(format!("{why}; {} samples were measured before", run.samples.len()));
        run
    }

    /// Checks every runner again right before it runs (the cache may have changed).
    fn recheck(&self) -> Result<(), HarnessError> {
        for b in &self.built {
            match self.given.get(&b.variant.name) {
                Some(p) => builder::verify(&p.binary, &b.variant, Some(&p.fingerprint)).map(|_| ())?,
                None => builder::recheck(&self.spec.build, b)?,
            }
        }
        Ok(())
    }

    /// Runs the suites' schedule: every case, warm-ups and repetitions, interleaved.
    pub fn measure_all(&mut self) -> Result<(), HarnessError> {
        let tasks = schedule(&self.cases, &self.spec.suites, self.built.len());
        self.run_tasks(&tasks)
    }

    /// Cases of this measurement.
    pub fn cases(&self) -> Vec<Case> {
        self.cases.iter().map(|c| c.0.clone()).collect()
    }

    /// `reps` more measured repetitions of `variants` (by name) on `case`,
    /// interleaved as the case's suite says, with new witnesses (repetition
    /// numbers continue). No warm-up: the processes are as warm as before.
    pub fn more(&mut self, variants: &[String], case: &Case, reps: usize) -> Result<(), HarnessError> {
        let ci = self
            .cases
            .iter()
            .position(|(c, _)| c == case)
            .ok_or_else(|| HarnessError::Invalid(format!("case {} is not in this measurement", case.label())))?;
        let mut vs = Vec::new();
        for name in variants {
            let vi = self
                .built
                .iter()
                .position(|b| &b.variant.name == name)
                .ok_or_else(|| HarnessError::Invalid(format!("variant `{name}` is not in this measurement")))?;
            vs.push(vi);
        }
        let first = vs
            .iter()
            .map(|&v| self.done.get(&(v, ci)).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        let si = self.cases[ci].1;
        let s = &self.spec.suites[si].1;
        let tasks = case_tasks(ci, si, s, &vs, first, 0, reps);
        self.recheck()?;
        self.run_tasks(&tasks)
    }

    fn run_tasks(&mut self, tasks: &[Task]) -> Result<(), HarnessError> {
        let mut bar = Progress::new(tasks.len(), self.spec.progress);
        for t in tasks {
            let case = &self.cases[t.case].0;
            let bv = &self.built[t.variant];
            let what = format!(
                "{} · {} · {}",
                case.label(),
                bv.variant.name,
                if t.block {
                    "all reps".to_string()
                } else if t.warmup {
                    format!("warm-up {}", t.rep)
                } else {
                    format!("rep {}", t.rep)
                }
            );
            bar.start(&what);
            let backend = self.backends[&(t.variant, t.case)];
            let got = run_task(self.spec, t, case, bv, backend, self.tmp.path(), &mut self.order)?;
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
            if let Some(j) = &mut self.journal {
                for s in &got {
                    j.append(s)?;
                }
            }
            let measured = got.iter().filter(|s| !s.warmup).count();
            *self.done.entry((t.variant, t.case)).or_insert(0) += measured;
            self.samples.extend(got);
        }
        bar.finish();
        Ok(())
    }

    /// The run as measured so far.
    pub fn run(&self) -> Run {
        let spec = self.spec;
        let mut prov = self.prov.clone();
        let mut settings = spec.settings.clone();
        for (name, s) in &spec.suites {
            settings.insert(
                crate::model::suite_setting(name, "interleave"),
                s.interleave.name().into(),
            );
            settings.insert(crate::model::suite_setting(name, "timeout_s"), s.timeout_s.to_string());
            settings.insert(crate::model::suite_setting(name, "reps"), s.reps.to_string());
            settings.insert(crate::model::suite_setting(name, "warmup"), s.warmup.to_string());
            settings.insert(
                crate::model::suite_setting(name, "inner_warmup"),
                s.inner_warmup.to_string(),
            );
            settings.insert(
                crate::model::suite_setting(name, "inner_reps"),
                s.inner_reps.to_string(),
            );
            if let Some(p) = s.params_store {
                settings.insert(crate::model::suite_setting(name, "params_store"), p.as_str().into());
            }
            if let Some(m) = &s.mem_budget {
                settings.insert(crate::model::suite_setting(name, "mem_budget"), m.clone());
            }
        }
        settings.extend(spec.build.describe());
        settings.insert("params_dir".into(), spec.params_dir.display().to_string());
        if !spec.inject_delay.is_empty() {
            settings.insert("inject_delay (self-test)".into(), spec.inject_delay.join(" "));
        }
        if let Some(d) = spec.sample_every {
            settings.insert("memory_sample_ms".into(), d.as_millis().to_string());
        }
        for (name, p) in &self.given {
            settings.insert(
                format!("runner.{name}"),
                format!("{} ({})", p.origin, p.binary.display()),
            );
        }
        prov.settings = settings;
        prov.finished_utc = crate::provenance::now_utc();
        let id = format!("{}-{}", prov.started_utc.replace(['-', ':'], ""), self.testbed.key);
        Run {
            schema_version: RUN_SCHEMA_VERSION,
            id,
            testbed: self.testbed.clone(),
            provenance: prov,
            variants: self.built.clone(),
            cases: self.cases(),
            samples: self.samples.clone(),
            incomplete: None,
        }
    }
}

/// Builds (or reuses) each variant's runner and measures every case.
pub fn measure(spec: &MeasureSpec) -> Result<Run, HarnessError> {
    let mut session = Session::start(spec)?;
    session.measure_all()?;
    Ok(session.run())
}
