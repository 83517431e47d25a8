//! Builds one runner per variant in one shared cargo target directory (only the
//! prover crate recompiles between feature sets), caches each runner under its
//! build fingerprint, reuses a cached runner only when the fingerprint the
//! checkout gives now matches, and checks `info --json` before any run.

use crate::config::Config;
use crate::error::HarnessError;
use crate::model::{BuiltVariant, Variant};
use phaseline_fingerprint::{fingerprint, BuildKey};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Name of the runner binary.
pub const RUNNER: &str = "phaseline-prover";
/// Environment variable naming the feature set the harness expects of a runner.
/// A built runner ignores it; the mock runner adopts it.
pub const EXPECT_FEATURES_ENV: &str = "PHASELINE_EXPECT_FEATURES";

/// What a runner's `info --json` says (the runner protocol's type).
pub use phaseline_record::RunnerInfo;

/// Where and how runners are built.
#[derive(Clone, Debug)]
pub struct BuildSettings {
    pub root: PathBuf,
    pub cargo: String,
    pub profile: String,
    pub target_dir: PathBuf,
    pub cache_dir: PathBuf,
    /// `[build] cuda_archs`; empty means `CUDA_ARCHS` from the environment,
    /// else the build script's default (see [`BuildSettings::cuda_archs`]).
    pub cuda_archs: String,
    /// Use this binary for every variant instead of building.
    pub runner_override: Option<PathBuf>,
}

impl BuildSettings {
    /// From the config; `CARGO_TARGET_DIR` (cargo's own setting) wins over `build.target_dir`.
    pub fn from_config(cfg: &Config, runner_override: Option<PathBuf>) -> BuildSettings {
        let target_dir = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| cfg.resolve(&cfg.build.target_dir));
        BuildSettings {
            root: cfg.root.clone(),
            cargo: cfg.build.cargo.clone(),
            profile: cfg.build.profile.clone(),
            target_dir,
            cache_dir: cfg.resolve(&cfg.build.cache_dir),
            cuda_archs: cfg.build.cuda_archs.clone(),
            runner_override: runner_override.or_else(|| cfg.runner_override.as_ref().map(|p| cfg.resolve(p))),
        }
    }

    /// Settings worth recording in a run's provenance.
    pub fn describe(&self) -> Vec<(String, String)> {
        let mut v = vec![
            ("build.profile".into(), self.profile.clone()),
            ("build.target_dir".into(), self.target_dir.display().to_string()),
            ("build.cache_dir".into(), self.cache_dir.display().to_string()),
        ];
        if let Some(r) = &self.runner_override {
            v.push(("runner_override".into(), r.display().to_string()));
            v.push((
                "fingerprint_check".into(),
                "runner override: records must match its info, not the checkout".into(),
            ));
        }
        v
    }

    /// The profile name build scripts see (`release` or `debug`).
    fn profile_seen(&self) -> &str {
        if self.profile == "release" {
            "release"
        } else {
            "debug"
        }
    }

    /// The CUDA architectures a `cuda` runner is built for: the config's
    /// setting, else `CUDA_ARCHS`, else the build's default, resolved by the
    /// rule the build script uses. The harness hands the result to cargo as
    /// `CUDA_ARCHS`, so what it fingerprints is what the build compiles.
    pub fn cuda_archs(&self) -> Result<String, HarnessError> {
        let env = std::env::var(phaseline_fingerprint::CUDA_ARCHS_ENV).ok();
        let requested = if self.cuda_archs.trim().is_empty() {
            env.as_deref()
        } else {
            Some(self.cuda_archs.as_str())
        };
        phaseline_fingerprint::cuda_archs(requested)
            .map(|a| a.join(","))
            .map_err(|e| HarnessError::Config(format!("[build] cuda_archs / CUDA_ARCHS: {e}")))
    }

    /// The fingerprint a runner of `v` built from the checkout now would embed.
    pub fn expected_fingerprint(&self, v: &Variant) -> Result<String, HarnessError> {
        let key = BuildKey {
            features: v.features.clone(),
            profile: self.profile_seen().into(),
            cuda_archs: if v.is_cuda() { self.cuda_archs()? } else { String::new() },
        };
        fingerprint(&self.root, &key)
            .map_err(|e| HarnessError::io(format!("fingerprint of the sources in {}", self.root.display()), e))
    }

    pub fn cached_runner(&self, fp: &str) -> PathBuf {
        self.cache_dir.join(fp).join(RUNNER)
    }
}

