//! The run-directory data model: what `phaseline run` writes (`run.json`), what a
//! baseline stores, and what `compare`, `bisect`, `chart` and `report` read.
//!
//! A run holds raw samples only; every summary is recomputed from them, so a
//! stored run can be re-analysed with other thresholds later.

pub use phaseline_record::{Backend, Mode};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of `run.json` and of baseline files. Bump on incompatible change.
pub const RUN_SCHEMA_VERSION: u32 = 1;

/// Name of the pseudo-phase holding a sample's end-to-end time (`total_ms`).
pub const TOTAL: &str = phaseline_record::names::TOTAL;

/// One contender of a run: a named set of cargo features of the prover built
/// from the checkout (`baseline=`, `A1=smallvec`), or a given runner (a
/// prebuilt prover, an anchor such as supraseal-c2) that speaks the runner
/// protocol; optionally pinned to one backend (bellperson's prover).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Variant {
    pub name: String,
    /// Cargo features, sorted and deduplicated (a given runner's: what its `info --json` says).
    pub features: Vec<String>,
    /// A given runner binary instead of one built from the checkout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<std::path::PathBuf>,
    /// The backend every case of this variant runs on, whatever the suite's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<Backend>,
}

impl Variant {
    pub fn new(name: impl Into<String>, features: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let mut f: Vec<String> = features.into_iter().map(Into::into).collect();
        f.sort();
        f.dedup();
        Variant {
            name: name.into(),
            features: f,
            runner: None,
            backend: None,
        }
    }

    /// This variant run by the given runner binary.
    pub fn with_runner(mut self, runner: impl Into<std::path::PathBuf>) -> Self {
        self.runner = Some(runner.into());
        self
    }

    /// This variant on one backend.
    pub fn with_backend(mut self, backend: Backend) -> Self {
        self.backend = Some(backend);
        self
    }

    /// Whether the runner is built with the GPU backend.
    pub fn is_cuda(&self) -> bool {
        self.features.iter().any(|f| f == "cuda")
    }

    /// Comma-joined features (`""` for none): the cargo `--features` value.
    pub fn feature_list(&self) -> String {
        self.features.join(",")
    }
}

/// A variant as built for a run: where its runner came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuiltVariant {
    pub variant: Variant,
    /// Build fingerprint reported by the runner's `info --json`.
    pub fingerprint: String,
    /// Path of the cached runner binary used.
    pub binary: String,
    /// True when the cached runner was reused without rebuilding.
    pub cached: bool,
}

/// What one benchmark case runs: suite (`synth` or `e2e`), preset, partitions.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Case {
    /// `synth` (runner `synth`) or `e2e` (runner `prove`).
    pub suite: String,
    pub circuit: String,
    pub partitions: usize,
    /// The suite's prover backend (`cpu`, `cuda`); `cpu` for synth. A variant may run
    /// another backend of the same device class on it (supraseal-c2 on a `cuda` case).
    #[serde(default = "default_backend")]
    pub backend: Backend,
    /// The clock its phases are judged on (the suite's `clock`); part of the
    /// case's identity, so CPU times never meet wall times in a comparison.
    #[serde(default, skip_serializing_if = "Clock::is_wall")]
    pub clock: Clock,
}

fn default_backend() -> Backend {
    Backend::Cpu
}

impl Case {
    /// Short label, e.g. `e2e/small x1 cpu` (`... cpu-clock` on the CPU clock).
    pub fn label(&self) -> String {
        let clock = if self.clock.is_wall() { "" } else { " cpu-clock" };
        format!(
            "{}/{} x{} {}{clock}",
            self.suite, self.circuit, self.partitions, self.backend
        )
    }
}

/// The test of a row measured in interleaved pairs (a suite's `paired_test`).
/// `signed-rank` (the default) weighs each pair by the size of its
/// difference; `sign` counts the pairs above and below, the test of the
/// median of the pair ratios that the row reports, and is not drowned by a
/// few very large differences both ways (a machine switching between a fast
/// and a slow state within pairs), at the cost of more pairs in
/// well-behaved noise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PairedTest {
    #[default]
    SignedRank,
    Sign,
}

/// What a phase's duration means in a case: the span's wall time, or the CPU
/// time the runner's process used during it (every thread; the record's
/// `cpu_ms` per span and `total_cpu_ms`). On a machine busy with other work a
/// phase's wall time grows with the load while its CPU time barely moves;
/// CPU time cannot see a change that only moves waiting (lost parallelism,
/// I/O), so it suits CPU-bound phases on shared machines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Clock {
    #[default]
    Wall,
    Cpu,
}

