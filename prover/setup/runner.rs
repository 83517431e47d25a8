//! The runner's `setup` mode: obtain the shape (recorded, or loaded from the
//! cache), run the setup on the chosen backend, write the parameter and
//! verifying-key files, and emit one record with the phases.

use super::error::SetupError;
use super::fixed_base_choice::backend;
use super::generate::{domain_log2, setup};
use super::toxic::Toxic;
use crate::alloc_count::AllocCounts;
use crate::circuits::presets::preset;
use crate::cs::Circuit;
use crate::error::ProverError;
use crate::groth16::cache::cache_path;
use crate::groth16::params::mark_checked;
use crate::groth16::{write, Params};
use crate::phases::Recorder;
use crate::record::{Backend, CircuitInfo, Mode, Record};
use crate::repetition::Repetition;
use crate::shape::{read_shape, record_shape, write_shape, Shape};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which generator makes the parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generator {
    /// Ours: recorded shape, Lagrange basis, fixed-base tables.
    Phaseline,
    /// bellperson's `generate_random_parameters`, for comparison.
    Bellperson,
}

/// Options of `phaseline-prover setup`.
#[derive(Clone, Debug)]
pub struct SetupOpts {
    pub circuit: String,
    pub backend: String,
    pub generator: Generator,
    pub params_dir: PathBuf,
    /// Known toxic waste from this seed; `None` draws it from OS entropy.
    pub toxic_seed: Option<u64>,
}

/// The shape cache file of a circuit shape.
pub fn shape_path(dir: &Path, shape_id: &str) -> PathBuf {
    dir.join(format!("{shape_id}.shape"))
}

/// The verifying-key file of a circuit shape.
pub fn vk_path(dir: &Path, shape_id: &str) -> PathBuf {
    dir.join(format!("{shape_id}.vk"))
}

/// The shape of `c`: loaded from `dir` when cached there (fully checked),
/// else recorded and cached. Recorded as phase `record_shape`.
pub fn shape_for<C: Circuit>(c: &C, dir: Option<&Path>, rec: &Recorder) -> Result<Shape, SetupError> {
    let id = c.shape_id();
    let path = dir.map(|d| shape_path(d, &id));
    let start = Instant::now();
    let (shape, source, bytes) = match &path {
        Some(p) if p.exists() => {
            let s = read_shape(p).map_err(SetupError::CachedShape)?;
            if s.shape_id != id {
                return Err(SetupError::CachedShape(crate::shape::ShapeError::Invalid {
                    path: p.display().to_string(),
                    reason: format!("holds shape `{}`, expected `{id}`", s.shape_id),
                }));
            }
            let bytes = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
            (s, "loaded", bytes)
        }
        _ => {
            let s = rec
                .time_in("synthesize_shape", Some("record_shape"), || record_shape(c))
                .map_err(|e| SetupError::Record(e.to_string()))?;
            let bytes = match &path {
                Some(p) => rec.time_in("write_shape", Some("record_shape"), || write_shape(&s, p))?,
                None => 0,
            };
            (s, "recorded", bytes)
        }
    };
    let mut extra = serde_json::Map::new();
    extra.insert("source".into(), source.into());
    extra.insert("file_bytes".into(), bytes.into());
    extra.insert("heap_bytes".into(), shape.heap_bytes().into());
    extra.insert("nnz".into(), serde_json::json!(shape.nnz()));
    extra.insert("coefficients".into(), shape.coeff_table.len().into());
    extra.insert("hash".into(), shape.hash_hex().into());
    rec.push_span("record_shape", None, start, Instant::now(), extra);
    Ok(shape)
}

fn info_from_shape(name: &str, s: &Shape, log2: u32) -> CircuitInfo {
    let d = s.densities();
    let frac = |v: &[bool]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().filter(|x| **x).count() as f64 / v.len() as f64
        }
    };
    CircuitInfo {
        name: name.into(),
        shape_id: s.shape_id.clone(),
        constraints: s.rows(),
        aux: s.num_aux,
        inputs: s.num_inputs,
        partitions: 1,
        domain_log2: log2,
        a_aux_density: frac(&d.a_aux),
        b_aux_density: frac(&d.b_aux),
        b_input_density: frac(&d.b_input[1..]),
        ..Default::default()
    }
}

fn toxic(o: &SetupOpts) -> Toxic {
    o.toxic_seed.map(Toxic::seeded).unwrap_or_else(Toxic::random)
}

