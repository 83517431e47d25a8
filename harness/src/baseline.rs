//! Stored baselines: `baselines/<testbed-key>/<name>.json`, each a whole run
//! with its name, source and time. Loading refuses missing, truncated,
//! wrong-schema and foreign-testbed files with a clear message.
//!
//! [`BaselineStore`] is the one way in: every command finds, loads, saves
//! and compares against baselines through it.

use crate::compare::{compare_runs, CompareOptions};
use crate::config::{valid_name, Config};
use crate::error::HarnessError;
use crate::fsutil::{json_problem, write_json};
use crate::model::{Baseline, Comparison, Run, RUN_SCHEMA_VERSION};
use std::path::{Path, PathBuf};

/// The baselines directory: `<dir>/<testbed-key>/<name>.json`.
#[derive(Clone, Debug)]
pub struct BaselineStore {
    dir: PathBuf,
}

impl BaselineStore {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        BaselineStore { dir: dir.into() }
    }

    /// The config's `baselines_dir`.
    pub fn of(cfg: &Config) -> Self {
        Self::new(cfg.resolve(&cfg.baselines_dir))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `<dir>/<testbed>/<name>.json`.
    pub fn path(&self, testbed: &str, name: &str) -> PathBuf {
        path(&self.dir, testbed, name)
    }

    /// Whether baseline `name` of `testbed` is stored (readable or not).
    pub fn has(&self, testbed: &str, name: &str) -> bool {
        self.path(testbed, name).is_file()
    }

    /// Testbeds that hold a baseline called `name`.
    pub fn testbeds_with(&self, name: &str) -> Vec<String> {
        testbeds_with(&self.dir, name)
    }

    /// Loads baseline `name` of `testbed`. With `allow_cross`, a baseline of the
    /// same name on exactly one other testbed is used instead (the caller flags it).
    pub fn load(&self, name: &str, testbed: &str, allow_cross: bool) -> Result<Baseline, HarnessError> {
        load(&self.dir, name, testbed, allow_cross)
    }

    /// Stores `run` (loaded from `source`) as baseline `name` of the run's testbed.
    pub fn save(&self, name: &str, run: &Run, source: &Path, force: bool) -> Result<PathBuf, HarnessError> {
        save(&self.dir, name, run, source, force)
    }

    /// Replaces baseline `name` (now `old`) with `run`, keeping `old` as
    /// `<name>-prev`; both writes atomic. Returns the file of the kept one.
    pub fn promote(&self, name: &str, old: &Baseline, run: &Run, source: &Path) -> Result<PathBuf, HarnessError> {
        let prev_name = format!("{name}-prev");
        let mut prev = old.clone();
        prev.name = prev_name.clone();
        let prev_file = self.path(&old.run.testbed.key, &prev_name);
        write_json(&prev_file, &prev)?;
        self.save(name, run, source, true)?;
        Ok(prev_file)
    }

    /// Every baseline file, unreadable ones included with their problem.
    pub fn list(&self) -> Vec<Entry> {
        list(&self.dir)
    }
}

/// How a baseline is named as the reference side of a comparison.
pub fn label(b: &Baseline) -> String {
    format!("baseline {} ({})", b.name, b.run.testbed.key)
}

/// The one comparison of a run with a stored baseline: `run` against the
/// baseline's run, the reference side labelled by [`label`] unless `opts` names it.
pub fn compare_with(b: &Baseline, run: &Run, opts: &CompareOptions) -> Result<Comparison, HarnessError> {
    let mut o = opts.clone();
    o.reference_label.get_or_insert_with(|| label(b));
    compare_runs(&b.run, run, &o)
}

/// `<dir>/<testbed>/<name>.json`.
fn path(dir: &Path, testbed: &str, name: &str) -> PathBuf {
    dir.join(testbed).join(format!("{name}.json"))
}

fn check_name(name: &str) -> Result<(), HarnessError> {
    if valid_name(name) {
        Ok(())
    } else {
        Err(HarnessError::Invalid(format!(
            "baseline name `{name}`: use letters, digits, `-` or `_`"
        )))
    }
}

/// Testbeds (sub-directories of `dir`) that hold a baseline called `name`.
fn testbeds_with(dir: &Path, name: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join(format!("{name}.json")).is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// Reads and validates one baseline file.
pub fn read(file: &Path) -> Result<Baseline, HarnessError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| HarnessError::io(format!("cannot read baseline {}", file.display()), e))?;
    let b: Baseline =
        serde_json::from_str(&text).map_err(|e| json_problem(&format!("baseline {}", file.display()), &e))?;
    if b.schema_version != RUN_SCHEMA_VERSION {
        return Err(HarnessError::Data(format!(
            "baseline {} has schema_version {} (this harness reads {RUN_SCHEMA_VERSION})",
            file.display(),
            b.schema_version
        )));
    }
    crate::rundir::validate(&b.run).map_err(|m| HarnessError::Data(format!("baseline {}: {m}", file.display())))?;
    Ok(b)
}

