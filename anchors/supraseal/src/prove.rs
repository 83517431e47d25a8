//! The `prove` mode: repetitions of one workload (a preset, or a real PoRep
//! C1 output), each a batch of proofs made by bellperson's supraseal prover,
//! verified with bellperson's verifier (a real seal also by filecoin-proofs'
//! own verification, phase `verify_filecoin`), and written as one record.

use crate::boundary;
use crate::error::AnchorError;
use crate::params::{self, Sizes};
use crate::record::{CircuitInfo, Phase, Record, RecordHead};
use crate::shape::Shape;
use crate::workload::{Batch, Workload};
use bellperson::groth16::{self, PreparedVerifyingKey, Proof, SuprasealParameters, VerifyingKey};
use blstrs::{Bls12, Scalar as Fr};
use ff::Field;
use phaseline_circuits::cs::bridge::AsBellpepper;
use phaseline_record::{Backend, Mode};
use std::path::PathBuf;
use std::time::Instant;

/// The backend this runner proves on.
pub const BACKEND: Backend = Backend::Supraseal;

/// Options of one run.
#[derive(Clone, Debug)]
pub struct Opts {
    pub circuit: String,
    pub partitions: usize,
    pub reps: usize,
    pub warmup: usize,
    pub seed: u64,
    pub params_file: Option<PathBuf>,
    pub params_dir: Option<PathBuf>,
    pub verify: bool,
}

fn circuit_info(w: &Workload, shape_id: String, s: &Shape) -> CircuitInfo {
    let (a, b, bi) = s.densities();
    CircuitInfo {
        name: w.name().into(),
        shape_id,
        constraints: s.rows(),
        aux: s.aux,
        inputs: s.inputs,
        partitions: w.partitions(),
        domain_log2: s.domain_log2(),
        aux_zero: s.aux_zero,
        aux_one: s.aux_one,
        aux_other: s.aux - s.aux_zero - s.aux_one,
        a_aux_density: a,
        b_aux_density: b,
        b_input_density: bi,
    }
}

fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

/// Runs `f`, turning a panic (supraseal-c2 panics on a CUDA error) into an error without printing it.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    out.map_err(panic_text)
}

fn thread_name() -> String {
    std::thread::current().name().unwrap_or("unnamed").to_string()
}

fn span(name: &str, origin: Instant, start: Instant, end: Instant) -> Phase {
    Phase {
        name: name.into(),
        parent: None,
        start_ms: start.saturating_duration_since(origin).as_secs_f64() * 1e3,
        ms: end.saturating_duration_since(start).as_secs_f64() * 1e3,
        thread: thread_name(),
        extra: Default::default(),
    }
}

/// Verifies each proof with bellperson's verifier; an invalid proof is an error.
fn verify(pvk: &PreparedVerifyingKey<Bls12>, proofs: &[Proof<Bls12>], inputs: &[Vec<Fr>]) -> Result<(), AnchorError> {
    if proofs.len() != inputs.len() {
        return Err(AnchorError::Verify(format!(
            "{} proofs for {} circuits",
            proofs.len(),
            inputs.len()
        )));
    }
    for (i, (p, x)) in proofs.iter().zip(inputs).enumerate() {
        match groth16::verify_proof(pvk, p, x) {
            Ok(true) => {}
            Ok(false) => return Err(AnchorError::Verify(format!("proof {i} of the batch does not verify"))),
            Err(e) => return Err(AnchorError::Verify(format!("proof {i}: {e}"))),
        }
    }
    Ok(())
}

/// What stays fixed over the repetitions of a run.
struct Fixed {
    work: Workload,
    info: CircuitInfo,
    srs: SuprasealParameters<Bls12>,
    vk: VerifyingKey<Bls12>,
    pvk: PreparedVerifyingKey<Bls12>,
    srs_load_ms: f64,
}

fn prepare(o: &Opts) -> Result<Fixed, AnchorError> {
    if o.partitions == 0 || o.reps == 0 {
        return Err(AnchorError::InvalidArgument(
            "--partitions and --reps must be at least 1".into(),
        ));
    }
    boundary::install().map_err(AnchorError::InvalidArgument)?;
    let dir = params::params_dir(o.params_dir.as_deref());
    let work = Workload::new(&o.circuit, o.partitions, o.seed, &dir)?;
    let (shape_id, shape) = work.first_shape()?;
    let path = params::locate(o.params_file.as_deref(), o.params_dir.as_deref(), &shape_id);
    let (vk, sizes): (_, Sizes) = params::read_header(&path)?;
    params::check(&path, &sizes, &shape.expected_sizes())?;
    let t = Instant::now();
    let srs = SuprasealParameters::<Bls12>::new(path.clone()).map_err(|e| {
        let reason = e.to_string();
        if reason.contains("No CUDA devices") {
            AnchorError::NoGpu(reason)
        } else {
            AnchorError::SrsLoad {
                path: path.clone(),
                reason,
            }
        }
    })?;
    Ok(Fixed {
        info: circuit_info(&work, shape_id, &shape),
        work,
        srs,
        pvk: groth16::prepare_verifying_key(&vk),
        vk,
        srs_load_ms: t.elapsed().as_secs_f64() * 1e3,
    })
}

