//! The runner's two modes, `synth` and `prove`: repetitions of one circuit
//! preset, each producing a [`Record`] with its phases.

use crate::alloc_count::AllocCounts;
use crate::circuits::presets::rep_circuits;
use crate::circuits::PorepCircuit;
use crate::cpu::ntt::Domain;
use crate::cs::Circuit;
use crate::error::ProverError;
use crate::groth16::cache::{cache_path, ParamsCache, ParamsFile, ParamsStore};
use crate::groth16::params::Expected;
use crate::groth16::{verify::verify_all, Params};
use crate::phases::Recorder;
use crate::pipeline::{self, Depth};
use crate::prove::prover::{EngineChoice, Prover};
use crate::record::{Backend, CircuitInfo, Mode, Record};
use crate::repetition::Repetition;
use crate::setup::fixed_base_choice::for_proving;
use crate::setup::runner::{generate_for_proving, shape_for, shape_path};
use crate::shape::Shape;
use crate::synth::{synthesize, witness, ShapeSynth, Synthesized, Witness};
use blstrs::Scalar as Fr;
use ff::Field;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Options shared by both modes.
#[derive(Clone, Debug)]
pub struct RunOpts {
    pub circuit: String,
    pub partitions: usize,
    pub reps: usize,
    pub warmup: usize,
    /// The prover (`--backend`).
    pub backend: Backend,
    pub params_dir: PathBuf,
    pub params_file: Option<PathBuf>,
    pub verify: bool,
    pub seed: u64,
    pub delays: BTreeMap<String, f64>,
    /// Test hook of the CUDA backend: one extra device allocation of this
    /// many bytes per proof batch (0: off), to check error propagation.
    pub inject_gpu_alloc: u64,
    /// How `prove` on our engines goes through the partitions: `None`, the
    /// batch path (every partition synthesized, then all proven as one
    /// batch); `Some(depth)`, pipelined ([`crate::pipeline`]), one partition
    /// proven while the next are synthesized, at most `depth` in flight.
    pub pipeline: Option<Depth>,
    /// Parameters this run has to make: written to the cache (the default)
    /// or kept in memory only (`--params-store memory`; no parameter or
    /// shape file is written).
    pub params_store: ParamsStore,
}

impl RunOpts {
    /// One measured repetition of one partition of `circuit` on `backend`
    /// with the parameters of `params_dir`, verified, seed 1, every other
    /// option off: set what differs with struct update syntax.
    pub fn new(circuit: &str, backend: Backend, params_dir: impl Into<PathBuf>) -> RunOpts {
        RunOpts {
            circuit: circuit.into(),
            partitions: 1,
            reps: 1,
            warmup: 0,
            backend,
            params_dir: params_dir.into(),
            params_file: None,
            verify: true,
            seed: 1,
            delays: BTreeMap::new(),
            inject_gpu_alloc: 0,
            pipeline: None,
            params_store: ParamsStore::Cache,
        }
    }
}

fn circuits(o: &RunOpts, rep: usize) -> Result<Vec<PorepCircuit>, ProverError> {
    if o.partitions == 0 {
        return Err(ProverError::InvalidArgument("--partitions must be at least 1".into()));
    }
    rep_circuits(&o.circuit, o.partitions, o.seed, rep).map_err(ProverError::UnknownPreset)
}

/// How a run synthesizes: our engine, or (feature `shape-synth`, E1) the
/// witness alone, then A, B, C from the recorded shape.
#[derive(Clone, Debug)]
pub enum SynthPath {
    Engine,
    Shape(Box<ShapeSynth>),
}

impl SynthPath {
    /// The path this build takes for a run of `o` on circuits of `c`'s shape:
    /// from the shape with `shape-synth`, except on bellperson's backend,
    /// whose prover synthesizes by itself (the feature is inert there).
    /// `made` is the shape this run's setup just made the parameters from,
    /// when it made them: used as it is instead of being read or recorded again.
    pub fn for_run<C: Circuit>(o: &RunOpts, c: &C, made: Option<Shape>) -> Result<SynthPath, ProverError> {
        if !(cfg!(feature = "shape-synth") && o.backend != Backend::Bellperson) {
            return Ok(SynthPath::Engine);
        }
        let shape = match made {
            Some(s) if s.shape_id == c.shape_id() => s,
            _ => shape_for(c, shape_dir(o, c), &Recorder::new())?,
        };
        Ok(SynthPath::Shape(Box::new(ShapeSynth::new(shape))))
    }

