//! The real Filecoin PoRep C2 workload (`porep-real:SIZE`): each partition's
//! circuit of a C1 output, built by filecoin-proofs through `phaseline-real`
//! and proven by our engine exactly as a preset is (one batch, or pipelined
//! with `--pipeline on` / `--mem-budget`), with the same phases and records. Every proof is verified twice: by our verifier
//! and by filecoin-proofs' own seal verification; either failing is an error.
//!
//! Without `--c1`, the C1 output of the run's seed is made once and cached
//! in the parameter directory (`c1-porep-real-SIZE-seedS.json`), so a suite
//! can name `porep-real:2KiB` like any preset.

use crate::cpu::ntt::Domain;
use crate::cs::Circuit;
use crate::error::ProverError;
use crate::groth16::cache::{cache_path, ParamsFile};
use crate::groth16::params::Expected;
use crate::groth16::Params;
use crate::phases::Recorder;
use crate::prove::prover::Prover;
use crate::record::{Mode, Record};
use crate::run::{
    circuit_info, load_or_setup, prove_rep, prove_rep_bellperson, prover, record, synth_all, RunOpts, SynthPath,
};
use crate::shape::Shape;
use crate::synth::synthesize;
use blstrs::Scalar as Fr;
use phaseline_real::{blank_circuit, partition_circuits, read_c1, RealCircuit, RealError, Sector, C1};
use std::path::Path;
use std::time::Instant;

/// The preset-style name prefix of real circuits.
pub const PREFIX: &str = phaseline_real::NAME_PREFIX;

/// Whether a circuit name names a real circuit.
pub fn is_real(circuit: &str) -> bool {
    circuit.starts_with(PREFIX)
}

/// The preset-style name of a real circuit of `sector`.
pub fn name_of(sector: Sector) -> String {
    format!("{PREFIX}{}", sector.name())
}

impl From<RealError> for ProverError {
    fn from(e: RealError) -> Self {
        match e {
            RealError::Io { path, source } => ProverError::Io { path, source },
            e => ProverError::Real(e.to_string()),
        }
    }
}

/// Seals seeded random data and writes its C1 output to `out` (atomically).
pub fn make_c1(sector: Sector, seed: u64, out: &Path) -> Result<(), ProverError> {
    let c1 = phaseline_real::c1::seal_c1(sector, seed)?;
    phaseline_real::c1::write_c1(&c1, out)?;
    Ok(())
}

/// The C1 output of a run: `--c1 FILE` when given (its size must match the
/// circuit's name unless the name is just the prefix), else the cached or
/// freshly made one of the run's seed.
pub fn resolve_c1(o: &RunOpts, c1: Option<&Path>) -> Result<C1, ProverError> {
    let named = o.circuit.strip_prefix(PREFIX).filter(|s| !s.is_empty());
    let named = named.map(Sector::parse).transpose()?;
    let c1 = match c1 {
        Some(p) => read_c1(p)?,
        None => {
            let sector = named.ok_or_else(|| {
                ProverError::InvalidArgument(format!("`{}`: name a sector size or give --c1", o.circuit))
            })?;
            phaseline_real::c1::cached(&o.params_dir, sector, o.seed)?
        }
    };
    if let Some(s) = named {
        if s != c1.sector {
            return Err(ProverError::InvalidArgument(format!(
                "circuit `{}` but the C1 output is of a {} sector",
                o.circuit,
                c1.sector.name()
            )));
        }
    }
    Ok(c1)
}

/// Opts with the circuit named after the C1 output's sector and one entry
/// per partition.
fn real_opts(o: &RunOpts, c1: &C1) -> RunOpts {
    RunOpts {
        circuit: name_of(c1.sector),
        partitions: c1.sector.partitions(),
        ..o.clone()
    }
}

/// The circuits of every partition, each public-input vector checked against
/// what our synthesis of a first partition yields later (see `check_inputs`).
fn circuits(c1: &C1) -> Result<Vec<RealCircuit>, ProverError> {
    Ok(partition_circuits(c1)?)
}

/// Our synthesis's public inputs (each partition's, without the leading
/// one) must equal filecoin-proofs' derivation.
fn check_inputs<'a>(cs: &[RealCircuit], inputs: impl IntoIterator<Item = &'a [Fr]>) -> Result<(), ProverError> {
    for (k, (c, x)) in cs.iter().zip(inputs).enumerate() {
        if c.public_inputs() != x {
            return Err(ProverError::Real(format!(
                "partition {k}: the circuit's public inputs differ from filecoin-proofs' generate_public_inputs"
            )));
        }
    }
    Ok(())
}

