//! The CUDA half of the build script (included by the root `build.rs` when
//! the `cuda` feature is on): finds nvcc, compiles `cuda/*.cu` against the
//! sppark and blst headers for the architectures in `CUDA_ARCHS` (SASS, so
//! no PTX JIT at first use), and links the CUDA runtime statically.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const INSTALL_HINT: &str = "install the CUDA compiler (12.x or 13.x), for example from the \
PyPI wheels: `pip install --target DIR nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 \
nvidia-cuda-crt==13.0.88 nvidia-cuda-runtime==13.0.96 'nvidia-cuda-cccl==13.0.*'` and set \
CUDA_PATH=DIR/nvidia/cu13 (or NVCC to the compiler, or put nvcc on PATH); see docs/gpu.md";

fn on_path(name: &str) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    env::split_paths(&env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|c| c.is_file())
}

/// nvcc from NVCC, then CUDA_PATH/bin, then PATH.
pub fn find_nvcc() -> Result<PathBuf, String> {
    if let Ok(v) = env::var("NVCC") {
        return on_path(&v).ok_or_else(|| format!("NVCC={v} is not an executable file; {INSTALL_HINT}"));
    }
    if let Some(cp) = env::var_os("CUDA_PATH") {
        let p = PathBuf::from(&cp).join("bin").join("nvcc");
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!(
                "CUDA_PATH={} has no bin/nvcc; {INSTALL_HINT}",
                PathBuf::from(cp).display()
            ))
        };
    }
    on_path("nvcc").ok_or_else(|| format!("the `cuda` feature needs nvcc, which was not found; {INSTALL_HINT}"))
}

/// `CUDA_ARCHS` (default `sm_90`), normalized by the rule the harness also
/// uses for the fingerprint it expects (`phaseline_fingerprint::cuda_archs`).
pub fn archs() -> Result<Vec<String>, String> {
    let raw = env::var(phaseline_fingerprint::CUDA_ARCHS_ENV).ok();
    phaseline_fingerprint::cuda_archs(raw.as_deref()).map_err(|e| format!("CUDA_ARCHS: {e}"))
}

fn dep_dir(var: &str) -> Result<PathBuf, String> {
    env::var_os(var)
        .map(PathBuf::from)
        .ok_or_else(|| format!("{var} is not set: the `cuda` feature needs the sppark and blst crates"))
}

/// Whether blst's own build picked its ADX code (it does when the build host has ADX).
fn blst_uses_adx() -> bool {
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("adx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Compiles the CUDA sources into a static library and emits the link lines.
pub fn build(root: &Path, archs: &[String]) -> Result<(), String> {
    println!("cargo:rerun-if-env-changed=NVCC");
    println!("cargo:rerun-if-env-changed=CUDA_PATH");
    println!("cargo:rerun-if-env-changed=CUDA_ARCHS");
    let nvcc = find_nvcc()?;
    let sppark = dep_dir("DEP_SPPARK_ROOT")?;
    let blst = dep_dir("DEP_BLST_C_SRC")?;
    let out = PathBuf::from(env::var("OUT_DIR").map_err(|e| e.to_string())?);
    let lib = out.join("libphaseline_cuda.a");
    let _ = std::fs::remove_file(&lib);
    let mut cmd = Command::new(&nvcc);
    cmd.arg("--lib")
        .arg("-o")
        .arg(&lib)
        .args(["-std=c++17", "-O3", "-DNDEBUG", "-DFEATURE_BLS12_381"])
        .arg("-DTAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE")
        .args(["-Xcompiler", "-fPIC,-O2,-Wno-unused-function"])
        .arg("-I")
        .arg(&sppark)
        .arg("-I")
        .arg(&blst)
        .arg("-I")
        .arg(root.join("cuda"));
    if blst_uses_adx() {
        // blst's build exports the ADX (mulx) variants on such hosts; its
        // headers must name the same ones.
        cmd.arg("-D__ADX__");
    }
    for a in archs {
        let num = &a[3..];
        cmd.arg("-gencode").arg(format!("arch=compute_{num},code=sm_{num}"));
    }
    cmd.arg(root.join("cuda/pl_groth16.cu"));
    cmd.arg(root.join("cuda/pl_fb_host.cpp"));
    cmd.arg(sppark.join("util/all_gpus.cpp"));
    let st = cmd
        .status()
        .map_err(|e| format!("cannot run {}: {e}; {INSTALL_HINT}", nvcc.display()))?;
    if !st.success() {
        return Err(format!("nvcc failed ({st}) compiling cuda/"));
    }
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=phaseline_cuda");
    let top = nvcc
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    for d in ["lib", "lib64", "targets/x86_64-linux/lib"] {
        let p = top.join(d);
        if p.join("libcudart_static.a").is_file() {
            println!("cargo:rustc-link-search=native={}", p.display());
        }
    }
    println!("cargo:rustc-link-lib=static=cudart_static");
    for l in ["stdc++", "dl", "rt", "pthread"] {
        println!("cargo:rustc-link-lib=dylib={l}");
    }
    Ok(())
}