    /// The shape of `c` from the cache in `dir` that setup uses (recorded
    /// and cached there when missing), loaded once per run, outside the
    /// repetitions' records.
    pub fn from_cache<C: Circuit>(dir: &Path, c: &C) -> Result<SynthPath, ProverError> {
        let shape = shape_for(c, Some(dir), &Recorder::new())?;
        Ok(SynthPath::Shape(Box::new(ShapeSynth::new(shape))))
    }

    /// One circuit synthesized on this path, timed as its own `synthesis`
    /// span (on the shape path with sub-phases `witness` and `abc_matvec`).
    pub fn synthesize_one<C: Circuit>(&self, c: &C, rec: &Recorder) -> Result<Synthesized, ProverError> {
        rec.time("synthesis", || match self {
            SynthPath::Engine => engine_synth(c),
            SynthPath::Shape(shape) => {
                let w = rec.time_in("witness", Some("synthesis"), || witness_only(c))?;
                rec.time_in("abc_matvec", Some("synthesis"), || abc_from_shape(shape, c, w))
            }
        })
    }
}

/// One circuit through our synthesis engine.
fn engine_synth<C: Circuit>(c: &C) -> Result<Synthesized, ProverError> {
    synthesize(c, None).map_err(|e| ProverError::Synthesis(e.to_string()))
}

/// One circuit's witness alone (the shape path's first step).
fn witness_only<C: Circuit>(c: &C) -> Result<Witness, ProverError> {
    witness(c, None).map_err(|e| ProverError::Synthesis(e.to_string()))
}

/// A, B, C of one circuit from its witness and the recorded shape.
fn abc_from_shape<C: Circuit>(shape: &ShapeSynth, c: &C, w: Witness) -> Result<Synthesized, ProverError> {
    Ok(shape.synthesized(&c.shape_id(), w)?)
}

/// The `size_hint` phase: the hint is a property of the shape (counted once
/// per process, then cached), timed apart so `synthesis` measures synthesis alone.
fn size_hints<C: Circuit>(cs: &[C], rec: &Recorder) {
    rec.time("size_hint", || {
        for c in cs {
            let _ = c.size_hint();
        }
    });
}

/// Synthesizes every circuit on `path` as phase `synthesis` (after the
/// `size_hint` phase); on the shape path with sub-phases `witness` and
/// `abc_matvec`. Returns the allocations counted during `synthesis`.
pub fn synth_all<C: Circuit>(
    cs: &[C],
    rec: &Recorder,
    path: &SynthPath,
) -> Result<(Vec<Synthesized>, AllocCounts), ProverError> {
    size_hints(cs, rec);
    let before = AllocCounts::now();
    let out: Result<Vec<_>, ProverError> = rec.time("synthesis", || match path {
        SynthPath::Engine => cs.par_iter().map(engine_synth).collect(),
        SynthPath::Shape(shape) => {
            let ws = rec.time_in("witness", Some("synthesis"), || {
                cs.par_iter().map(witness_only).collect::<Result<Vec<_>, _>>()
            })?;
            rec.time_in("abc_matvec", Some("synthesis"), || {
                cs.iter().zip(ws).map(|(c, w)| abc_from_shape(shape, c, w)).collect()
            })
        }
    });
    let allocs = AllocCounts::now().since(before);
    Ok((out?, allocs))
}