/// Runs `bin info --json` (expecting `v`'s features) and parses it.
pub fn query_info(bin: &Path, v: &Variant) -> Result<RunnerInfo, HarnessError> {
    let out = tempfile::NamedTempFile::new().map_err(|e| HarnessError::io("info output file", e))?;
    let job = crate::exec::Job {
        program: bin.to_path_buf(),
        args: vec!["info".into(), "--json".into()],
        env: vec![(EXPECT_FEATURES_ENV.into(), v.feature_list())],
        timeout: Duration::from_secs(30),
        sample_every: None,
        stdout: Some(out.path().to_path_buf()),
    };
    let o = crate::exec::run(&job)?;
    if !o.success() {
        return Err(HarnessError::Failed(format!(
            "`{} info --json` failed: {}; not a usable runner",
            bin.display(),
            o.failure(job.timeout)
        )));
    }
    let text = std::fs::read_to_string(out.path()).map_err(|e| HarnessError::io("info output file", e))?;
    serde_json::from_str(&text).map_err(|e| {
        HarnessError::Failed(format!(
            "`{} info --json` is not a runner's info ({e}); refusing a foreign binary",
            bin.display()
        ))
    })
}

/// Checks that `bin` reports `v`'s features and, when given, the expected fingerprint.
pub fn verify(bin: &Path, v: &Variant, expected_fp: Option<&str>) -> Result<RunnerInfo, HarnessError> {
    let info = query_info(bin, v)?;
    let mut got = info.features.clone();
    got.sort();
    got.dedup();
    if got != v.features {
        return Err(HarnessError::Failed(format!(
            "runner {} reports features [{}] but variant `{}` needs [{}]; refusing it",
            bin.display(),
            got.join(","),
            v.name,
            v.feature_list()
        )));
    }
    if let Some(fp) = expected_fp {
        if info.fingerprint != fp {
            let archs = if info.cuda_archs.is_empty() {
                String::new()
            } else {
                format!("; it was compiled for CUDA {}", info.cuda_archs)
            };
            return Err(HarnessError::Failed(format!(
                "runner {} has fingerprint {} but the checkout builds variant `{}` as {fp}: \
                 it is stale or foreign (built from other sources, features, profile or CUDA \
                 architectures{archs}); refusing it",
                bin.display(),
                info.fingerprint,
                v.name
            )));
        }
    }
    Ok(info)
}

fn cargo_build(s: &BuildSettings, v: &Variant) -> Result<PathBuf, HarnessError> {
    let log = tempfile::tempfile().map_err(|e| HarnessError::io("build log", e))?;
    let log2 = log.try_clone().map_err(|e| HarnessError::io("build log", e))?;
    let mut cmd = Command::new(&s.cargo);
    cmd.arg("build");
    if s.profile == "release" {
        cmd.arg("--release");
    } else {
        cmd.args(["--profile", &s.profile]);
    }
    cmd.args(["-p", RUNNER, "--bin", RUNNER, "--no-default-features"]);
    if !v.features.is_empty() {
        cmd.args(["--features", &v.feature_list()]);
    }
    if v.is_cuda() {
        cmd.env(phaseline_fingerprint::CUDA_ARCHS_ENV, s.cuda_archs()?);
    }
    let dir = if s.profile == "dev" {
        "debug"
    } else {
        s.profile.as_str()
    };
    let out = s.target_dir.join(dir).join(RUNNER);
    cmd.arg("--target-dir")
        .arg(&s.target_dir)
        .current_dir(&s.root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(log2))
        .process_group(0);
    // The workspace's own runner binary is set aside and put back after the
    // build, so it never silently becomes this variant.
    let _kept = KeptBinary::set_aside(&out)?;
    let mut child = cmd
        .spawn()
        .map_err(|e| HarnessError::io(format!("cannot start `{}` to build variant `{}`", s.cargo, v.name), e))?;
    // cargo and the rustc processes it starts share this group: an interrupt ends them all.
    let group = crate::interrupt::GroupGuard::new(child.id() as i32);
    let status = child
        .wait()
        .map_err(|e| HarnessError::io(format!("waiting for the build of variant `{}`", v.name), e))?;
    drop(group);
    if let Some(sig) = crate::interrupt::received() {
        // SAFETY: signals only the build's own group, by id (leftover rustc processes).
        unsafe { libc::killpg(child.id() as i32, libc::SIGKILL) };
        return Err(HarnessError::Interrupted(sig));
    }
    if !status.success() {
        let mut log = log;
        let tail = log_tail(&mut log, 20);
        return Err(HarnessError::Failed(format!(
            "build of variant `{}` (features [{}]) failed ({status}):\n{tail}",
            v.name,
            v.feature_list()
        )));
    }
    // The variant's binary goes to a private file before the workspace's is put back.
    let private = out.with_file_name(format!(".{RUNNER}.variant-{}", std::process::id()));
    std::fs::rename(&out, &private)
        .map_err(|e| HarnessError::io(format!("cannot move the built runner {}", out.display()), e))?;
    Ok(private)
}