fn load(dir: &Path, name: &str, testbed: &str, allow_cross: bool) -> Result<Baseline, HarnessError> {
    check_name(name)?;
    let file = path(dir, testbed, name);
    if file.is_file() {
        let b = read(&file)?;
        if b.run.testbed.key != testbed {
            return Err(HarnessError::Data(format!(
                "baseline {} holds a run of testbed `{}`, not `{testbed}`",
                file.display(),
                b.run.testbed.key
            )));
        }
        return Ok(b);
    }
    let others = testbeds_with(dir, name);
    match (others.as_slice(), allow_cross) {
        ([], _) => Err(HarnessError::Data(format!(
            "no baseline `{name}` for testbed `{testbed}` (looked for {}); `phaseline baseline list` shows what exists",
            file.display()
        ))),
        ([one], true) => read(&path(dir, one, name)),
        (_, true) => Err(HarnessError::Incomparable(format!(
            "baseline `{name}` is missing for testbed `{testbed}` and exists for several others ({}); \
             name the run with --against instead",
            others.join(", ")
        ))),
        (_, false) => Err(HarnessError::Incomparable(format!(
            "baseline `{name}` exists only for other testbeds ({}) but the run is from `{testbed}`: \
             timings from different machines are not comparable (pass --allow-cross-testbed to compare anyway; \
             the result is flagged)",
            others.join(", ")
        ))),
    }
}

fn save(dir: &Path, name: &str, run: &Run, source: &Path, force: bool) -> Result<PathBuf, HarnessError> {
    check_name(name)?;
    let measured = run.samples.iter().filter(|s| s.ok && !s.warmup).count();
    if measured == 0 {
        return Err(HarnessError::Invalid(format!(
            "run {} has no successful measured samples; not saving it as a baseline",
            source.display()
        )));
    }
    let failed = run.samples.iter().filter(|s| !s.ok).count();
    if failed > 0 {
        return Err(HarnessError::Invalid(format!(
            "run {} has {failed} failed samples; a baseline must come from a clean run",
            source.display()
        )));
    }
    let file = path(dir, &run.testbed.key, name);
    // Held until the baseline is written: a concurrent save of the same name
    // is refused, never silently overwritten by whichever writes last.
    let _lock = lock(&file)?;
    if file.exists() && !force {
        return Err(HarnessError::Exists(format!(
            "baseline {} exists; pass --force to replace it",
            file.display()
        )));
    }
    let b = Baseline {
        schema_version: RUN_SCHEMA_VERSION,
        name: name.into(),
        saved_utc: crate::provenance::now_utc(),
        source: source.display().to_string(),
        run: run.clone(),
    };
    write_json(&file, &b)?;
    Ok(file)
}

/// Takes the write lock of baseline `file` (`NAME.json.lock` beside it, which
/// names the holder's pid); refused at once when another process holds it.
fn lock(file: &Path) -> Result<std::fs::File, HarnessError> {
    use std::io::{Read, Seek, Write};
    let mut lp = file.as_os_str().to_owned();
    lp.push(".lock");
    let lp = PathBuf::from(lp);
    if let Some(parent) = lp.parent() {
        std::fs::create_dir_all(parent).map_err(|e| HarnessError::io(parent.display().to_string(), e))?;
    }
    let io = |e| HarnessError::io(lp.display().to_string(), e);
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lp)
        .map_err(io)?;
    match f.try_lock() {
        Ok(()) => {
            f.set_len(0).map_err(io)?;
            f.rewind().map_err(io)?;
            write!(f, "{}", std::process::id()).map_err(io)?;
            f.flush().map_err(io)?;
            Ok(f)
        }
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = f.read_to_string(&mut holder);
            let holder = holder.trim();
            let who = if holder.is_empty() {
                "another process".to_string()
            } else {
                format!("process {holder}")
            };
            Err(HarnessError::Exists(format!(
                "baseline {} is being written by {who} (lock {}); not saving it twice at once",
                file.display(),
                lp.display()
            )))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(io(e)),
    }
}

/// One line of `baseline list`.
#[derive(Clone, Debug)]
pub struct Entry {
    pub testbed: String,
    pub name: String,
    /// Saved time and size, or why the file is unusable.
    pub detail: Result<(String, usize, Vec<String>), String>,
}

fn list(dir: &Path) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut tbs: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    tbs.sort();
    for tb in tbs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&tb)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            let detail = read(&f)
                .map(|b| {
                    let n = b.run.samples.iter().filter(|s| s.ok && !s.warmup).count();
                    (b.saved_utc, n, b.run.variant_names())
                })
                .map_err(|e| e.to_string());
            out.push(Entry {
                testbed: tb
                    .file_name()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                name: f
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                detail,
            });
        }
    }
    out
}