pub(crate) fn circuit_info<C: Circuit>(o: &RunOpts, c: &C, s: &Synthesized) -> CircuitInfo {
    let (z, one, other) = s.aux_classes();
    let frac = |d: &[bool]| {
        if d.is_empty() {
            0.0
        } else {
            d.iter().filter(|x| **x).count() as f64 / d.len() as f64
        }
    };
    CircuitInfo {
        name: o.circuit.clone(),
        shape_id: c.shape_id(),
        constraints: s.num_constraints(),
        aux: s.aux.len(),
        inputs: s.inputs.len(),
        partitions: o.partitions,
        domain_log2: Domain::for_len(s.num_constraints()).map(|d| d.log2).unwrap_or(0),
        aux_zero: z,
        aux_one: one,
        aux_other: other,
        a_aux_density: frac(&s.a_aux_density),
        b_aux_density: frac(&s.b_aux_density),
        b_input_density: frac(&s.b_input_density[1..]),
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn record(
    o: &RunOpts,
    mode: Mode,
    rep: usize,
    warm: bool,
    info: CircuitInfo,
    rec: Recorder,
    total_ms: f64,
    a: AllocCounts,
) -> Record {
    let r = Repetition {
        mode,
        backend: o.backend,
        rep,
        warmup: warm,
        delays: &o.delays,
    };
    r.record(info, rec, total_ms, a)
}

/// The prover `o` names (`--backend`), when this build has it.
pub(crate) fn prover(o: &RunOpts) -> Result<Prover, ProverError> {
    Prover::named(o.backend, o.inject_gpu_alloc)
}

/// Synthesis only: `warmup + reps` repetitions, each handed to `sink`.
pub fn run_synth(o: &RunOpts, sink: &mut dyn FnMut(Record) -> Result<(), ProverError>) -> Result<(), ProverError> {
    let path = SynthPath::for_run(o, &circuits(o, 0)?[0], None)?;
    for rep in 0..o.warmup + o.reps {
        let cs = circuits(o, rep)?;
        let rec = Recorder::with_delays(o.delays.clone());
        let t = Instant::now();
        let (synths, allocs) = synth_all(&cs, &rec, &path)?;
        let total = t.elapsed().as_secs_f64() * 1e3;
        let info = circuit_info(o, &cs[0], &synths[0]);
        let r = record(o, Mode::Synth, rep, rep < o.warmup, info, rec, total, allocs);
        r.check_phases()?;
        sink(r)?;
    }
    Ok(())
}

/// Where the preset's cached parameters live.
pub fn params_path(o: &RunOpts) -> Result<std::path::PathBuf, ProverError> {
    let c = crate::circuits::presets::preset(&o.circuit, 1).map_err(ProverError::UnknownPreset)?;
    Ok(cache_path(&o.params_dir, &c.shape_id()))
}

/// Where a run reads and writes `c`'s recorded shape: the parameter
/// directory; a run keeping its parameters in memory, or given its parameter
/// file, reads a shape file that is there but writes none (`None`: recorded
/// in memory).
fn shape_dir<'a, C: Circuit>(o: &'a RunOpts, c: &C) -> Option<&'a Path> {
    let dir: &Path = &o.params_dir;
    match (o.params_store, &o.params_file) {
        (ParamsStore::Cache, None) => Some(dir),
        _ => Some(dir).filter(|d| shape_path(d, &c.shape_id()).exists()),
    }
}

/// Loads the parameters of `circuit` (sizes `expected`) from the run's
/// cache or parameter file, else makes them with our setup and caches them
/// (or keeps them in memory, as `o.params_store` says). Missing parameters
/// are made on the device that proves: the GPU's fixed-base engine for
/// `cuda`, the CPU's otherwise. The shape they were made from comes back
/// when they were made here.
pub(crate) fn load_or_setup<C: Circuit>(
    o: &RunOpts,
    circuit: &C,
    expected: &Expected,
) -> Result<(Params, ParamsFile, Option<Shape>), ProverError> {
    let cache = ParamsCache::new(&o.params_dir, o.params_file.as_deref());
    let mut made = None;
    let (params, file) = cache.load_or_generate(&circuit.shape_id(), expected, o.params_store, || {
        let (p, shape) = generate_for_proving(circuit, shape_dir(o, circuit), for_proving(o.backend))?;
        made = Some(shape);
        Ok(p)
    })?;
    Ok((params, file, made))
}

/// The sizes a parameter file of `shape` has, from the shape alone (no
/// synthesis): what [`Expected::of`] gives for a synthesized circuit of it.
pub fn expected_of_shape(shape: &Shape) -> Result<Expected, ProverError> {
    let d = Domain::for_len(shape.rows()).ok_or_else(|| ProverError::InvalidArgument("circuit too large".into()))?;
    let k = shape.densities().counts();
    Ok(Expected {
        inputs: shape.num_inputs,
        aux: shape.num_aux,
        h: d.n - 1,
        a: shape.num_inputs + k.a_aux,
        b: k.b_input + k.b_aux,
    })
}

/// Loads (or makes and caches) the parameters for the preset; with the file they came from.
pub fn params_for(o: &RunOpts) -> Result<(Params, ParamsFile), ProverError> {
    params_and_shape(o).map(|(p, f, _)| (p, f))
}

