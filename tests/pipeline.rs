//! Partitions pipelined (`--pipeline on`, `--mem-budget`): proofs of several
//! partitions verify, as on the batch path for the same circuits; the bound
//! on partitions in flight holds (counted, never timed); a budget below one
//! partition and malformed budgets are refused, through the binary too.

use blstrs::Scalar as Fr;
use ff::Field;
use phaseline_prover::circuits::presets::rep_circuits;
use phaseline_prover::groth16::verify::verify_all;
use phaseline_prover::mem_budget::MemBudget;
use phaseline_prover::phases::Recorder;
use phaseline_prover::pipeline::{self, Depth};
use phaseline_prover::prove::prover::EngineChoice;
use phaseline_prover::record::{Backend, Record};
use phaseline_prover::run::{params_for, run_prove, RunOpts, SynthPath};
use phaseline_prover::synth::synthesize;
use phaseline_prover::ProverError;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn opts(dir: &Path, circuit: &str, partitions: usize, pipeline: Option<Depth>) -> RunOpts {
    RunOpts {
        partitions,
        seed: 7,
        pipeline,
        ..RunOpts::new(circuit, Backend::Cpu, dir)
    }
}

fn prove(o: &RunOpts) -> Result<Vec<Record>, ProverError> {
    let mut recs = Vec::new();
    run_prove(o, &mut |r| {
        recs.push(r);
        Ok(())
    })?;
    Ok(recs)
}

/// The first partition's heap bytes as the pipeline measures them.
fn one_partition_bytes(circuit: &str) -> u64 {
    let c = &rep_circuits(circuit, 1, 7, 0).unwrap()[0];
    synthesize(c, None).unwrap().heap_bytes()
}

/// The partitions each span named `name` belongs to, in record order.
fn partitions_of(r: &Record, name: &str) -> Vec<u64> {
    let mut v: Vec<u64> = r
        .phases
        .iter()
        .filter(|p| p.name == name)
        .map(|p| {
            p.extra
                .get("partition")
                .and_then(|x| x.as_u64())
                .expect("partition tag")
        })
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn pipelined_proofs_of_four_partitions_verify_with_per_partition_spans() {
    let dir = tempfile::tempdir().unwrap();
    let recs = prove(&opts(dir.path(), "tiny", 4, Some(Depth::Fixed(2)))).unwrap();
    let r = &recs[0];
    assert_eq!(r.verified, Some(true), "every proof checked by our verifier");
    r.check_phases().unwrap();
    assert_eq!(r.circuit.partitions, 4);
    for name in [
        "synthesis",
        "msm_h",
        "msm_l",
        "msm_a",
        "msm_b_g1",
        "msm_b_g2",
        "assemble",
    ] {
        assert_eq!(partitions_of(r, name), [0, 1, 2, 3], "{name}: one span per partition");
    }
    // Partition 0 is made before the producer starts; the rest on its threads.
    let producer: Vec<u64> = r
        .phases
        .iter()
        .filter(|p| p.name == "synthesis" && p.thread.starts_with("pipeline-synth-"))
        .map(|p| p.extra["partition"].as_u64().unwrap())
        .collect();
    assert_eq!(producer.len(), 3, "{producer:?}");
    let f = r.pipeline;
    assert_eq!(f.pipeline_depth, Some(2));
    assert!(matches!(f.pipeline_max_in_flight, Some(1..=2)), "{f:?}");
    assert_eq!(f.partition_bytes, Some(one_partition_bytes("tiny")));
    assert_eq!(f.mem_budget_bytes, None);
    // The facts are top-level numbers of the JSON line, as the harness reads counters.
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["pipeline_depth"], 2);
    assert!(json["partition_bytes"].as_u64().unwrap() > 0);
    let back: Record = serde_json::from_value(json).unwrap();
    assert_eq!(back.pipeline, f);
    // A missing expected phase is still an error.
    let mut bad = r.clone();
    bad.phases.retain(|p| p.name != "msm_a");
    assert!(matches!(bad.check_phases(), Err(ProverError::MissingPhase(p)) if p == "msm_a"));
}

