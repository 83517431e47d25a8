//! The mock runner's model (`phaseline-mock-prover`, the test double of a
//! runner): its spec, which phases it records for a mode and backend, how long
//! each lasts (medians at `tiny` scaled by the preset, feature effects, seeded
//! noise, a cold first iteration, a side lane) and the records it writes. The
//! binary adds the protocol's command line, where the spec comes from, the
//! output and the behaviours that are side effects (crash, hang, a child in a
//! session of its own).

use phaseline_record::names::*;
use phaseline_record::{Backend, CircuitInfo, Mode, Phase, RecordHead};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What the mock does (its spec file, JSON).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct MockSpec {
    /// Phase -> median ms at the `tiny` preset (defaults: a prover-like set).
    pub phases: BTreeMap<String, f64>,
    /// Relative standard deviation of every phase (default 0.01).
    pub noise: Option<f64>,
    /// A busy machine: each span's wall time is its CPU time stretched by
    /// `1 + |wall_noise * N(0, 1)|`, while its `cpu_ms` keeps the CPU time
    /// (default: none; wall = CPU).
    pub wall_noise: Option<f64>,
    /// Feature -> phase -> multiplicative factor.
    pub effects: BTreeMap<String, BTreeMap<String, f64>>,
    /// Feature -> phase that, with the feature, runs on a second lane beside the phase before
    /// it (starting with it), as `par-bg2` runs B_G2 beside the GPU's MSMs.
    pub concurrent: BTreeMap<String, String>,
    pub seed: u64,
    /// `ok`, `crash`, `hang`, `missing_phase`, `garbage`, `setsid` (leaves a
    /// `sleep 600` in a session of its own, then works as `ok`).
    pub behaviour: Option<String>,
    /// The phase left out in `missing_phase`.
    pub missing_phase: Option<String>,
    /// Report this fingerprint ...
    pub fingerprint: Option<String>,
    /// ... or the one a checkout at this root would give for the features.
    pub fingerprint_root: Option<PathBuf>,
    /// Really sleep each phase's duration.
    pub sleep: bool,
    /// Mix the clock into the seed: independent noise in every process.
    pub fresh_noise: bool,
    /// Factor on every phase of a process's first iteration (a cold start).
    pub cold_factor: Option<f64>,
    /// Append this process's pid to this file (tests find the runners they must see ended).
    pub pid_file: Option<PathBuf>,
    /// Append this process's command line (one line, arguments space-separated) to this file.
    pub args_file: Option<PathBuf>,
    /// The backends it says it runs (default: `cpu`); e.g. `["supraseal"]` to stand for an anchor.
    pub backends: Option<Vec<Backend>>,
    /// The features it was "built with", instead of the ones the harness expects (a prebuilt runner).
    pub features: Option<Vec<String>>,
    /// Say it makes no parameter files (as an anchor).
    pub no_params: bool,
}

impl MockSpec {
    /// `behaviour`, `ok` when unset.
    pub fn behaviour(&self) -> &str {
        self.behaviour.as_deref().unwrap_or("ok")
    }

    /// The backends it runs, the first being its default.
    pub fn backends(&self) -> Vec<Backend> {
        self.backends.clone().unwrap_or_else(|| vec![Backend::Cpu])
    }
}

/// One invocation's work: a `synth`, `prove` or `setup` of a case.
#[derive(Clone, Debug)]
pub struct MockCase {
    pub mode: Mode,
    pub backend: Backend,
    pub circuit: String,
    pub partitions: usize,
    pub warmup: usize,
    pub reps: usize,
    /// Witness seed (or any per-invocation salt).
    pub seed: u64,
    /// `--inject-delay`: phase -> ms added.
    pub delays: BTreeMap<String, f64>,
}

/// One record to write, and how long the mock pretends it took (slept with `sleep`).
pub struct MockRecord {
    pub json: Value,
    pub phases_ms: f64,
}

/// SplitMix64: a small seeded generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn normal(&mut self) -> f64 {
        let (u, v) = (self.next().max(1e-12), self.next());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// A phase the mock records: name, parent, median ms at `tiny`.
type PhaseDef = (&'static str, Option<&'static str>, f64);

