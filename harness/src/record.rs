//! Reading the runner's JSON Lines records (the protocol's [`RecordHead`]
//! plus each runner's own counters) and turning each into a [`Sample`].

use crate::error::HarnessError;
use crate::model::{Case, Clock, Sample, Span, TOTAL};
use phaseline_record::{Backend, Mode, RecordHead, Requires};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// A runner record: the head every runner writes, and its other top-level fields (counters).
#[derive(Clone, Debug, Deserialize)]
pub struct Record {
    #[serde(flatten)]
    pub head: RecordHead,
    /// Every other top-level field (counters).
    #[serde(flatten)]
    pub rest: BTreeMap<String, serde_json::Value>,
}

impl Record {
    /// Whether the harness's mock runner wrote this record: its records carry the `mock` field
    /// (the behaviour it was asked for) and report `git_commit` `mock`; the prover's never do.
    pub fn is_mock(&self) -> bool {
        self.rest.contains_key("mock") || self.head.git_commit == "mock"
    }
}

/// Longest phase or total a record may report, in ms (one week): beyond it the number is
/// a corrupt or forged record, not a measurement.
pub const MAX_PLAUSIBLE_MS: f64 = 7.0 * 24.0 * 3600.0 * 1000.0;

/// Record schema this harness reads.
pub const RECORD_SCHEMA: u32 = phaseline_record::SCHEMA_VERSION;

/// Parses a JSON Lines file of records.
pub fn read(path: &Path) -> Result<Vec<Record>, HarnessError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| HarnessError::io(format!("cannot read runner output {}", path.display()), e))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let value: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| crate::fsutil::json_problem(&format!("runner record {}", i + 1), &e))?;
        // The version first, so that a record of another schema is named as such.
        let version = value.get("schema_version").and_then(|x| x.as_u64());
        if let Some(v) = version.filter(|v| *v != u64::from(RECORD_SCHEMA)) {
            return Err(HarnessError::Invalid(format!(
                "runner record {} has schema_version {v} (this harness reads {RECORD_SCHEMA})",
                i + 1
            )));
        }
        let r: Record = serde_json::from_value(value)
            .map_err(|e| crate::fsutil::json_problem(&format!("runner record {}", i + 1), &e))?;
        out.push(r);
    }
    Ok(out)
}

/// What a record must satisfy to become a good sample.
pub struct Expect<'a> {
    pub mode: Mode,
    /// The backend the runner was asked for.
    pub backend: Backend,
    pub features: &'a [String],
    pub fingerprint: &'a str,
    /// Phases the suite requires beyond the protocol's [`phaseline_record::required`].
    pub extra_phases: &'a [String],
}

/// Checks a record; the error names what is wrong (e.g. the missing phase).
pub fn check(rec: &Record, x: &Expect) -> Result<(), String> {
    let r = &rec.head;
    if r.mode != x.mode {
        return Err(format!("record mode `{}`, expected `{}`", r.mode, x.mode));
    }
    if r.backend != x.backend {
        return Err(format!("record backend `{}`, expected `{}`", r.backend, x.backend));
    }
    let mut f = r.features.clone();
    f.sort();
    f.dedup();
    if f != x.features {
        return Err(format!(
            "record features [{}], expected [{}]",
            f.join(","),
            x.features.join(",")
        ));
    }
    if r.fingerprint != x.fingerprint {
        return Err(format!(
            "record fingerprint {} differs from the runner's {}",
            r.fingerprint, x.fingerprint
        ));
    }
    let required = phaseline_record::required(x.mode, x.backend, Requires::of(r.verified.is_some(), &r.features));
    let extra = x.extra_phases.iter().map(String::as_str);
    for p in required.into_iter().chain(extra) {
        if !r.phases.iter().any(|s| s.name == p) {
            return Err(format!("record is missing phase `{p}`"));
        }
    }
    if !(r.total_ms.is_finite() && r.total_ms >= 0.0) || r.phases.iter().any(|p| !(p.ms.is_finite() && p.ms >= 0.0)) {
        return Err("record has a negative or non-finite duration".into());
    }
    let longest = r
        .phases
        .iter()
        .map(|p| (p.name.as_str(), p.ms))
        .chain([("total", r.total_ms)]);
    if let Some((name, ms)) = longest.into_iter().find(|(_, ms)| *ms > MAX_PLAUSIBLE_MS) {
        return Err(format!(
            "record phase `{name}` lasts {ms:e} ms, more than a week: an absurd duration, refused"
        ));
    }
    Ok(())
}

