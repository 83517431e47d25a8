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
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    let mut arg = |a: &dyn AsRef<std::ffi::OsStr>| args.push(a.as_ref().to_os_string());
    for a in ["-std=c++17", "-O3", "-DNDEBUG", "-DFEATURE_BLS12_381"] {
        arg(&a);
    }
    arg(&"-DTAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE");
    for a in ["-Xcompiler", "-fPIC,-O2,-Wno-unused-function"] {
        arg(&a);
    }
    arg(&"-I");
    arg(&sppark);
    arg(&"-I");
    arg(&blst);
    arg(&"-I");
    arg(&root.join("cuda"));
    if blst_uses_adx() {
        // blst's build exports the ADX (mulx) variants on such hosts; its
        // headers must name the same ones.
        arg(&"-D__ADX__");
    }
    for a in archs {
        let num = &a[3..];
        arg(&"-gencode");
        arg(&format!("arch=compute_{num},code=sm_{num}"));
    }
    arg(&root.join("cuda/pl_groth16.cu"));
    arg(&root.join("cuda/pl_fb_host.cpp"));
    arg(&sppark.join("util/all_gpus.cpp"));

    // The CUDA objects do not depend on the crate's cargo features, so builds
    // of several feature sets share one compile through a cache keyed by
    // everything nvcc reads (see `cuda_cache`).
    let cache = cuda_cache(&nvcc, &args, root, &sppark, &blst, &out)?;
    if let Some(hit) = cache
        .as_ref()
        .map(|c| c.join("libphaseline_cuda.a"))
        .filter(|p| p.is_file())
    {
        std::fs::copy(&hit, &lib).map_err(|e| format!("copying the cached {}: {e}", hit.display()))?;
        println!("cargo:warning=CUDA objects from the cache: {}", hit.display());
    } else {
        let st = Command::new(&nvcc)
            .arg("--lib")
            .arg("-o")
            .arg(&lib)
            .args(&args)
            .status()
            .map_err(|e| format!("cannot run {}: {e}; {INSTALL_HINT}", nvcc.display()))?;
        if !st.success() {
            return Err(format!("nvcc failed ({st}) compiling cuda/"));
        }
        if let Some(dir) = cache {
            store_in_cache(&lib, &dir);
        }
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

/// The cache folder for this compile: `PHASELINE_CUDA_CACHE/KEY`, by default
/// `phaseline-cuda-cache/KEY` in the profile's folder of the target directory
/// (so `cargo clean` empties it). KEY hashes nvcc's version, every argument and
/// the contents of `cuda/`, sppark's and blst's sources, so an entry can never
/// be stale. `PHASELINE_CUDA_CACHE=off` compiles every time.
fn cuda_cache(
    nvcc: &Path,
    args: &[std::ffi::OsString],
    root: &Path,
    sppark: &Path,
    blst: &Path,
    out: &Path,
) -> Result<Option<PathBuf>, String> {
    println!("cargo:rerun-if-env-changed=PHASELINE_CUDA_CACHE");
    let base = match env::var_os("PHASELINE_CUDA_CACHE") {
        Some(v) if v == "off" => return Ok(None),
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => match out.ancestors().nth(3) {
            Some(profile_dir) => profile_dir.join("phaseline-cuda-cache"),
            None => return Ok(None),
        },
    };
    let version = Command::new(nvcc)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run {}: {e}; {INSTALL_HINT}", nvcc.display()))?;
    let mut key = phaseline_fingerprint::ContentKey::new();
    key.text("nvcc", &String::from_utf8_lossy(&version.stdout));
    for a in args {
        key.text("arg", &a.to_string_lossy());
    }
    for dir in [root.join("cuda"), sppark.to_path_buf(), blst.to_path_buf()] {
        key.tree(&dir)
            .map_err(|e| format!("reading {} for the CUDA cache key: {e}", dir.display()))?;
    }
    Ok(Some(base.join(key.finish())))
}

/// Puts a freshly compiled library in the cache: a temporary name, then a
/// rename, so a concurrent or interrupted build never leaves half a file.
/// A cache that cannot be written only costs the next build a compile.
fn store_in_cache(lib: &Path, dir: &Path) {
    let tmp = dir.join(format!(".libphaseline_cuda.a.{}", std::process::id()));
    let done = std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::copy(lib, &tmp))
        .and_then(|_| std::fs::rename(&tmp, dir.join("libphaseline_cuda.a")));
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        println!("cargo:warning=CUDA cache not written ({}): {e}", dir.display());
    }
}