/// One batch through bellperson's supraseal prover: the proofs, the start,
/// the hand-over from synthesis to supraseal-c2, and the end.
fn prove_batch<C>(
    circuits: Vec<C>,
    srs: &SuprasealParameters<Bls12>,
    rng: &mut impl rand_core::RngCore,
) -> Result<(Vec<Proof<Bls12>>, [Instant; 3]), AnchorError>
where
    C: bellpepper_core::Circuit<Fr> + Send,
{
    let r: Vec<Fr> = circuits.iter().map(|_| Fr::random(&mut *rng)).collect();
    let s: Vec<Fr> = circuits.iter().map(|_| Fr::random(&mut *rng)).collect();
    let _ = boundary::take();
    let t0 = Instant::now();
    let proofs = guarded(|| groth16::create_proof_batch(circuits, srs, r, s))
        .map_err(AnchorError::Prove)?
        .map_err(|e| AnchorError::Prove(e.to_string()))?;
    let t1 = Instant::now();
    let handover = boundary::take()
        .filter(|h| *h >= t0 && *h <= t1)
        .ok_or_else(|| AnchorError::MissingPhase("synthesis (bellperson reported no hand-over)".into()))?;
    Ok((proofs, [t0, handover, t1]))
}

/// Proves `warmup + reps` batches, handing each record to `sink` as soon as it is made.
pub fn run(o: &Opts, sink: &mut dyn FnMut(Record) -> Result<(), AnchorError>) -> Result<(), AnchorError> {
    let fx = prepare(o)?;
    let mut rng = <rand_chacha::ChaCha20Rng as rand_core::SeedableRng>::from_entropy();
    for rep in 0..o.warmup + o.reps {
        let batch = fx.work.batch(rep)?;
        let inputs = batch.inputs();
        let (proofs, [t0, handover, t1]) = match batch {
            Batch::Preset(cs) => prove_batch(cs.iter().map(AsBellpepper).collect(), &fx.srs, &mut rng)?,
            Batch::Real(cs, _) => prove_batch(cs, &fx.srs, &mut rng)?,
        };
        let mut phases = vec![
            span("synthesis", t0, t0, handover),
            span("supraseal_prove", t0, handover, t1),
        ];
        let verified = if o.verify {
            verify(&fx.pvk, &proofs, &inputs)?;
            let t2 = Instant::now();
            phases.push(span("verify", t0, t1, t2));
            if let Some(c1) = fx.work.c1() {
                phaseline_real::verify::verify_seal_proofs(c1, &fx.vk, &proofs)?;
                phases.push(span("verify_filecoin", t0, t2, Instant::now()));
            }
            Some(true)
        } else {
            None
        };
        let mut head = RecordHead::new(
            Mode::Prove,
            Backend::Supraseal,
            vec![],
            env!("ANCHOR_FINGERPRINT").into(),
            env!("ANCHOR_GIT_COMMIT").into(),
        );
        head.rep = rep;
        head.warmup = rep < o.warmup;
        head.circuit = fx.info.clone();
        head.phases = phases;
        head.verified = verified;
        head.set_totals(t0.elapsed().as_secs_f64() * 1e3);
        if let Some(p) = head.missing_phase() {
            return Err(AnchorError::MissingPhase(p.into()));
        }
        let rec = Record {
            head,
            allocations: 0,
            reallocations: 0,
            allocated_bytes: 0,
            peak_rss_bytes: crate::rss::peak_rss_bytes().unwrap_or(0),
            cold: rep == 0,
            srs_load_ms: fx.srs_load_ms,
        };
        sink(rec)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circuit_facts_match_the_runners_for_the_same_witness() {
        // The fixture is a runner record of `tiny`, seed 1, repetition 0.
        let runner: serde_json::Value =
            serde_json::from_str(include_str!("../tests/fixtures/runner-record.json")).unwrap();
        let o = Opts {
            circuit: "tiny".into(),
            partitions: 1,
            reps: 1,
            warmup: 0,
            seed: 1,
            params_file: None,
            params_dir: None,
            verify: true,
        };
        let w = Workload::new(&o.circuit, o.partitions, o.seed, std::path::Path::new("unused")).unwrap();
        let (id, shape) = w.first_shape().unwrap();
        let info = circuit_info(&w, id, &shape);
        let ours = serde_json::to_value(&info).unwrap();
        assert_eq!(ours, runner["circuit"]);
    }
}