/// The workspace's runner binary, moved aside during a variant build and put
/// back (or, when there was none, the variant's removed) when dropped.
struct KeptBinary {
    path: PathBuf,
    aside: Option<PathBuf>,
    _hard_exit: Option<crate::interrupt::PutBack>,
}

impl KeptBinary {
    fn set_aside(path: &Path) -> Result<KeptBinary, HarnessError> {
        let aside = path.with_file_name(format!(".{RUNNER}.workspace-{}", std::process::id()));
        let moved = match std::fs::rename(path, &aside) {
            Ok(()) => Some(aside),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(HarnessError::io(format!("cannot set aside {}", path.display()), e)),
        };
        Ok(KeptBinary {
            path: path.to_path_buf(),
            _hard_exit: moved
                .clone()
                .map(|a| crate::interrupt::PutBack::new(a, path.to_path_buf())),
            aside: moved,
        })
    }
}

impl Drop for KeptBinary {
    fn drop(&mut self) {
        match &self.aside {
            Some(a) => {
                if let Err(e) = std::fs::rename(a, &self.path) {
                    eprintln!("warning: cannot put {} back: {e}", self.path.display());
                }
            }
            None => {
                let _ = std::fs::remove_file(&self.path);
            }
        }
    }
}

fn log_tail(f: &mut std::fs::File, lines: usize) -> String {
    use std::io::{Read, Seek, SeekFrom};
    let mut text = String::new();
    let _ = f.seek(SeekFrom::Start(0));
    let _ = f.read_to_string(&mut text);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Copies `src` into the cache as `dest`, atomically.
fn install(src: &Path, dest: &Path) -> Result<(), HarnessError> {
    let dir = dest.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| HarnessError::io(format!("cannot create {}", dir.display()), e))?;
    let tmp = dir.join(format!(".{RUNNER}.tmp-{}", std::process::id()));
    std::fs::copy(src, &tmp).map_err(|e| HarnessError::io(format!("cannot copy {}", src.display()), e))?;
    std::fs::rename(&tmp, dest).map_err(|e| HarnessError::io(format!("cannot install {}", dest.display()), e))
}

/// Makes a verified runner for `v`: the override, a cached runner whose
/// fingerprint matches the checkout, or a fresh build.
pub fn prepare(s: &BuildSettings, v: &Variant, say: &mut dyn FnMut(String)) -> Result<BuiltVariant, HarnessError> {
    if let Some(bin) = &s.runner_override {
        let info = verify(bin, v, None)?;
        return Ok(BuiltVariant {
            variant: v.clone(),
            fingerprint: info.fingerprint,
            binary: bin.display().to_string(),
            cached: true,
        });
    }
    let fp = s.expected_fingerprint(v)?;
    let cached = s.cached_runner(&fp);
    if cached.is_file() {
        match verify(&cached, v, Some(&fp)) {
            Ok(_) => {
                say(format!("variant `{}`: cached runner {fp}", v.name));
                return Ok(BuiltVariant {
                    variant: v.clone(),
                    fingerprint: fp,
                    binary: cached.display().to_string(),
                    cached: true,
                });
            }
            Err(e) => say(format!(
                "variant `{}`: cached runner unusable ({e}); rebuilding",
                v.name
            )),
        }
    }
    say(format!(
        "variant `{}`: building features [{}] (fingerprint {fp})",
        v.name,
        v.feature_list()
    ));
    let built = cargo_build(s, v)?;
    verify(&built, v, Some(&fp)).map_err(|e| {
        let _ = std::fs::remove_file(&built);
        HarnessError::Failed(format!(
            "{e} (did sources change during the build? build again with a clean tree)"
        ))
    })?;
    let installed = install(&built, &cached);
    let _ = std::fs::remove_file(&built);
    installed?;
    Ok(BuiltVariant {
        variant: v.clone(),
        fingerprint: fp,
        binary: cached.display().to_string(),
        cached: false,
    })
}

/// Checks a prepared runner again right before it runs (the cache may have changed).
pub fn recheck(s: &BuildSettings, b: &BuiltVariant) -> Result<(), HarnessError> {
    let expected = if s.runner_override.is_some() {
        Some(b.fingerprint.clone())
    } else {
        Some(s.expected_fingerprint(&b.variant)?)
    };
    verify(Path::new(&b.binary), &b.variant, expected.as_deref()).map(|_| ())
}

/// Prepares every variant; failures are collected per variant, never a crash.
pub fn prepare_all(
    s: &BuildSettings,
    vs: &[Variant],
    say: &mut dyn FnMut(String),
) -> (Vec<BuiltVariant>, Vec<(String, HarnessError)>) {
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    for v in vs {
        if crate::interrupt::received().is_some() {
            break;
        }
        match prepare(s, v, say) {
            Ok(b) => ok.push(b),
            Err(e) => failed.push((v.name.clone(), e)),
        }
    }
    (ok, failed)
}
