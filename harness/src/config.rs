//! `phaseline.toml`: optimization flags, suites, thresholds, named variants and
//! where baselines, runs and runner builds live. Unknown keys and invalid values
//! are errors that name the key.

mod rules;

pub use rules::{check_counts, check_setup, valid_circuit, valid_name, CIRCUIT_NAME, MAX_PARTITIONS, MAX_REPETITIONS};

use crate::error::HarnessError;
use phaseline_record::{Backend, Mode};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// File name looked up at the repository root.
pub const CONFIG_FILE: &str = "phaseline.toml";

/// One optimization flag: an id (`A1`), its cargo feature and the phase it targets.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Flag {
    pub id: String,
    pub feature: String,
    pub description: String,
    pub phase: String,
}

/// How variants take turns within a case.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Interleave {
    /// One child per repetition, variants alternating: A B A B ...
    Alternate,
    /// One child per variant running every repetition: A A A, then B B B.
    Block,
}

impl Interleave {
    pub fn name(self) -> &'static str {
        match self {
            Interleave::Alternate => "alternate",
            Interleave::Block => "block",
        }
    }

    pub fn parse(s: &str) -> Result<Self, HarnessError> {
        match s {
            "alternate" => Ok(Interleave::Alternate),
            "block" => Ok(Interleave::Block),
            _ => Err(HarnessError::Invalid(format!(
                "interleave mode `{s}` is not one of: alternate, block"
            ))),
        }
    }
}

/// A variant defined by its runner: a given binary speaking the runner
/// protocol (a prebuilt prover, an anchor), or ours built with `features`
/// and pinned to one `backend` (bellperson's prover inside our runner).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RunnerDef {
    /// The runner binary (relative to the repository root); absent: built from the checkout.
    #[serde(default)]
    pub path: Option<PathBuf>,
    /// Features to build with (only without `path`; a given runner reports its own).
    #[serde(default)]
    pub features: Vec<String>,
    /// The backend every case runs on (default: the suite's, else the runner's own).
    #[serde(default)]
    pub backend: Option<Backend>,
}

/// A benchmark suite: a runner mode over some presets.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// Runner subcommand: `synth`, `prove` or `setup` (parameter generation,
    /// one setup per process; see [`check_setup`]).
    pub mode: Mode,
    #[serde(default = "default_backend")]
    pub backend: Backend,
    pub circuits: Vec<String>,
    #[serde(default = "one")]
    pub partitions: Vec<usize>,
    pub reps: usize,
    #[serde(default)]
    pub warmup: usize,
    /// In-process warm-up iterations before each measured repetition in
    /// `alternate` mode (the runner's `--warmup`): the sample is then a warm
    /// iteration (allocator, caches, lazily initialised state), while each
    /// repetition still runs in its own process. `block` mode ignores it (its
    /// warm-ups are already in-process).
    #[serde(default)]
    pub inner_warmup: usize,
    /// Measured proofs per process in `alternate` mode (the runner's `--reps`),
    /// after the in-process warm-ups: the sample is each phase's median over
    /// them. Where proofs of one process spread less than processes do, this
    /// narrows a sample for less than a process each (a GPU host's fixed
    /// start: CUDA context, parameter load). Default 1.
    #[serde(default = "one_rep")]
    pub inner_reps: usize,
    /// Per child process (per repetition in `alternate`, per repetition times
    /// the count in `block`).
    pub timeout_s: f64,
    #[serde(default = "default_interleave")]
    pub interleave: Interleave,
    /// Phases every record of this suite must carry beyond what the runner
    /// protocol requires of its mode and backend (`phaseline_record::required`),
    /// on variants that run the suite's own backend.
    #[serde(default)]
    pub required_phases: Vec<String>,
    /// Whether `--suite all` includes it (false for suites that need a
    /// particular machine, such as a GPU; they run only when named).
    #[serde(default = "yes")]
    pub in_all: bool,
    /// This suite's own `[thresholds] floor_ms` (milliseconds), e.g. for GPU
    /// phases timed by device events to the microsecond, where the global
    /// floor would hide a 10% change of a 5 ms kernel.
    #[serde(default)]
    pub floor_ms: Option<f64>,
    /// This suite's own relative thresholds (phase -> fraction), replacing the
    /// global `[thresholds.phases]` entries in its comparisons; `default` is
    /// its threshold for unlisted phases. For a suite measured on hosts whose
    /// noise `phaseline calibrate` measured apart (a GPU host's CPU side),
    /// so the CPU suites keep theirs.
    #[serde(default)]
    pub thresholds: BTreeMap<String, f64>,
    /// This suite's relative thresholds on one GPU host class (GPU model, as
    /// the testbed names it, e.g. `"NVIDIA H200"` -> phase or `default` ->
    /// fraction), laid over `thresholds` on runs measured with that GPU. A
    /// fleet of GPU runners of several models keeps one table per model.
    #[serde(default)]
    pub gpu_thresholds: BTreeMap<String, BTreeMap<String, f64>>,
    /// `prove` suites: what the runner does with parameters it has to make
    /// (`cache`, the runner's default, or `memory`: kept in memory, no file
    /// written; for full-scale cases on a host whose disk or time cannot take
    /// the ~47 GB file). Handed to the runner as `--params-store`.
    #[serde(default)]
    pub params_store: Option<phaseline_record::ParamsStore>,
    /// `prove` suites: partitions pipelined within this much host memory
    /// (`40GiB`; the runner's `--mem-budget`).
    #[serde(default)]
    pub mem_budget: Option<String>,
    /// What the phases are judged on: `wall` (the default) or `cpu`, the CPU
    /// time the runner's process used during each span (`cpu_ms`): steadier
    /// than wall time on a machine shared with other work, blind to changes
    /// that only move waiting. CPU-backend cases only (GPU spans carry no CPU time).
    #[serde(default)]
    pub clock: crate::model::Clock,
    /// The test of rows measured in interleaved pairs (a night against its
    /// reference runners): `signed-rank` (the default) or `sign`.
    #[serde(default)]
    pub paired_test: crate::model::PairedTest,
}