/// The duration of each phase name on `clock`, summed over its spans, and
/// `total`: wall times, or the CPU times the record carries (each span's
/// `cpu_ms`, the record's `total_cpu_ms`), refused naming the first phase
/// without one.
pub fn phase_values(rec: &Record, clock: Clock) -> Result<BTreeMap<String, f64>, String> {
    use phaseline_record::names::{CPU_MS, TOTAL_CPU_MS};
    let r = &rec.head;
    let mut phases: BTreeMap<String, f64> = BTreeMap::new();
    let cpu_of = |v: Option<&serde_json::Value>| v.and_then(|x| x.as_f64()).filter(|x| x.is_finite() && *x >= 0.0);
    for p in &r.phases {
        let ms = match clock {
            Clock::Wall => p.ms,
            Clock::Cpu => cpu_of(p.extra.get(CPU_MS)).ok_or_else(|| {
                format!(
                    "record phase `{}` carries no CPU time (`{CPU_MS}`), which a CPU-clock case judges",
                    p.name
                )
            })?,
        };
        *phases.entry(p.name.clone()).or_default() += ms;
    }
    let total = match clock {
        Clock::Wall => r.total_ms,
        Clock::Cpu => cpu_of(rec.rest.get(TOTAL_CPU_MS))
            .ok_or_else(|| format!("record carries no `{TOTAL_CPU_MS}`, which a CPU-clock case judges as `total`"))?,
    };
    phases.insert(TOTAL.into(), total);
    Ok(phases)
}

/// Builds the sample of a record that passed [`check`], its phases on the
/// case's clock; refused when the record lacks a time that clock judges.
pub fn to_sample(
    rec: &Record,
    variant: &str,
    case: &Case,
    rep: usize,
    order: usize,
    wall_ms: f64,
) -> Result<Sample, String> {
    let r = &rec.head;
    let phases = phase_values(rec, case.clock)?;
    let mut counters = BTreeMap::new();
    let circuit = match serde_json::to_value(&r.circuit) {
        Ok(serde_json::Value::Object(m)) => m.into_iter().collect(),
        _ => BTreeMap::new(),
    };
    for (k, v) in rec.rest.iter().chain(circuit.iter()) {
        if let Some(x) = v.as_f64() {
            counters.insert(k.clone(), x);
        }
    }
    counters.insert("phase_sum_ms".into(), r.phase_sum_ms);
    counters.insert("unaccounted_ms".into(), r.unaccounted_ms);
    Ok(Sample {
        variant: variant.into(),
        case: case.clone(),
        rep,
        order,
        warmup: r.warmup,
        ok: true,
        error: None,
        wall_ms,
        phases,
        spans: r
            .phases
            .iter()
            .map(|p| Span {
                name: p.name.clone(),
                parent: p.parent.clone(),
                start_ms: p.start_ms,
                ms: p.ms,
                thread: p.thread.clone(),
            })
            .collect(),
        counters,
        verified: r.verified,
        fingerprint: r.fingerprint.clone(),
        memory: Vec::new(),
        mock: rec.is_mock(),
        params: r.params.clone(),
    })
}

