//! Test runs with chosen timings: the shape of a real `e2e` record (nested NTT
//! phases, a B_G2 MSM on a second thread, memory points), seeded noise.

use crate::model::*;
use std::collections::BTreeMap;

/// (phase, parent, ms, thread); starts follow one another per thread.
const PHASES: &[(&str, Option<&str>, f64, &str)] = &[
    ("synthesis", None, 400.0, "main"),
    ("ntt_h", None, 120.0, "main"),
    ("intt", Some("ntt_h"), 40.0, "main"),
    ("coset_ntt", Some("ntt_h"), 40.0, "main"),
    ("coset_intt", Some("ntt_h"), 35.0, "main"),
    ("msm_h", None, 90.0, "main"),
    ("msm_l", None, 80.0, "main"),
    ("msm_a", None, 70.0, "main"),
    ("msm_b_g1", None, 30.0, "main"),
    ("msm_b_g2", None, 150.0, "bg2-worker"),
    ("assemble", None, 5.0, "main"),
];

pub fn case() -> Case {
    Case {
        suite: "e2e".into(),
        circuit: "tiny".into(),
        partitions: 1,
        backend: crate::model::Backend::Cpu,
        clock: Default::default(),
    }
}

/// Tiny deterministic noise in [-1, 1).
fn noise(seed: &mut u64) -> f64 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}

/// One sample; `scale` multiplies the phase `slow` (e.g. 1.1 = 10% slower).
pub fn sample(variant: &str, rep: usize, slow: Option<(&str, f64)>, seed: &mut u64) -> Sample {
    let mut spans = Vec::new();
    let mut phases: BTreeMap<String, f64> = BTreeMap::new();
    let mut t_main = 0.0;
    let mut t_nested = 0.0;
    for (name, parent, ms, thread) in PHASES {
        let factor = match slow {
            Some((p, f)) if p == *name => f,
            _ => 1.0,
        };
        let ms = ms * factor * (1.0 + 0.02 * noise(seed));
        let start = match (parent, *thread) {
            (Some(_), _) => t_nested,
            (None, "main") => t_main,
            (None, _) => 400.0,
        };
        if parent.is_some() {
            t_nested += ms;
        } else if *thread == "main" {
            if *name == "ntt_h" {
                t_nested = start;
            }
            t_main = start + ms;
        }
        spans.push(Span {
            name: name.to_string(),
            parent: parent.map(String::from),
            start_ms: start,
            ms,
            thread: thread.to_string(),
        });
        *phases.entry(name.to_string()).or_default() += ms;
    }
    let total = t_main + 2.0;
    phases.insert(TOTAL.into(), total);
    let memory = (0..20)
        .map(|i| MemPoint {
            t_ms: i as f64 * total / 19.0,
            rss_bytes: 50_000_000 + i * 8_000_000,
            sys_used_bytes: 4_000_000_000 + i * 9_000_000,
            ..Default::default()
        })
        .collect();
    Sample {
        variant: variant.into(),
        case: case(),
        rep,
        order: rep,
        warmup: false,
        ok: true,
        error: None,
        wall_ms: total + 30.0,
        phases,
        spans,
        counters: BTreeMap::new(),
        verified: Some(true),
        fingerprint: "fp0".into(),
        memory,
        mock: false,
        params: None,
    }
}

/// A run of `variants` (name, optional slowed phase and factor), `reps` each.
pub fn run(id: &str, variants: &[(&str, Option<(&str, f64)>)], reps: usize, seed: u64) -> Run {
    let mut seed = seed;
    let mut samples = Vec::new();
    for rep in 0..reps {
        for (v, slow) in variants {
            samples.push(sample(v, rep, *slow, &mut seed));
        }
    }
    Run {
        schema_version: RUN_SCHEMA_VERSION,
        id: id.into(),
        testbed: Testbed {
            key: "test-cpu-2c-nogpu".into(),
            cpu_model: "Test CPU".into(),
            cpu_cores: 2,
            gpu_model: None,
            gpu_driver: None,
            cpus_allowed: None,
        },
        provenance: Provenance {
            git_commit: "0123abcd".into(),
            started_utc: format!("2026-12-0{}T00:00:00Z", 1 + seed % 9),
            ..Default::default()
        },
        variants: variants
            .iter()
            .map(|(v, _)| BuiltVariant {
                variant: Variant::new(*v, Vec::<String>::new()),
                fingerprint: format!("fp-{v}"),
                binary: String::new(),
                cached: false,
            })
            .collect(),
        cases: vec![case()],
        samples,
        incomplete: None,
    }
}

/// The usual pair: `baseline` and `A1` with synthesis 10% slower.
pub fn pair(reps: usize) -> Run {
    run(
        "run-1",
        &[("baseline", None), ("A1", Some(("synthesis", 1.1)))],
        reps,
        7,
    )
}