fn one_rep() -> usize {
    1
}
fn yes() -> bool {
    true
}
fn default_backend() -> Backend {
    Backend::Cpu
}
fn one() -> Vec<usize> {
    vec![1]
}
fn default_interleave() -> Interleave {
    Interleave::Alternate
}

/// Noise thresholds (`[thresholds]`): one type for the config and the comparisons.
pub use crate::thresholds::Thresholds;

/// How runners are built.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Build {
    /// Cargo program.
    #[serde(default = "default_cargo")]
    pub cargo: String,
    #[serde(default = "default_profile")]
    pub profile: String,
    /// The one cargo target directory every variant builds in (relative to the root).
    #[serde(default = "default_target")]
    pub target_dir: String,
    /// Runner cache: `<cache_dir>/<fingerprint>/phaseline-prover`.
    #[serde(default = "default_cache")]
    pub cache_dir: String,
    /// CUDA architectures of `cuda` runners (`sm_90,sm_100`), handed to the
    /// build as `CUDA_ARCHS` and part of the fingerprint; empty: `CUDA_ARCHS`
    /// from the environment, else the build's default (`sm_90`).
    #[serde(default)]
    pub cuda_archs: String,
}

fn default_cargo() -> String {
    "cargo".into()
}
fn default_profile() -> String {
    "release".into()
}
fn default_target() -> String {
    "target".into()
}
fn default_cache() -> String {
    "target/phaseline-runners".into()
}

impl Default for Build {
    fn default() -> Self {
        Build {
            cargo: default_cargo(),
            profile: default_profile(),
            target_dir: default_target(),
            cache_dir: default_cache(),
            cuda_archs: String::new(),
        }
    }
}

/// What `phaseline run` does with no arguments.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DefaultRun {
    pub suites: Vec<String>,
    pub variants: Vec<String>,
    /// The comparison printed at the end: [reference, candidate].
    pub compare: [String; 2],
    /// Stored baseline compared against after the default run, when this testbed has one.
    #[serde(default = "default_baseline")]
    pub baseline: String,
}

fn default_baseline() -> String {
    "default".into()
}

/// What `phaseline nightly` runs with no `--suite` / `--variant`, and the
/// stored baseline it compares against (saved on the first night).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Nightly {
    #[serde(default = "nightly_suites")]
    pub suites: Vec<String>,
    #[serde(default = "nightly_variants")]
    pub variants: Vec<String>,
    #[serde(default = "nightly_baseline")]
    pub baseline: String,
    /// Wall-clock budget of a night, in seconds: undecided rows get more
    /// interleaved repetitions, in rounds, while the next round fits in it.
    #[serde(default = "nightly_budget")]
    pub budget_s: f64,
}

fn nightly_budget() -> f64 {
    300.0
}

fn nightly_suites() -> Vec<String> {
    vec!["synth".into(), "e2e".into()]
}
fn nightly_variants() -> Vec<String> {
    vec!["baseline".into(), "all".into()]
}
fn nightly_baseline() -> String {
    "nightly".into()
}

