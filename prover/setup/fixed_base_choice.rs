//! Chooses a fixed-base engine by name (`setup --backend`, and the engine
//! that makes missing parameters on the prove path): the CPU's, or the GPU's
//! when this build has it. Kept apart from the trait (`super::fixed_base`)
//! so that the trait's file knows no engine.

use super::cpu_fixed_base::{CpuFixedBase, CpuProjectiveFixedBase};
use super::error::SetupError;
use super::fixed_base::FixedBase;
use super::table::MAX_WBITS;
use phaseline_record::Backend;

/// The fixed-base engine that makes missing parameters for a run proving
/// on `backend`: the GPU's for `cuda`, the CPU's otherwise.
pub fn for_proving(backend: Backend) -> &'static str {
    match backend {
        Backend::Cuda => "cuda",
        Backend::Cpu | Backend::Bellperson | Backend::Supraseal => "cpu",
    }
}

/// The backend named `name`: `cpu`, `cpu-projective`, `cuda` or `cuda:BITS`
/// (the GPU backend with BITS-bit windows, 2..=16), `cuda-host[:BITS]` (the
/// GPU backend's code built for the host, one thread per call: a check on
/// machines without a GPU, not a fast path), or an error naming what is
/// wrong or missing.
pub fn backend(name: &str) -> Result<Box<dyn FixedBase>, SetupError> {
    const VALID: &str = "valid: cpu, cpu-projective, cuda, cuda:BITS, cuda-host, cuda-host:BITS";
    match name {
        "cpu" => return Ok(Box::new(CpuFixedBase)),
        "cpu-projective" => return Ok(Box::new(CpuProjectiveFixedBase)),
        _ => {}
    }
    let (host, rest) = match name.strip_prefix("cuda-host") {
        Some(r) => (true, r),
        None => match name.strip_prefix("cuda") {
            Some(r) => (false, r),
            None => {
                return Err(SetupError::BackendNotBuilt(format!(
                    "unknown setup backend `{name}` ({VALID})"
                )))
            }
        },
    };
    let wbits = match rest.strip_prefix(':') {
        None if rest.is_empty() => None,
        Some(b) => match b.parse::<usize>() {
            Ok(w) if (2..=MAX_WBITS).contains(&w) => Some(w),
            _ => {
                return Err(SetupError::BackendNotBuilt(format!(
                    "setup backend `{name}`: window bits must be a number in 2..={MAX_WBITS}"
                )))
            }
        },
        None => {
            return Err(SetupError::BackendNotBuilt(format!(
                "unknown setup backend `{name}` ({VALID})"
            )))
        }
    };
    cuda_backend(wbits, host)
}

#[cfg(feature = "cuda")]
fn cuda_backend(wbits: Option<usize>, host: bool) -> Result<Box<dyn FixedBase>, SetupError> {
    let mut b = if host {
        super::gpu::CudaFixedBase::host_emulated()
    } else {
        // Fail before the shape and the QAP are computed when there is no device.
        crate::gpu::device::init().map_err(|e| SetupError::Gpu(e.to_string()))?;
        super::gpu::CudaFixedBase::default()
    };
    if let Some(w) = wbits {
        b.wbits = w;
    }
    Ok(Box::new(b))
}

#[cfg(not(feature = "cuda"))]
fn cuda_backend(_wbits: Option<usize>, _host: bool) -> Result<Box<dyn FixedBase>, SetupError> {
    Err(SetupError::BackendNotBuilt(
        "the GPU setup (--backend cuda, cuda-host) is not built in this binary (cargo feature `cuda`); use --backend cpu".into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_is_refused_without_the_feature_and_bad_names_are() {
        if !cfg!(feature = "cuda") {
            for name in ["cuda", "cuda:11"] {
                let e = backend(name).err().map(|e| e.to_string()).unwrap_or_default();
                assert!(e.contains("not built"), "{e}");
            }
        }
        assert!(backend("tpu").is_err());
        for bad in ["cuda:1", "cuda:17", "cuda:x", "cuda12", "cuda:"] {
            let e = backend(bad).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(e.contains("window bits") || e.contains("unknown"), "{bad}: {e}");
        }
        assert_eq!(for_proving(Backend::Cuda), "cuda");
        assert_eq!(for_proving(Backend::Bellperson), "cpu");
    }
}