/// [`params_for`], with the shape of the circuit, which synthesis from the
/// shape takes on. The parameters' sizes come from the shape (read from the
/// parameter directory, or recorded once), not from a synthesis of their own:
/// reading `medium`'s shape takes a fraction of its synthesis, and at 32 GiB
/// sectors that synthesis is most of a minute.
fn params_and_shape(o: &RunOpts) -> Result<(Params, ParamsFile, Option<Shape>), ProverError> {
    let cs = circuits(
        &RunOpts {
            partitions: 1,
            ..o.clone()
        },
        0,
    )?;
    let shape = shape_for(&cs[0], shape_dir(o, &cs[0]), &Recorder::new())?;
    let expected = expected_of_shape(&shape)?;
    let cache = ParamsCache::new(&o.params_dir, o.params_file.as_deref());
    let (params, file) = cache.load_or_generate(&cs[0].shape_id(), &expected, o.params_store, || {
        Ok(crate::setup::runner::generate_from_shape(
            &shape,
            for_proving(o.backend),
        )?)
    })?;
    Ok((params, file, Some(shape)))
}

/// End-to-end proofs: synthesis, proving, verification unless disabled.
pub fn run_prove(o: &RunOpts, sink: &mut dyn FnMut(Record) -> Result<(), ProverError>) -> Result<(), ProverError> {
    let prover = prover(o)?;
    let (params, file, made) = params_and_shape(o)?;
    let mut rng = <rand_chacha::ChaCha20Rng as rand_core::SeedableRng>::from_entropy();
    let path = SynthPath::for_run(o, &circuits(o, 0)?[0], made)?;
    for rep in 0..o.warmup + o.reps {
        let cs = circuits(o, rep)?;
        let mut r = match prover {
            Prover::Bellperson => prove_rep_bellperson(o, rep, &cs, &params, &mut rng, |_, _| Ok(()))?,
            Prover::Ours(engine) => prove_rep(o, engine, &path, rep, &cs, &params, &mut rng, |_, _, _| Ok(()))?,
        };
        r.params = Some(file.clone());
        sink(r)?;
    }
    Ok(())
}

/// One repetition on our prover: synthesis and the driver's proofs on
/// `engine` (one batch, or pipelined partition by partition as `o.pipeline`
/// says), our verification, then `check` (more verification, timed inside
/// the record, and checks on each partition's public inputs) before the
/// record is made.
#[allow(clippy::too_many_arguments)]
pub(crate) fn prove_rep<C: Circuit>(
    o: &RunOpts,
    engine: EngineChoice,
    path: &SynthPath,
    rep: usize,
    cs: &[C],
    params: &Params,
    rng: &mut rand_chacha::ChaCha20Rng,
    check: impl FnOnce(&Recorder, &[Vec<Fr>], &[crate::groth16::Proof]) -> Result<(), ProverError>,
) -> Result<Record, ProverError> {
    let rec = Recorder::with_delays(o.delays.clone());
    let t = Instant::now();
    let p = Proving {
        o,
        engine,
        path,
        cs,
        params,
        rec: &rec,
    };
    let out = match o.pipeline {
        None => p.batch(rng)?,
        Some(depth) => p.pipelined(depth, rng)?,
    };
    let verified = if o.verify {
        rec.time("verify", || verify_all(&params.vk, &out.proofs, &out.inputs))?;
        Some(true)
    } else {
        None
    };
    check(&rec, &out.inputs, &out.proofs)?;
    let total = t.elapsed().as_secs_f64() * 1e3;
    let mut r = record(o, Mode::Prove, rep, rep < o.warmup, out.info, rec, total, out.allocs);
    r.verified = verified;
    if let Some(stats) = out.pipeline {
        r.pipeline = stats.into();
        r.allocations_phase = PIPELINED_ALLOCATIONS.into();
    }
    r.check_phases()?;
    Ok(r)
}

/// What the allocation counters of a pipelined repetition cover: synthesis
/// overlaps proving there, so the counters span both, from the first
/// partition's synthesis to the last proof.
pub const PIPELINED_ALLOCATIONS: &str = "synthesis+prove (pipelined)";

/// One repetition's proving work on our engines, before verification.
struct Proving<'a, C> {
    o: &'a RunOpts,
    engine: EngineChoice,
    path: &'a SynthPath,
    cs: &'a [C],
    params: &'a Params,
    rec: &'a Recorder,
}

/// Proofs of every partition in order, with what the record needs of them.
struct Proven {
    proofs: Vec<crate::groth16::Proof>,
    /// Each partition's public inputs (without the leading one).
    inputs: Vec<Vec<Fr>>,
    info: CircuitInfo,
    allocs: AllocCounts,
    pipeline: Option<pipeline::PipelineStats>,
}