impl Default for Nightly {
    fn default() -> Self {
        Nightly {
            suites: nightly_suites(),
            variants: nightly_variants(),
            baseline: nightly_baseline(),
            budget_s: nightly_budget(),
        }
    }
}

/// `[history]`: where nights are kept for `phaseline history` and appended by the nightly.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HistoryConfig {
    /// SQLite database, relative to the config's directory; none: no history unless `--history`/`--db`.
    #[serde(default)]
    pub path: Option<String>,
}

/// The whole file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Significance level of the comparisons (false discovery rate across phases).
    pub alpha: f64,
    pub bootstrap_seed: u64,
    #[serde(default = "default_resamples")]
    pub resamples: usize,
    pub baselines_dir: String,
    pub runs_dir: String,
    /// Prover parameter cache handed to the runner (`--params-dir`).
    #[serde(default = "default_params")]
    pub params_dir: String,
    /// Use this runner binary for every variant instead of building (recorded in provenance).
    #[serde(default)]
    pub runner_override: Option<String>,
    #[serde(default)]
    pub build: Build,
    pub thresholds: Thresholds,
    pub flags: Vec<Flag>,
    /// Named variants: name -> features (`baseline = []`). `all` defaults to every flag.
    #[serde(default)]
    pub variants: BTreeMap<String, Vec<String>>,
    /// Named variants that name a runner or a backend instead of (only) features.
    #[serde(default)]
    pub runners: BTreeMap<String, RunnerDef>,
    pub suites: BTreeMap<String, Suite>,
    pub default: DefaultRun,
    /// `phaseline nightly` (optional table; defaults: suites synth + e2e,
    /// variants baseline + all, baseline `nightly`).
    #[serde(default)]
    pub nightly: Nightly,
    /// The history of nights (optional table; docs/history.md).
    #[serde(default)]
    pub history: HistoryConfig,
    /// Directory the file was loaded from: the repository root.
    #[serde(skip)]
    pub root: PathBuf,
    #[serde(skip)]
    pub path: PathBuf,
}

fn default_resamples() -> usize {
    2000
}
fn default_params() -> String {
    "params".into()
}

pub(crate) fn bad(key: &str, msg: impl std::fmt::Display) -> HarnessError {
    HarnessError::Config(format!("config key `{key}`: {msg}"))
}