/// The phases a runner of `backend` records in `mode`, with their median ms
/// at `tiny`: what the protocol requires (`phaseline_record::required`),
/// nested as ours nests them.
pub fn default_phases(mode: Mode, backend: Backend, feats: &[String]) -> Vec<PhaseDef> {
    match mode {
        Mode::Synth => return vec![(SYNTHESIS, None, 50.0)],
        Mode::Setup if backend == Backend::Bellperson => {
            return vec![(BELLPERSON_GENERATE, None, 400.0), (WRITE, None, 15.0)]
        }
        Mode::Setup => {
            let mut v = vec![
                (RECORD_SHAPE, None, 20.0),
                (QAP_EVAL, None, 10.0),
                (FIXED_BASE_G1, None, 60.0),
            ];
            if backend == Backend::Cuda {
                v.push((FB_MUL, Some(FIXED_BASE_G1), 30.0));
            }
            v.extend([(FIXED_BASE_G2, None, 20.0), (NORMALIZE, None, 2.0), (WRITE, None, 15.0)]);
            return v;
        }
        Mode::Prove => {}
    }
    let mut v = vec![(SYNTHESIS, None, 50.0)];
    match backend {
        Backend::Supraseal => v.push((SUPRASEAL_PROVE, None, 120.0)),
        Backend::Bellperson => v = vec![(BELLPERSON_PROVE, None, 250.0)],
        Backend::Cpu | Backend::Cuda => {
            let cuda = backend == Backend::Cuda;
            if cuda {
                v.push((MSM_PREP, None, 6.0));
                if feats.iter().any(|f| f == "pin") {
                    v.push((PIN, None, 4.0));
                }
                v.push((H2D, None, 3.0));
            }
            v.extend([
                (NTT_H, None, 24.0),
                (INTT, Some(NTT_H), 8.0),
                (COSET_NTT, Some(NTT_H), 8.0),
                (COSET_INTT, Some(NTT_H), 8.0),
                (MSM_H, None, 30.0),
                (MSM_L, None, 40.0),
            ]);
            if cuda {
                v.extend([(BATCH_ADD, Some(MSM_L), 25.0), (TAIL_MSM, Some(MSM_L), 10.0)]);
            }
            v.extend([(MSM_A, None, 35.0), (MSM_B_G1, None, 15.0), (MSM_B_G2, None, 45.0)]);
            if cuda {
                v.push((B_G2, Some(MSM_B_G2), 40.0));
            }
            v.push((ASSEMBLE, None, 2.0));
        }
    }
    v.push((VERIFY, None, 10.0));
    v
}

/// As the prover: a preset (with an optional `-mixN`) or a real circuit; anything else is refused.
pub fn scale(circuit: &str) -> Result<f64, String> {
    let preset = circuit.split("-mix").next().unwrap_or(circuit);
    match preset {
        "tiny" => Ok(1.0),
        "small" => Ok(10.0),
        "medium" | "large" | "xl" | "xxl" | "sha-32g" | "porep-32g" => Ok(100.0),
        _ if circuit.starts_with("porep-real:") => Ok(100.0),
        _ => Err(format!("unknown circuit preset `{circuit}`")),
    }
}

/// A seed from features (so variants differ) and text (a setup's output path).
pub fn salt(parts: impl IntoIterator<Item = impl AsRef<str>>) -> u64 {
    parts
        .into_iter()
        .flat_map(|f| f.as_ref().bytes().collect::<Vec<_>>())
        .fold(7, |a, b| a.wrapping_mul(31).wrapping_add(b as u64))
}

