//! What a measurement is asked for, typed: the selection and overrides of
//! `run`, `plan`, a shard or a night ([`RunRequest`]), and the one place a
//! [`MeasureSpec`] is made ([`MeasureSpec::new`], [`MeasureSpec::from_request`]).

use crate::builder::BuildSettings;
use crate::config::{Config, Interleave, Suite};
use crate::error::HarnessError;
use crate::model::Variant;
use crate::progress;
use crate::runner::MeasureSpec;
use phaseline_record::Mode;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// A selection of suites and variants with the overrides of one measurement.
/// Empty lists and `None`s take the config's defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRequest {
    /// `NAME=feat,feat` or config names; empty: `[default] variants`.
    pub variants: Vec<String>,
    /// One runner binary for every variant instead of building.
    pub runner: Option<PathBuf>,
    /// Suite names or `all`; empty: `[default] suites`.
    pub suites: Vec<String>,
    pub reps: Option<usize>,
    pub warmup: Option<usize>,
    pub inner_warmup: Option<usize>,
    /// Measured proofs per process (the sample is their median).
    pub inner_reps: Option<usize>,
    /// Circuit preset replacing the suites' presets.
    pub circuit: Option<String>,
    /// Partitions replacing the suites' partitions.
    pub partitions: Option<usize>,
    /// Timeout per repetition, in seconds.
    pub timeout_s: Option<f64>,
    /// `alternate` or `block`.
    pub interleave: Option<String>,
    /// Harness self-test: `[VARIANT:]PHASE=MS` delays.
    pub inject_delay: Vec<String>,
    /// Telemetry sampling period in ms (0 = off).
    pub sample_ms: u64,
    /// `auto`, `lines` or `quiet`.
    pub progress: String,
    /// Make end-to-end parameters anew instead of keeping checked cached ones.
    pub regenerate_params: bool,
}

impl Default for RunRequest {
    fn default() -> Self {
        RunRequest {
            variants: Vec::new(),
            runner: None,
            suites: Vec::new(),
            reps: None,
            warmup: None,
            inner_warmup: None,
            inner_reps: None,
            circuit: None,
            partitions: None,
            timeout_s: None,
            interleave: None,
            inject_delay: Vec::new(),
            sample_ms: 100,
            progress: "auto".into(),
            regenerate_params: false,
        }
    }
}

impl RunRequest {
    /// The variant specs measured: the request's, else `dflt`.
    pub fn variant_specs(&self, dflt: &[String]) -> Vec<String> {
        or_default(&self.variants, dflt)
    }
}

/// `given` unless it is empty, else `dflt`.
pub fn or_default(given: &[String], dflt: &[String]) -> Vec<String> {
    if given.is_empty() {
        dflt.to_vec()
    } else {
        given.to_vec()
    }
}

impl MeasureSpec {
    /// A measurement of `variants` on `suites` with every optional setting off:
    /// no delays, no telemetry, line progress, no provenance settings, nothing prebuilt.
    pub fn new(
        build: BuildSettings,
        variants: Vec<Variant>,
        suites: Vec<(String, Suite)>,
        params_dir: PathBuf,
    ) -> Self {
        MeasureSpec {
            build,
            variants,
            suites,
            params_dir,
            inject_delay: Vec::new(),
            sample_every: None,
            progress: progress::Mode::Lines,
            settings: BTreeMap::new(),
            prebuilt: Default::default(),
            regenerate_params: false,
        }
    }