impl Config {
    /// Loads `path`, or `phaseline.toml` found in the current directory or above.
    pub fn load(path: Option<&Path>) -> Result<Config, HarnessError> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None => find_config()?,
        };
        let text = std::fs::read_to_string(&path)
            .map_err(|e| HarnessError::io(format!("cannot read config {}", path.display()), e))?;
        let mut cfg = Self::parse(&text).map_err(|e| match e {
            HarnessError::Config(m) | HarnessError::Invalid(m) => {
                HarnessError::Config(format!("{}: {m}", path.display()))
            }
            other => other,
        })?;
        let abs = path.canonicalize().unwrap_or(path.clone());
        cfg.root = abs
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        cfg.path = abs;
        Ok(cfg)
    }

    /// Parses and validates config text.
    pub fn parse(text: &str) -> Result<Config, HarnessError> {
        let mut cfg: Config = toml::from_str(text)
            .map_err(|e| HarnessError::Config(format!("invalid config: {}", e.to_string().trim_end())))?;
        cfg.validate()?;
        if !cfg.variants.contains_key("all") {
            let all = cfg.flags.iter().map(|f| f.feature.clone()).collect();
            cfg.variants.insert("all".into(), all);
        }
        cfg.variants.entry("baseline".into()).or_default();
        Ok(cfg)
    }

    fn validate(&self) -> Result<(), HarnessError> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(bad("alpha", format!("{} is not in (0, 1)", self.alpha)));
        }
        if self.resamples < 100 {
            return Err(bad("resamples", "must be at least 100"));
        }
        if !(self.nightly.budget_s.is_finite() && self.nightly.budget_s >= 0.0 && self.nightly.budget_s <= 1e6) {
            return Err(bad(
                "nightly.budget_s",
                format!("{} is not a number of seconds in [0, 1e6]", self.nightly.budget_s),
            ));
        }
        check_threshold("thresholds.default", self.thresholds.default)?;
        if !(self.thresholds.floor_ms.is_finite() && self.thresholds.floor_ms >= 0.0) {
            return Err(bad("thresholds.floor_ms", "must be a number of milliseconds >= 0"));
        }
        let required: Vec<&str> = self
            .suites
            .values()
            .flat_map(|s| s.required_phases.iter().map(String::as_str))
            .collect();
        for (p, t) in &self.thresholds.phases {
            if !crate::phases::is_known(p, &required) {
                return Err(bad(
                    &format!("thresholds.phases.{p}"),
                    format!(
                        "`{p}` is not a phase (known: {})",
                        crate::phases::KNOWN_PHASES.join(", ")
                    ),
                ));
            }
            check_threshold(&format!("thresholds.phases.{p}"), *t)?;
        }
        for (name, s) in &self.suites {
            let by_model = s.gpu_thresholds.iter().flat_map(|(model, table)| {
                table
                    .iter()
                    .map(move |(p, t)| (format!("suites.{name}.gpu_thresholds.\"{model}\".{p}"), p, t))
            });
            let own = s
                .thresholds
                .iter()
                .map(|(p, t)| (format!("suites.{name}.thresholds.{p}"), p, t));
            if let Some(model) = s.gpu_thresholds.keys().find(|m| m.trim().is_empty()) {
                return Err(bad(
                    &format!("suites.{name}.gpu_thresholds.\"{model}\""),
                    "name a GPU model, as the testbed does (e.g. \"NVIDIA H200\")",
                ));
            }
            // Models match a testbed's without regard to case, so two tables
            // for one model would leave the choice to their order.
            let models: Vec<&String> = s.gpu_thresholds.keys().collect();
            if let Some((a, b)) = models.iter().enumerate().find_map(|(i, a)| {
                models[i + 1..]
                    .iter()
                    .find(|b| a.eq_ignore_ascii_case(b))
                    .map(|b| (a, b))
            }) {
                return Err(bad(
                    &format!("suites.{name}.gpu_thresholds.\"{b}\""),
                    format!("the same GPU model as \"{a}\" (models are matched without regard to case)"),
                ));
            }
            for (key, p, t) in own.chain(by_model) {
                if p != "default" && !crate::phases::is_known(p, &required) {
                    return Err(bad(
                        &key,
                        format!(
                            "`{p}` is not a phase nor `default` (known: {})",
                            crate::phases::KNOWN_PHASES.join(", ")
                        ),
                    ));
                }
                check_threshold(&key, *t)?;
            }
        }
        for key in [("baselines_dir", &self.baselines_dir), ("runs_dir", &self.runs_dir)] {
            if key.1.trim().is_empty() {
                return Err(bad(key.0, "must not be empty"));
            }
        }
        if self.history.path.as_ref().is_some_and(|p| p.trim().is_empty()) {
            return Err(bad("history.path", "must not be empty (leave it out for no history)"));
        }
        if !matches!(self.build.profile.as_str(), "release" | "dev") {
            return Err(bad(
                "build.profile",
                format!("`{}` is not one of: release, dev", self.build.profile),
            ));
        }
        let mut ids = std::collections::BTreeSet::new();
        for (i, f) in self.flags.iter().enumerate() {
            let k = format!("flags[{i}]");
            if f.id.is_empty() || !ids.insert(f.id.clone()) {
                return Err(bad(&format!("{k}.id"), format!("`{}` is empty or repeated", f.id)));
            }
            if !valid_name(&f.feature) {
                return Err(bad(
                    &format!("{k}.feature"),
                    format!("`{}` is not a feature name", f.feature),
                ));
            }
        }
        for (name, r) in &self.runners {
            if !valid_name(name) || self.variants.contains_key(name) {
                return Err(bad(
                    &format!("runners.{name}"),
                    "runner variant names use [A-Za-z0-9_-] and differ from [variants] names",
                ));
            }
            if r.path.is_some() && !r.features.is_empty() {
                return Err(bad(
                    &format!("runners.{name}.features"),
                    "a given runner reports its own features: drop `features` or `path`",
                ));
            }
            if r.path.is_none() && r.backend.is_none() {
                return Err(bad(&format!("runners.{name}"), "name a `path`, a `backend`, or both"));
            }
        }
        for (name, feats) in &self.variants {
            if !valid_name(name) {
                return Err(bad(&format!("variants.{name}"), "variant names use [A-Za-z0-9_-]"));
            }
            for f in feats {
                if !valid_name(f) {
                    return Err(bad(&format!("variants.{name}"), format!("`{f}` is not a feature name")));
                }
            }
        }
        if self.suites.is_empty() {
            return Err(bad("suites", "define at least one suite"));
        }
        for (name, s) in &self.suites {
            let k = |f: &str| format!("suites.{name}.{f}");
            if name == "all" {
                return Err(bad("suites.all", "`all` is reserved for every suite"));
            }
            for p in &s.required_phases {
                if !phaseline_record::names::is_known(p) {
                    return Err(bad(
                        &k("required_phases"),
                        format!("`{p}` is not a phase any runner records"),
                    ));
                }
            }
            if s.circuits.is_empty() {
                return Err(bad(&k("circuits"), "name at least one preset"));
            }
            if let Some(c) = s.circuits.iter().find(|c| !valid_circuit(c)) {
                return Err(bad(
                    &k("circuits"),
                    format!("`{c}` is not a circuit name ({CIRCUIT_NAME})"),
                ));
            }
            if s.partitions.is_empty() || s.partitions.contains(&0) {
                return Err(bad(&k("partitions"), "needs values of at least 1"));
            }
            check_counts(name, s)?;
            check_setup(name, s)?;
            if let Some(f) = s.floor_ms {
                if !(f.is_finite() && f >= 0.0) {
                    return Err(bad(&k("floor_ms"), "must be a number of milliseconds >= 0"));
                }
            }
            if !(s.timeout_s > 0.0 && s.timeout_s.is_finite()) {
                return Err(bad(&k("timeout_s"), "must be a positive number of seconds"));
            }
        }
        for s in &self.default.suites {
            if !self.suites.contains_key(s) {
                return Err(bad("default.suites", format!("no suite named `{s}`")));
            }
        }
        if self.default.variants.is_empty() {
            return Err(bad("default.variants", "name at least one variant"));
        }
        // The built-in nightly suites need not exist when the table is absent;
        // `phaseline nightly` then names what is missing.
        for s in &self.nightly.suites {
            if s != "all" && !self.suites.contains_key(s) && self.nightly != Nightly::default() {
                return Err(bad("nightly.suites", format!("no suite named `{s}`")));
            }
        }
        if self.nightly.suites.is_empty() {
            return Err(bad("nightly.suites", "name at least one suite"));
        }
        if self.nightly.variants.is_empty() {
            return Err(bad("nightly.variants", "name at least one variant"));
        }
        if !valid_name(&self.nightly.baseline) {
            return Err(bad(
                "nightly.baseline",
                format!("`{}`: use letters, digits, `-` or `_`", self.nightly.baseline),
            ));
        }
        Ok(())
    }

    /// Suites selected by `--suite` (`all` = every suite, in name order).
    pub fn select_suites(&self, names: &[String]) -> Result<Vec<(String, Suite)>, HarnessError> {
        let mut out: Vec<(String, Suite)> = Vec::new();
        for n in names {
            if n == "all" {
                for (k, s) in self.suites.iter().filter(|(_, s)| s.in_all) {
                    if !out.iter().any(|(o, _)| o == k) {
                        out.push((k.clone(), s.clone()));
                    }
                }
                continue;
            }
            let s = self.suites.get(n).ok_or_else(|| {
                let known: Vec<&str> = self.suites.keys().map(String::as_str).collect();
                HarnessError::Invalid(format!("unknown suite `{n}` (known: {}, all)", known.join(", ")))
            })?;
            if !out.iter().any(|(o, _)| o == n) {
                out.push((n.clone(), s.clone()));
            }
        }
        Ok(out)
    }

    /// A path from the config, resolved against the repository root.
    pub fn resolve(&self, p: &str) -> PathBuf {
        let p = Path::new(p);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        }
    }

    pub fn threshold(&self, phase: &str) -> f64 {
        self.thresholds
            .phases
            .get(phase)
            .copied()
            .unwrap_or(self.thresholds.default)
    }
}

fn check_threshold(key: &str, t: f64) -> Result<(), HarnessError> {
    if t.is_finite() && (0.0..1.0).contains(&t) {
        Ok(())
    } else {
        Err(bad(key, format!("{t} is not a fraction in [0, 1)")))
    }
}

fn find_config() -> Result<PathBuf, HarnessError> {
    let cwd = std::env::current_dir().map_err(|e| HarnessError::io("current directory", e))?;
    let mut dir = Some(cwd.as_path());
    while let Some(d) = dir {
        let p = d.join(CONFIG_FILE);
        if p.is_file() {
            return Ok(p);
        }
        dir = d.parent();
    }
    Err(HarnessError::Config(format!(
        "no {CONFIG_FILE} in {} or any parent directory (pass --config PATH)",
        cwd.display()
    )))
}

#[cfg(test)]
mod tests;