impl<C: Circuit> Proving<'_, C> {
    /// Every partition synthesized (one `synthesis` span), then proven as one batch.
    fn batch(&self, rng: &mut rand_chacha::ChaCha20Rng) -> Result<Proven, ProverError> {
        let (synths, allocs) = synth_all(self.cs, self.rec, self.path)?;
        let rs: Vec<(Fr, Fr)> = (0..synths.len())
            .map(|_| (Fr::random(&mut *rng), Fr::random(&mut *rng)))
            .collect();
        let proofs = self.engine.prove(self.params, &synths, &rs, self.rec)?;
        Ok(Proven {
            proofs,
            inputs: synths.iter().map(|s| s.inputs[1..].to_vec()).collect(),
            info: circuit_info(self.o, &self.cs[0], &synths[0]),
            allocs,
            pipeline: None,
        })
    }

    /// Partitions synthesized on the pipeline's producer (several at once
    /// when the depth allows) and proven one at a time, in order, by the
    /// driver here, at most `depth` in flight.
    /// Each partition's spans (its `synthesis`, the driver's phases) carry
    /// `partition: k` in their extra fields.
    fn pipelined(&self, depth: Depth, rng: &mut rand_chacha::ChaCha20Rng) -> Result<Proven, ProverError> {
        let n = self.cs.len();
        size_hints(self.cs, self.rec);
        let parts: Vec<Recorder> = (0..n).map(|_| self.rec.sibling()).collect();
        let mut inputs = Vec::with_capacity(n);
        let mut info = None;
        let before = AllocCounts::now();
        let run = pipeline::run(
            n,
            depth,
            Synthesized::heap_bytes,
            |k| self.path.synthesize_one(&self.cs[k], &parts[k]),
            |k, s| {
                if k == 0 {
                    info = Some(circuit_info(self.o, &self.cs[0], &s));
                }
                inputs.push(s.inputs[1..].to_vec());
                let rs = [(Fr::random(&mut *rng), Fr::random(&mut *rng))];
                let mut proof = self
                    .engine
                    .prove(self.params, std::slice::from_ref(&s), &rs, &parts[k])?;
                proof.pop().filter(|_| proof.is_empty()).ok_or_else(|| {
                    ProverError::Internal("the driver made other than one proof for one partition".into())
                })
            },
        );
        let allocs = AllocCounts::now().since(before);
        for (k, part) in parts.into_iter().enumerate() {
            self.rec.absorb(part, "partition", k.into());
        }
        let (proofs, stats) = run?;
        Ok(Proven {
            proofs,
            inputs,
            info: info.ok_or_else(|| ProverError::Internal("no partition was proven".into()))?,
            allocs,
            pipeline: Some(stats),
        })
    }
}

/// One repetition on bellperson's own prover. The circuit facts of the record
/// come from our engine's synthesis of the same circuits, done before the
/// timed region and not counted in it; the allocation counters cover
/// `bellperson_prove`, bellperson's synthesis being inseparable from it.
/// `after` runs once the proofs are verified (a real seal's
/// filecoin-proofs check, timed as its own phase), as in [`prove_rep`].
pub(crate) fn prove_rep_bellperson<C: Circuit>(
    o: &RunOpts,
    rep: usize,
    cs: &[C],
    params: &Params,
    rng: &mut rand_chacha::ChaCha20Rng,
    after: impl FnOnce(&Recorder, &[crate::groth16::Proof]) -> Result<(), ProverError>,
) -> Result<Record, ProverError> {
    let info = {
        let s = synthesize(&cs[0], None).map_err(|e| ProverError::Synthesis(e.to_string()))?;
        circuit_info(o, &cs[0], &s)
    };
    let rec = Recorder::with_delays(o.delays.clone());
    let t = Instant::now();
    let before = AllocCounts::now();
    let proofs = crate::bellperson_backend::prove(params, cs, rng, &rec)?;
    let allocs = AllocCounts::now().since(before);
    let verified = if o.verify {
        let inputs: Vec<Vec<Fr>> = cs.iter().map(|c| c.public_inputs()).collect();
        rec.time("verify", || verify_all(&params.vk, &proofs, &inputs))?;
        Some(true)
    } else {
        None
    };
    after(&rec, &proofs)?;
    let total = t.elapsed().as_secs_f64() * 1e3;
    let mut r = record(o, Mode::Prove, rep, rep < o.warmup, info, rec, total, allocs);
    r.allocations_phase = crate::bellperson_backend::PROVE_PHASE.into();
    r.verified = verified;
    r.check_phases()?;
    Ok(r)
}