    /// The measurement `req` asks for under `cfg`, every override checked.
    pub fn from_request(cfg: &Config, req: &RunRequest) -> Result<MeasureSpec, HarnessError> {
        let suite_names = or_default(&req.suites, &cfg.default.suites);
        let mut suites = cfg.select_suites(&suite_names)?;
        let interleave = req.interleave.as_deref().map(Interleave::parse).transpose()?;
        check_overrides(req)?;
        for (_, s) in suites.iter_mut() {
            apply_overrides(s, req, interleave);
        }
        for (name, s) in &suites {
            crate::config::check_counts(name, s)
                .and_then(|()| crate::config::check_setup(name, s))
                .map_err(|e| HarnessError::Invalid(format!("{e} (from the command line or the config)")))?;
            if s.mode == Mode::Setup && !req.inject_delay.is_empty() {
                return Err(HarnessError::Invalid(format!(
                    "--inject-delay does not apply to suite `{name}`: a runner's `setup` takes no delays"
                )));
            }
        }
        let specs = req.variant_specs(&cfg.default.variants);
        let variants = crate::variant::parse_all(&specs, cfg)?;
        check_delay_variants(&req.inject_delay, &variants)?;
        let mut spec = MeasureSpec::new(
            BuildSettings::from_config(cfg, req.runner.clone()),
            variants,
            suites,
            cfg.resolve(&cfg.params_dir),
        );
        spec.progress = progress_mode(&req.progress)?;
        spec.inject_delay = req.inject_delay.clone();
        spec.sample_every = (req.sample_ms > 0).then(|| Duration::from_millis(req.sample_ms));
        spec.regenerate_params = req.regenerate_params;
        spec.settings.insert("config".into(), cfg.path.display().to_string());
        spec.settings.insert("variants".into(), specs.join(" "));
        Ok(spec)
    }
}

/// Refuses overrides that cannot be measured.
fn check_overrides(req: &RunRequest) -> Result<(), HarnessError> {
    if req.reps == Some(0) {
        return Err(HarnessError::Invalid("--reps must be at least 1".into()));
    }
    if req.partitions == Some(0) {
        return Err(HarnessError::Invalid("--partitions must be at least 1".into()));
    }
    if let Some(t) = req.timeout_s {
        if !(t > 0.0 && t.is_finite()) {
            return Err(HarnessError::Invalid(
                "--timeout must be a positive number of seconds".into(),
            ));
        }
    }
    if let Some(c) = &req.circuit {
        if !crate::config::valid_circuit(c) {
            return Err(HarnessError::Invalid(format!(
                "--circuit `{c}` is not a circuit name ({})",
                crate::config::CIRCUIT_NAME
            )));
        }
    }
    for d in &req.inject_delay {
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
    Ok(())
}

fn apply_overrides(s: &mut Suite, req: &RunRequest, interleave: Option<Interleave>) {
    if let Some(r) = req.reps {
        s.reps = r;
    }
    if let Some(w) = req.warmup {
        s.warmup = w;
    }
    if let Some(w) = req.inner_warmup {
        s.inner_warmup = w;
    }
    if let Some(n) = req.inner_reps {
        s.inner_reps = n;
    }
    if let Some(c) = &req.circuit {
        s.circuits = vec![c.clone()];
    }
    if let Some(p) = req.partitions {
        s.partitions = vec![p];
    }
    if let Some(t) = req.timeout_s {
        s.timeout_s = t;
    }
    if let Some(i) = interleave {
        s.interleave = i;
    }
}

/// A `VARIANT:PHASE=MS` delay must name a measured variant.
fn check_delay_variants(delays: &[String], variants: &[Variant]) -> Result<(), HarnessError> {
    for d in delays {
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
    Ok(())
}

fn progress_mode(p: &str) -> Result<progress::Mode, HarnessError> {
    match p {
        "auto" => Ok(progress::Mode::Auto),
        "lines" => Ok(progress::Mode::Lines),
        "quiet" => Ok(progress::Mode::Quiet),
        p => Err(HarnessError::Invalid(format!(
            "--progress `{p}` is not one of: auto, lines, quiet"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_circuit(c: &str) -> Result<(), HarnessError> {
        check_overrides(&RunRequest {
            circuit: Some(c.into()),
            ..RunRequest::default()
        })
    }

    /// `--circuit` takes every kind of circuit name a suite may list, and
    /// refuses what could not be one (the runner judges the rest).
    #[test]
    fn circuit_override_takes_mixes_and_real_circuits() {
        for c in ["medium", "medium-mix25", "medium-mix3.3b2.39", "porep-real:512MiB"] {
            assert!(with_circuit(c).is_ok(), "{c}");
        }
        for c in ["", "a b", "../x", "x/y"] {
            let e = with_circuit(c).unwrap_err().to_string();
            assert!(e.contains("not a circuit name"), "{c}: {e}");
        }
    }
}