fn write_files(p: &Params, dir: &Path, id: &str, rec: &Recorder) -> Result<(), SetupError> {
    let (pp, vp) = (cache_path(dir, id), vk_path(dir, id));
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| SetupError::Io { path, source }
    };
    let (pb, vb) = rec.time("write", || -> Result<(u64, u64), SetupError> {
        let pb = write::write_params(p, &pp).map_err(io(&pp))?;
        // Points made here: later loads may skip the per-point checks.
        let _ = mark_checked(&pp);
        let vb = write::write_vk(&p.vk, &vp).map_err(io(&vp))?;
        Ok((pb, vb))
    })?;
    rec.annotate("write", "params_bytes", pb.into());
    rec.annotate("write", "vk_bytes", vb.into());
    rec.annotate("write", "params_file", pp.display().to_string().into());
    Ok(())
}

/// Runs one setup and hands its record to `sink`.
pub fn run_setup(o: &SetupOpts, sink: &mut dyn FnMut(Record) -> Result<(), ProverError>) -> Result<(), ProverError> {
    let c = preset(&o.circuit, 1).map_err(ProverError::UnknownPreset)?;
    let rec = Recorder::new();
    let before = AllocCounts::now();
    let t = Instant::now();
    let (info, backend_name) = match o.generator {
        Generator::Phaseline => {
            let fb = backend(&o.backend)?;
            let shape = shape_for(&c, Some(&o.params_dir), &rec)?;
            let log2 = domain_log2(shape.rows())?;
            let p = setup(&shape, &toxic(o), fb.as_ref(), &rec)?;
            write_files(&p, &o.params_dir, &shape.shape_id, &rec)?;
            (info_from_shape(&o.circuit, &shape, log2), fb.name().to_string())
        }
        Generator::Bellperson => {
            let seed = o.toxic_seed;
            let p = rec.time("bellperson_generate", || bellperson_params(&c, seed))?;
            write_files(&p, &o.params_dir, &c.shape_id(), &rec)?;
            let h = c.size_hint();
            let info = CircuitInfo {
                name: o.circuit.clone(),
                shape_id: c.shape_id(),
                constraints: h.constraints + h.inputs,
                aux: h.aux,
                inputs: h.inputs,
                partitions: 1,
                domain_log2: domain_log2(h.constraints + h.inputs)?,
                ..Default::default()
            };
            (info, "bellperson".to_string())
        }
    };
    let total = t.elapsed().as_secs_f64() * 1e3;
    let allocs = AllocCounts::now().since(before);
    let delays = Default::default();
    let backend = match (o.generator, backend_name.starts_with("cuda")) {
        (Generator::Bellperson, _) => Backend::Bellperson,
        (Generator::Phaseline, true) => Backend::Cuda,
        (Generator::Phaseline, false) => Backend::Cpu,
    };
    let head = Repetition {
        mode: Mode::Setup,
        backend,
        rep: 0,
        warmup: false,
        delays: &delays,
    };
    let mut r = head.record(info, rec, total, allocs);
    r.fixed_base = (o.generator == Generator::Phaseline).then_some(backend_name);
    r.check_phases()?;
    sink(r)
}

/// bellperson's generator over the bridged circuit: seeded like [`Toxic::seeded`]
/// when `seed` is given, from OS entropy otherwise.
pub fn bellperson_params<C: Circuit>(c: &C, seed: Option<u64>) -> Result<Params, SetupError> {
    use rand_core::SeedableRng;
    let mut rng = match seed {
        Some(s) => rand_chacha::ChaCha20Rng::seed_from_u64(s),
        None => rand_chacha::ChaCha20Rng::from_entropy(),
    };
    bellperson::groth16::generate_random_parameters::<blstrs::Bls12, _, _>(crate::cs::bridge::AsBellpepper(c), &mut rng)
        .map_err(|e| SetupError::Bellperson(e.to_string()))
}

/// The prove path's setup when no parameters are cached: the shape from (or
/// into) `dir` (recorded in memory only when `None`), random toxic waste, the
/// fixed-base backend named `fixed_base` (`cpu`, or `cuda` when proving on
/// the GPU). Returns the parameters and the shape they were made from, so
/// the run's synthesis from the shape need not record it again.
pub fn generate_for_proving<C: Circuit>(
    c: &C,
    dir: Option<&Path>,
    fixed_base: &str,
) -> Result<(Params, Shape), SetupError> {
    let shape = shape_for(c, dir, &Recorder::new())?;
    let params = generate_from_shape(&shape, fixed_base)?;
    Ok((params, shape))
}

/// [`generate_for_proving`] from a shape already at hand.
pub fn generate_from_shape(shape: &Shape, fixed_base: &str) -> Result<Params, SetupError> {
    let fb = backend(fixed_base)?;
    setup(shape, &Toxic::random(), fb.as_ref(), &Recorder::new())
}