/// One sample of several measured proofs made in one process (a suite's
/// `inner_reps`): each phase and counter is its median over the proofs that
/// carry it (a phase such as `cuda_init` happens in a process's first proof
/// only), except peaks (`*peak*`), which are the largest; the spans are the
/// first proof's (timeline charts). The proofs are verified when all are.
/// The samples must be checked ones of one variant, case and process.
pub fn median_of(mut proofs: Vec<Sample>) -> Sample {
    if proofs.len() == 1 {
        return proofs.remove(0);
    }
    fn combine(maps: &[&BTreeMap<String, f64>], peak: bool) -> BTreeMap<String, f64> {
        let mut all: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
        for m in maps {
            for (k, v) in m.iter() {
                all.entry(k.as_str()).or_default().push(*v);
            }
        }
        all.into_iter()
            .filter_map(|(k, vs)| {
                let v = if peak && k.contains("peak") {
                    vs.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                } else {
                    crate::stats::quantile::median(&vs)?
                };
                Some((k.to_string(), v))
            })
            .collect()
    }
    let phases = combine(&proofs.iter().map(|p| &p.phases).collect::<Vec<_>>(), false);
    let counters = combine(&proofs.iter().map(|p| &p.counters).collect::<Vec<_>>(), true);
    let verified = proofs
        .iter()
        .map(|p| p.verified)
        .try_fold(true, |all, v| v.map(|v| all && v));
    let mut first = proofs.remove(0);
    first.phases = phases;
    first.counters = counters;
    first.counters.insert("inner_reps".into(), (proofs.len() + 1) as f64);
    first.verified = verified;
    first
}

/// A failed sample with its reason.
pub fn failed(variant: &str, case: &Case, rep: usize, order: usize, warmup: bool, wall_ms: f64, why: String) -> Sample {
    Sample {
        variant: variant.into(),
        case: case.clone(),
        rep,
        order,
        warmup,
        ok: false,
        error: Some(why),
        wall_ms,
        phases: BTreeMap::new(),
        spans: Vec::new(),
        counters: BTreeMap::new(),
        verified: None,
        fingerprint: String::new(),
        memory: Vec::new(),
        mock: false,
        params: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(json: serde_json::Value) -> Record {
        serde_json::from_value(json).expect("record")
    }

    fn sample_record(with_cpu: bool) -> Record {
        let extra = |ms: f64| {
            if with_cpu {
                serde_json::json!({"cpu_ms": ms})
            } else {
                serde_json::json!({})
            }
        };
        let mut head = RecordHead::new(Mode::Synth, Backend::Cpu, vec![], "fp".into(), "c".into());
        head.phases = vec![
            phaseline_record::Phase {
                name: "synthesis".into(),
                parent: None,
                start_ms: 0.0,
                ms: 10.0,
                thread: "main".into(),
                extra: extra(4.0).as_object().unwrap().clone(),
            },
            phaseline_record::Phase {
                name: "synthesis".into(),
                parent: None,
                start_ms: 10.0,
                ms: 10.0,
                thread: "main".into(),
                extra: extra(5.0).as_object().unwrap().clone(),
            },
        ];
        head.set_totals(25.0);
        let mut v = serde_json::to_value(&head).unwrap();
        if with_cpu {
            v["total_cpu_ms"] = 11.0.into();
        }
        rec(v)
    }

    #[test]
    fn phase_values_on_either_clock() {
        let r = sample_record(true);
        let wall = phase_values(&r, Clock::Wall).unwrap();
        assert_eq!((wall["synthesis"], wall[TOTAL]), (20.0, 25.0));
        let cpu = phase_values(&r, Clock::Cpu).unwrap();
        assert_eq!((cpu["synthesis"], cpu[TOTAL]), (9.0, 11.0));
    }

    #[test]
    fn a_record_without_cpu_times_is_refused_on_the_cpu_clock_only() {
        let r = sample_record(false);
        assert!(phase_values(&r, Clock::Wall).is_ok());
        let e = phase_values(&r, Clock::Cpu).unwrap_err();
        assert!(e.contains("`synthesis`") && e.contains("cpu_ms"), "{e}");
        let mut r = sample_record(true);
        r.rest.remove("total_cpu_ms");
        let e = phase_values(&r, Clock::Cpu).unwrap_err();
        assert!(e.contains("total_cpu_ms"), "{e}");
    }
}
