//! A folder of prebuilt runners, one per feature set (a GPU host without
//! cargo gets the runners of every combination of some flags, built
//! elsewhere): each executable file is asked `info --json`, and the folder
//! answers which runner has a given feature set. Executables that are not
//! runners are refused, never skipped silently, and so are two runners of one
//! feature set; other files (notes, checksums) are left alone.

use crate::builder;
use crate::error::HarnessError;
use crate::model::Variant;
use phaseline_record::RunnerInfo;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The runners of one folder, by their sorted feature set.
#[derive(Clone, Debug, Default)]
pub struct RunnerFolder {
    pub dir: PathBuf,
    pub by_features: BTreeMap<Vec<String>, (PathBuf, RunnerInfo)>,
}

impl RunnerFolder {
    /// Asks every executable file in `dir` (not those starting with `.`) for its info.
    pub fn scan(dir: &Path) -> Result<RunnerFolder, HarnessError> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| HarnessError::io(format!("runner folder {}", dir.display()), e))?;
        let mut by_features: BTreeMap<Vec<String>, (PathBuf, RunnerInfo)> = BTreeMap::new();
        let mut paths: Vec<PathBuf> = Vec::new();
        for e in entries {
            let e = e.map_err(|e| HarnessError::io(format!("runner folder {}", dir.display()), e))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let executable = e
                .metadata()
                .map(|m| m.is_file() && std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0)
                .unwrap_or(false);
            if name.starts_with('.') || !executable {
                continue;
            }
            paths.push(e.path());
        }
        paths.sort();
        for p in paths {
            let info = builder::query_info(&p, &Variant::new("prebuilt", Vec::<String>::new()))?;
            let mut f = info.features.clone();
            f.sort();
            f.dedup();
            if let Some((other, _)) = by_features.get(&f) {
                return Err(HarnessError::Invalid(format!(
                    "runner folder {}: {} and {} both have features [{}]; keep one",
                    dir.display(),
                    other.display(),
                    p.display(),
                    f.join(",")
                )));
            }
            by_features.insert(f, (p, info));
        }
        if by_features.is_empty() {
            return Err(HarnessError::Invalid(format!(
                "runner folder {} holds no runner",
                dir.display()
            )));
        }
        Ok(RunnerFolder {
            dir: dir.to_path_buf(),
            by_features,
        })
    }

    /// The runner built with exactly `features` (sorted).
    pub fn get(&self, features: &[String]) -> Option<&Path> {
        self.by_features.get(features).map(|(p, _)| p.as_path())
    }
}