#[test]
fn pipelined_and_batch_paths_prove_the_same_circuits() {
    let dir = tempfile::tempdir().unwrap();
    let batch = prove(&opts(dir.path(), "tiny", 3, None)).unwrap();
    let piped = prove(&opts(dir.path(), "tiny", 3, Some(Depth::Fixed(2)))).unwrap();
    let (b, p) = (&batch[0], &piped[0]);
    assert_eq!((b.verified, p.verified), (Some(true), Some(true)));
    assert_eq!(b.circuit, p.circuit, "same circuits, same facts");
    assert_eq!(b.pipeline, Default::default(), "the batch path records no pipeline");
    assert_eq!(b.phases.iter().filter(|x| x.name == "synthesis").count(), 1);
    assert_eq!(p.phases.iter().filter(|x| x.name == "synthesis").count(), 3);
}

/// The pipeline over real synthesis and the CPU driver, a live counter of
/// synthesized partitions checked on both sides; every proof verified.
#[test]
fn partitions_in_flight_never_exceed_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let o = opts(dir.path(), "tiny", 4, None);
    let (params, _) = params_for(&o).unwrap();
    let cs = rep_circuits("tiny", 4, 7, 0).unwrap();
    let bytes = one_partition_bytes("tiny");
    for (budget, depth) in [(bytes, 1), (2 * bytes + 1, 2), (3 * bytes, 3), (100 * bytes, 4)] {
        let live = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let rec = Recorder::new();
        let mut inputs = Vec::new();
        let mut rng = <rand_chacha::ChaCha20Rng as rand_core::SeedableRng>::seed_from_u64(3);
        let (proofs, stats) = pipeline::run(
            cs.len(),
            Depth::Budget(MemBudget(budget)),
            |s: &phaseline_prover::synth::Synthesized| s.heap_bytes(),
            |k| {
                let s = SynthPath::Engine.synthesize_one(&cs[k], &rec)?;
                let now = live.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                Ok(s)
            },
            |_, s| {
                let rs = [(Fr::random(&mut rng), Fr::random(&mut rng))];
                let p = EngineChoice::Cpu.prove(&params, std::slice::from_ref(&s), &rs, &rec)?;
                inputs.push(s.inputs[1..].to_vec());
                drop(s);
                live.fetch_sub(1, Ordering::SeqCst);
                Ok(p.into_iter().next().unwrap())
            },
        )
        .unwrap();
        verify_all(&params.vk, &proofs, &inputs).unwrap();
        assert_eq!(proofs.len(), 4);
        assert_eq!((stats.depth, stats.partition_bytes), (depth, bytes), "budget {budget}");
        assert!(most.load(Ordering::SeqCst) <= depth, "budget {budget}: {stats:?}");
        assert!(stats.max_in_flight <= depth, "budget {budget}: {stats:?}");
    }
}

#[test]
fn a_budget_below_one_partition_is_refused_with_both_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = one_partition_bytes("tiny");
    let o = opts(dir.path(), "tiny", 3, Some(Depth::Budget(MemBudget(bytes - 1))));
    match prove(&o) {
        Err(ProverError::OverBudget { budget, partition }) => assert_eq!((budget, partition), (bytes - 1, bytes)),
        other => panic!("{other:?}"),
    }
    // Exactly one partition fits: pipelined one at a time, proofs verified.
    let o = opts(dir.path(), "tiny", 3, Some(Depth::Budget(MemBudget(bytes))));
    let r = &prove(&o).unwrap()[0];
    assert_eq!(r.verified, Some(true));
    assert_eq!(
        (
            r.pipeline.pipeline_depth,
            r.pipeline.pipeline_max_in_flight,
            r.pipeline.mem_budget_bytes
        ),
        (Some(1), Some(1), Some(bytes))
    );
}