impl Clock {
    pub fn is_wall(&self) -> bool {
        *self == Clock::Wall
    }
    pub fn as_str(&self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }
}

impl std::str::FromStr for Clock {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "wall" => Ok(Clock::Wall),
            "cpu" => Ok(Clock::Cpu),
            _ => Err(format!("unknown clock `{s}` (wall, cpu)")),
        }
    }
}

/// One timed span of a prover record (mirrors the runner's `phases` entries).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Span {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    pub start_ms: f64,
    pub ms: f64,
    /// Lane: CPU thread or GPU stream.
    #[serde(default)]
    pub thread: String,
}

/// One point of the memory / telemetry sampler, relative to the child's start.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemPoint {
    pub t_ms: f64,
    /// Resident set size of the child's process tree.
    pub rss_bytes: u64,
    /// System memory in use.
    pub sys_used_bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_used_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_util_pct: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sm_clock_mhz: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_w: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<u32>,
    /// Throttle reasons active at this point (NVML names), empty when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub throttle: Vec<String>,
}

/// One repetition of one variant on one case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    pub variant: String,
    pub case: Case,
    /// Repetition index within (variant, case), counting measured reps only.
    pub rep: usize,
    /// Position in the run's execution order (shows the interleaving).
    pub order: usize,
    /// Warm-up samples are stored but never enter statistics.
    #[serde(default)]
    pub warmup: bool,
    /// False for a crashed, timed-out or invalid child.
    pub ok: bool,
    /// Why it failed, with the tail of the child's stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Wall time of the child process, as seen by the harness.
    pub wall_ms: f64,
    /// Duration per phase name, summed over spans of that name, plus `total`.
    #[serde(default)]
    pub phases: BTreeMap<String, f64>,
    /// The raw spans of the record (timeline charts).
    #[serde(default)]
    pub spans: Vec<Span>,
    /// Counters copied from the record: allocations, reallocations,
    /// peak_rss_bytes, unaccounted_ms, aux_zero, ...
    #[serde(default)]
    pub counters: BTreeMap<String, f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// Fingerprint the record reported.
    #[serde(default)]
    pub fingerprint: String,
    /// Memory and GPU telemetry while the child ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory: Vec<MemPoint>,
    /// True when the record came from the harness's mock runner (its records carry a `mock`
    /// field): such samples never meet a real prover's in a comparison.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mock: bool,
    /// The parameter file (path, SHA-256, where it came from) the record's proofs were made
    /// with; absent for synthesis-only records and runners that do not report it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<phaseline_record::ParamsFile>,
}

/// The machine class a measurement belongs to: runs compare only within one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Testbed {
    /// Derived from the fields below (lower-case, `[a-z0-9-]`), e.g.
    /// `cpu-amd-epyc-7b13-2c-nogpu`.
    pub key: String,
    pub cpu_model: String,
    pub cpu_cores: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_driver: Option<String>,
    /// CPUs the harness was allowed to use when fewer than `cpu_cores` (an affinity mask,
    /// e.g. `taskset`): recorded beside the key, never part of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus_allowed: Option<usize>,
}

/// Where and how a run was made.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    pub os: String,
    pub kernel: String,
    pub total_memory_bytes: u64,
    pub git_commit: String,
    pub git_dirty: bool,
    pub harness_version: String,
    /// The harness command line.
    pub command: Vec<String>,
    pub started_utc: String,
    pub finished_utc: String,
    /// Settings that shaped the numbers (interleaving, timeout, config path).
    #[serde(default)]
    pub settings: BTreeMap<String, String>,
}

/// The key of suite `suite`'s setting `field` in a run's provenance settings
/// (`suite.gpu-e2e.inner_reps`): written by a measuring session, read by the
/// comparisons that check two runs made their samples alike.
pub fn suite_setting(suite: &str, field: &str) -> String {
    format!("suite.{suite}.{field}")
}

/// A whole run: `run.json` in a run directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub schema_version: u32,
    pub id: String,
    pub testbed: Testbed,
    pub provenance: Provenance,
    pub variants: Vec<BuiltVariant>,
    pub cases: Vec<Case>,
    pub samples: Vec<Sample>,
    /// Why the run holds fewer samples than planned (an interrupt); `None` when complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
}

impl Run {
    /// Measured (non-warm-up, ok) values of `phase` for `variant` on `case`.
    pub fn values(&self, variant: &str, case: &Case, phase: &str) -> Vec<f64> {
        self.samples
            .iter()
            .filter(|s| s.ok && !s.warmup && s.variant == variant && &s.case == case)
            .filter_map(|s| s.phases.get(phase).copied())
            .collect()
    }