/// The records of `case` (warm-ups first) by a runner with `feats` and
/// `fingerprint`; `fresh` is mixed into the seed (0 for reproducible noise).
pub fn records(
    s: &MockSpec,
    case: &MockCase,
    feats: &[String],
    fingerprint: &str,
    fresh: u64,
) -> Result<Vec<MockRecord>, String> {
    let scale = scale(&case.circuit)?;
    let behaviour = s.behaviour();
    let mut rng = Rng(s.seed ^ case.seed.wrapping_mul(0x1000_0000_01B3) ^ salt(feats) ^ fresh);
    let noise = s.noise.unwrap_or(0.01);
    let mut out = Vec::new();
    for rep in 0..case.warmup + case.reps {
        let mut phases = Vec::new();
        let (mut t, mut prev_start, mut slept, mut total_cpu) = (0.0, 0.0, 0.0, 0.0);
        for (name, parent, base) in default_phases(case.mode, case.backend, feats) {
            if behaviour == "missing_phase" && s.missing_phase.as_deref().unwrap_or(SYNTHESIS) == name {
                continue;
            }
            let mut ms = s.phases.get(name).copied().unwrap_or(base) * scale * case.partitions as f64;
            for f in feats {
                ms *= s.effects.get(f).and_then(|e| e.get(name)).copied().unwrap_or(1.0);
            }
            if rep == 0 {
                ms *= s.cold_factor.unwrap_or(1.0);
            }
            ms = (ms * (1.0 + noise * rng.normal())).max(0.0) + case.delays.get(name).copied().unwrap_or(0.0);
            let cpu_ms = ms;
            if let Some(w) = s.wall_noise {
                ms *= 1.0 + (w * rng.normal()).abs();
            }
            if parent.is_none() {
                total_cpu += cpu_ms;
            }
            slept += ms;
            let beside = parent.is_none() && feats.iter().any(|f| s.concurrent.get(f).is_some_and(|p| p == name));
            let (start, lane) = match (parent, beside) {
                (Some(_), _) => (t - ms, "main"),
                (None, true) => (prev_start, "side"),
                (None, false) => (t, "main"),
            };
            phases.push(Phase {
                name: name.into(),
                parent: parent.map(String::from),
                start_ms: start,
                ms,
                thread: lane.into(),
                extra: [(CPU_MS.to_string(), json!(cpu_ms))].into_iter().collect(),
            });
            if parent.is_none() {
                prev_start = start;
                t = f64::max(t, start + ms);
            }
        }
        let json = if behaviour == "garbage" {
            json!({"schema_version": 1, "mode": case.mode})
        } else {
            let mut head = RecordHead::new(
                case.mode,
                case.backend,
                feats.to_vec(),
                fingerprint.into(),
                "mock".into(),
            );
            head.rep = rep;
            head.warmup = rep < case.warmup;
            head.circuit = CircuitInfo {
                name: case.circuit.clone(),
                partitions: case.partitions,
                constraints: 1000,
                ..Default::default()
            };
            head.phases = phases;
            head.set_totals(t + 0.5);
            head.verified = (case.mode == Mode::Prove).then_some(true);
            let mut rec = serde_json::to_value(&head).map_err(|e| e.to_string())?;
            let own = json!({
                "allocations": 1000, "reallocations": 10, "allocated_bytes": 4096, "peak_rss_bytes": 1 << 20,
                TOTAL_CPU_MS: total_cpu + 0.5,
                "injected_delays": case.delays, "mock": s,
            });
            if let (Some(r), Value::Object(o)) = (rec.as_object_mut(), own) {
                r.extend(o);
            }
            rec
        };
        out.push(MockRecord { json, phases_ms: slept });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use phaseline_record::{required, Requires};

    fn case(mode: Mode, backend: Backend) -> MockCase {
        MockCase {
            mode,
            backend,
            circuit: "small".into(),
            partitions: 1,
            warmup: 1,
            reps: 2,
            seed: 3,
            delays: BTreeMap::new(),
        }
    }

    #[test]
    fn every_mode_and_backend_records_what_the_protocol_requires() {
        let feats = vec!["pin".to_string()];
        for m in Mode::ALL {
            for b in Backend::ALL {
                let recs = records(&MockSpec::default(), &case(*m, *b), &feats, "fp", 0).unwrap();
                assert_eq!(recs.len(), 3);
                assert!(recs[0].json["warmup"].as_bool().unwrap() && !recs[1].json["warmup"].as_bool().unwrap());
                let head: RecordHead = serde_json::from_value(recs[2].json.clone()).unwrap();
                assert_eq!(head.missing_phase(), None, "{m}/{b}");
                let need = required(*m, *b, Requires::of(head.verified.is_some(), &feats));
                assert!(need.iter().all(|p| head.phases.iter().any(|x| x.name == *p)), "{m}/{b}");
                assert_eq!(head.verified.is_some(), *m == Mode::Prove);
                assert!(recs[2].phases_ms > 0.0);
            }
        }
    }

    #[test]
    fn effects_scale_and_refusals() {
        let mut s = MockSpec {
            noise: Some(0.0),
            ..Default::default()
        };
        s.effects
            .insert("x".into(), BTreeMap::from([(FIXED_BASE_G1.to_string(), 0.5)]));
        let c = case(Mode::Setup, Backend::Cpu);
        let g1 = |f: &[String]| {
            let r = records(&s, &c, f, "fp", 0).unwrap();
            let head: RecordHead = serde_json::from_value(r[1].json.clone()).unwrap();
            head.phases.iter().find(|p| p.name == FIXED_BASE_G1).unwrap().ms
        };
        assert_eq!(g1(&[]), 600.0, "60 ms at tiny, ten times that at small");
        assert_eq!(g1(&["x".into()]), 300.0);
        let bad = MockCase {
            circuit: "huge".into(),
            ..c
        };
        assert_eq!(
            records(&s, &bad, &[], "fp", 0).err().unwrap(),
            "unknown circuit preset `huge`"
        );
    }
}