/// Parameters of the real circuit: `--params FILE` (an official Filecoin
/// parameter file of that sector size, or any of ours), else the cache,
/// else our setup from the recorded shape of the compound proof's blank
/// circuit (shape and parameters cached by sector size and porep id).
pub fn real_params(
    o: &RunOpts,
    sector: Sector,
    first: &RealCircuit,
) -> Result<(Params, ParamsFile, Option<Shape>), ProverError> {
    let s = synthesize(first, None).map_err(|e| ProverError::Synthesis(e.to_string()))?;
    let d =
        Domain::for_len(s.num_constraints()).ok_or_else(|| ProverError::InvalidArgument("circuit too large".into()))?;
    let blank = blank_circuit(sector)?;
    load_or_setup(o, &blank, &Expected::of(&s, d.n))
}

/// `setup` of a real circuit: its C1 output (from the seed, cached) and its
/// parameters, kept when `reuse` and they pass their check, else made anew.
/// Returns the parameter file.
pub fn setup_real(o: &RunOpts, reuse: bool) -> Result<std::path::PathBuf, ProverError> {
    let c1 = resolve_c1(o, None)?;
    let o = &real_opts(o, &c1);
    let path = cache_path(&o.params_dir, &blank_circuit(c1.sector)?.shape_id());
    if !reuse && path.exists() {
        std::fs::remove_file(&path).map_err(|e| ProverError::io(path.display().to_string(), e))?;
    }
    real_params(o, c1.sector, &circuits(&c1)?[0])?;
    Ok(path)
}

/// Synthesis only, as `run_synth` for presets.
pub fn run_synth_real(
    o: &RunOpts,
    c1: Option<&Path>,
    sink: &mut dyn FnMut(Record) -> Result<(), ProverError>,
) -> Result<(), ProverError> {
    let c1 = resolve_c1(o, c1)?;
    let o = &real_opts(o, &c1);
    // The shape is the blank circuit's, cached where setup caches it.
    let path = SynthPath::for_run(o, &blank_circuit(c1.sector)?, None)?;
    for rep in 0..o.warmup + o.reps {
        let cs = circuits(&c1)?;
        let rec = Recorder::with_delays(o.delays.clone());
        let t = Instant::now();
        let (synths, allocs) = synth_all(&cs, &rec, &path)?;
        let total = t.elapsed().as_secs_f64() * 1e3;
        check_inputs(&cs, synths.iter().map(|s| &s.inputs[1..]))?;
        let info = circuit_info(o, &cs[0], &synths[0]);
        let r = record(o, Mode::Synth, rep, rep < o.warmup, info, rec, total, allocs);
        r.check_phases()?;
        sink(r)?;
    }
    Ok(())
}

/// Proofs of every partition as one batch, verified by us and by
/// filecoin-proofs (phases `verify` and `verify_filecoin`) unless disabled.
pub fn run_prove_real(
    o: &RunOpts,
    c1: Option<&Path>,
    sink: &mut dyn FnMut(Record) -> Result<(), ProverError>,
) -> Result<(), ProverError> {
    let prover = prover(o)?;
    let c1 = resolve_c1(o, c1)?;
    let o = &real_opts(o, &c1);
    let (params, file, made) = real_params(o, c1.sector, &circuits(&c1)?[0])?;
    let mut rng = <rand_chacha::ChaCha20Rng as rand_core::SeedableRng>::from_entropy();
    let path = SynthPath::for_run(o, &blank_circuit(c1.sector)?, made)?;
    for rep in 0..o.warmup + o.reps {
        let cs = circuits(&c1)?;
        let engine = match prover {
            Prover::Ours(engine) => engine,
            Prover::Bellperson => {
                // Checked by our verifier inside, then by filecoin-proofs'
                // (`verify_filecoin`), both after bellperson's one phase.
                let mut r = prove_rep_bellperson(o, rep, &cs, &params, &mut rng, |rec, proofs| {
                    if o.verify {
                        rec.time("verify_filecoin", || {
                            phaseline_real::verify::verify_seal_proofs(&c1, &params.vk, proofs)
                        })?;
                    }
                    Ok(())
                })?;
                r.params = Some(file.clone());
                sink(r)?;
                continue;
            }
        };
        let mut r = prove_rep(o, engine, &path, rep, &cs, &params, &mut rng, |rec, inputs, proofs| {
            if o.verify {
                rec.time("verify_filecoin", || {
                    phaseline_real::verify::verify_seal_proofs(&c1, &params.vk, proofs)
                })?;
            }
            check_inputs(&cs, inputs.iter().map(Vec::as_slice))
        })?;
        r.params = Some(file.clone());
        sink(r)?;
    }
    Ok(())
}