    /// Phase names seen for `variant` on `case`, `total` first, then in order of first appearance.
    pub fn phase_names(&self, variant: &str, case: &Case) -> Vec<String> {
        let mut out = vec![TOTAL.to_string()];
        for s in self
            .samples
            .iter()
            .filter(|s| s.ok && s.variant == variant && &s.case == case)
        {
            for sp in &s.spans {
                if !out.contains(&sp.name) {
                    out.push(sp.name.clone());
                }
            }
            for k in s.phases.keys() {
                if !out.contains(k) {
                    out.push(k.clone());
                }
            }
        }
        out
    }

    /// Whether any sample came from the mock runner.
    pub fn has_mock_samples(&self) -> bool {
        self.samples.iter().any(|s| s.mock)
    }

    pub fn variant_names(&self) -> Vec<String> {
        self.variants.iter().map(|v| v.variant.name.clone()).collect()
    }

    /// This run with only the variants `keep` accepts (their runners and samples).
    pub fn only_variants(&self, keep: impl Fn(&str) -> bool) -> Run {
        Run {
            variants: self
                .variants
                .iter()
                .filter(|v| keep(&v.variant.name))
                .cloned()
                .collect(),
            samples: self.samples.iter().filter(|s| keep(&s.variant)).cloned().collect(),
            incomplete: None,
            ..self.clone()
        }
    }
}

/// A stored baseline: `baselines/<testbed>/<name>.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub schema_version: u32,
    pub name: String,
    pub saved_utc: String,
    /// The run directory it was saved from.
    pub source: String,
    pub run: Run,
}

/// Verdict on one phase of one variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Regressed,
    Improved,
    Unchanged,
    Inconclusive,
    /// Slower, but it ran concurrently with other phases whose joint elapsed time did not
    /// regress (see `compare::overlap`): reported, never counted as a regression.
    Overlapped,
}

impl Verdict {
    /// The lower-case name used in every output (as serialized).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Regressed => "regressed",
            Verdict::Improved => "improved",
            Verdict::Unchanged => "unchanged",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Overlapped => "overlapped",
        }
    }
}

/// One row of a comparison: candidate vs reference, one variant, case and phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseComparison {
    pub variant: String,
    pub case: Case,
    pub phase: String,
    pub ref_n: usize,
    pub cand_n: usize,
    pub ref_median_ms: f64,
    pub cand_median_ms: f64,
    /// cand median / ref median.
    pub ratio: f64,
    /// Bootstrap 95% interval of the median ratio.
    pub ci_low: f64,
    pub ci_high: f64,
    /// Two-sided Mann-Whitney U p-value (signed-rank for paired rows).
    pub p_value: f64,
    /// Benjamini-Hochberg adjusted p-value over the phases tested together.
    pub q_value: f64,
    /// Relative noise threshold used (0.03 = 3%).
    pub threshold: f64,
    pub verdict: Verdict,
    /// For inconclusive rows: repetitions per side that would likely settle it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reps_needed: Option<usize>,
    /// Why (e.g. "phase missing in reference").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Pairs tested when the row was judged on per-repetition pairs (ratio: median of the
    /// pairs' ratios; interval: paired bootstrap; p: Wilcoxon signed-rank); absent when the
    /// two sides were tested as independent samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<usize>,
    /// The one child phase this row only repeats (see `compare::duplicates`): the row is shown
    /// with its own numbers but kept out of every Benjamini-Hochberg family, and its q-value and
    /// verdict are the child's. Absent for every other row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<String>,
}

/// The result of `compare` / `diff`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// What the candidate was compared against (`baseline NAME`, `run DIR`).
    pub reference: String,
    pub candidate: String,
    /// True when the two come from different testbeds (`--allow-cross-testbed`).
    pub cross_testbed: bool,
    pub ref_testbed: String,
    pub cand_testbed: String,
    pub bootstrap_seed: u64,
    pub alpha: f64,
    pub rows: Vec<PhaseComparison>,
}

impl Comparison {
    pub fn any_regression(&self) -> bool {
        self.rows.iter().any(|r| r.verdict == Verdict::Regressed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_features_sorted_and_joined() {
        let v = Variant::new("x", ["presize", "smallvec", "presize"]);
        assert_eq!(v.features, vec!["presize", "smallvec"]);
        assert_eq!(v.feature_list(), "presize,smallvec");
        assert_eq!(Variant::new("b", Vec::<String>::new()).feature_list(), "");
    }
}