fn runner(dir: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_phaseline-prover"))
        .args([
            "prove",
            "--circuit",
            "tiny",
            "--partitions",
            "3",
            "--seed",
            "7",
            "--params-dir",
        ])
        .arg(dir)
        .args(["--json"])
        .arg(dir.join("out.jsonl"))
        .args(extra)
        .output()
        .expect("runner starts")
}

#[test]
fn the_runner_refuses_bad_budgets_and_proves_within_good_ones() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = one_partition_bytes("tiny");
    let small = (bytes - 1).to_string();
    let out = runner(dir.path(), &["--mem-budget", &small]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("memory budget of {small} bytes")) && err.contains(&format!("({bytes} bytes measured)")),
        "{err}"
    );
    for bad in ["", "abc", "0", "0MiB", "-5", "1.5GiB", "12XB", "99999999999999999999"] {
        let out = runner(dir.path(), &["--mem-budget", bad]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{bad:?}: {err}");
        assert!(
            err.contains("--mem-budget") && !err.contains("panicked"),
            "{bad:?}: {err}"
        );
    }
    for conflict in [
        &["--pipeline", "off", "--mem-budget", "1GiB"][..],
        &["--backend", "bellperson", "--pipeline", "on"][..],
    ] {
        let out = runner(dir.path(), conflict);
        assert_eq!(out.status.code(), Some(1), "{conflict:?}");
    }
    let out = runner(dir.path(), &["--mem-budget", "1GiB"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = std::fs::read_to_string(dir.path().join("out.jsonl")).unwrap();
    let r: Record = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    assert_eq!(r.verified, Some(true));
    assert_eq!(r.pipeline.mem_budget_bytes, Some(1 << 30));
    assert_eq!(
        r.pipeline.pipeline_depth,
        Some(3),
        "1 GiB holds all three tiny partitions"
    );
}

/// The shape path (`shape-synth`'s) through the pipeline: the same
/// synthesized partitions as the engine's, `witness` and `abc_matvec` under
/// each partition's `synthesis`, every proof verified.
#[test]
fn the_shape_path_pipelines_too() {
    let dir = tempfile::tempdir().unwrap();
    let o = opts(dir.path(), "tiny", 3, None);
    let (params, _) = params_for(&o).unwrap();
    let cs = rep_circuits("tiny", 3, 7, 0).unwrap();
    let shape = SynthPath::from_cache(dir.path(), &cs[0]).unwrap();
    let parts: Vec<Recorder> = (0..3).map(|_| Recorder::new()).collect();
    let mut inputs = Vec::new();
    let mut rng = <rand_chacha::ChaCha20Rng as rand_core::SeedableRng>::seed_from_u64(5);
    let (proofs, stats) = pipeline::run(
        cs.len(),
        Depth::Fixed(2),
        |s: &phaseline_prover::synth::Synthesized| s.heap_bytes(),
        |k| shape.synthesize_one(&cs[k], &parts[k]),
        |k, s| {
            assert_eq!(s, synthesize(&cs[k], None).unwrap(), "partition {k}");
            let rs = [(Fr::random(&mut rng), Fr::random(&mut rng))];
            let p = EngineChoice::Cpu.prove(&params, std::slice::from_ref(&s), &rs, &parts[k])?;
            inputs.push(s.inputs[1..].to_vec());
            Ok(p.into_iter().next().unwrap())
        },
    )
    .unwrap();
    verify_all(&params.vk, &proofs, &inputs).unwrap();
    assert_eq!(stats.depth, 2);
    for rec in parts {
        let ph = rec.into_phases();
        for sub in ["witness", "abc_matvec"] {
            assert!(
                ph.iter()
                    .any(|p| p.name == sub && p.parent.as_deref() == Some("synthesis")),
                "{sub}"
            );
        }
    }
}
