//! The shard manifest (`phaseline plan --shards N`): a versioned JSON file
//! listing work units. A unit holds whole cases (suite, circuit, partitions,
//! backend), and each case is measured with every variant of the plan in the
//! one process that runs the unit, so a comparison never spans two machines.
//! The plan's id is a hash of its content: shards of two plans never merge,
//! and a manifest edited after planning is refused.

use crate::error::HarnessError;
use crate::fsutil::json_problem;
use crate::model::Case;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Version of the manifest format. Bump on incompatible change.
pub const MANIFEST_SCHEMA_VERSION: u32 = 1;
/// The `kind` field every manifest carries.
pub const MANIFEST_KIND: &str = "phaseline-shard-manifest";
/// Most jobs one GitHub Actions matrix may hold.
pub const GHA_MAX_JOBS: usize = 256;

/// What every unit measures besides its cases: the run options of the plan.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunOptions {
    /// Suites as named on the plan's command line (or the config's default).
    pub suites: Vec<String>,
    /// Variants (`NAME=feat,feat` or config names), in order.
    pub variants: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reps: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup: Option<usize>,
    /// Harness self-test delays (`[VARIANT:]PHASE=MS`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inject_delay: Vec<String>,
}

impl RunOptions {
    /// The measurement these options stand for (everything else at its default).
    pub fn request(&self) -> crate::run_request::RunRequest {
        crate::run_request::RunRequest {
            suites: self.suites.clone(),
            variants: self.variants.clone(),
            reps: self.reps,
            warmup: self.warmup,
            inject_delay: self.inject_delay.clone(),
            ..Default::default()
        }
    }
}

/// One work unit: the cases one process measures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Position in the manifest, from 0: the matrix entry, array task or completion index.
    pub index: usize,
    pub cases: Vec<Case>,
}

impl Unit {
    /// The unit's cases as one line, e.g. `synth/tiny x1 cpu, e2e/tiny x1 cpu`.
    pub fn label(&self) -> String {
        self.cases.iter().map(Case::label).collect::<Vec<_>>().join(", ")
    }
}

/// A shard manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub schema_version: u32,
    pub kind: String,
    /// Hash of everything below: names the plan in every unit's run.
    pub plan_id: String,
    pub created_utc: String,
    /// The commit the plan was made from (every unit should run it).
    pub commit: String,
    pub options: RunOptions,
    pub units: Vec<Unit>,
}

/// FNV-1a, 64 bits: a stable content hash without another dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Manifest {
    /// Cuts `cases` into at most `shards` units, dealing them out in turn so
    /// each unit gets a share of every suite. Returns the manifest and, when
    /// there are fewer cases than shards, a note saying so.
    pub fn plan(
        cases: &[Case],
        shards: usize,
        options: RunOptions,
        commit: String,
        created_utc: String,
    ) -> Result<(Manifest, Option<String>), HarnessError> {
        if shards == 0 {
            return Err(HarnessError::Invalid("--shards must be at least 1".into()));
        }
        if cases.is_empty() {
            return Err(HarnessError::Invalid("the selection has no cases to shard".into()));
        }
        let n = shards.min(cases.len());
        let note = (n < shards).then(|| {
            format!(
                "{} cases make {n} units, not {shards}: a unit holds whole cases",
                cases.len()
            )
        });
        let mut units: Vec<Unit> = (0..n)
            .map(|index| Unit {
                index,
                cases: Vec::new(),
            })
            .collect();
        for (i, c) in cases.iter().enumerate() {
            units[i % n].cases.push(c.clone());
        }
        let mut m = Manifest {
            schema_version: MANIFEST_SCHEMA_VERSION,
            kind: MANIFEST_KIND.into(),
            plan_id: String::new(),
            created_utc,
            commit,
            options,
            units,
        };
        m.plan_id = m.content_id();
        Ok((m, note))
    }

    /// The hash of the manifest without its `plan_id`.
    fn content_id(&self) -> String {
        let mut m = self.clone();
        m.plan_id.clear();
        let bytes = serde_json::to_vec(&m).unwrap_or_default();
        format!("{:016x}", fnv1a(&bytes))
    }

    /// Reads and checks a manifest file.
    pub fn load(path: &Path) -> Result<Manifest, HarnessError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| HarnessError::io(format!("cannot read manifest {}", path.display()), e))?;
        let m: Manifest =
            serde_json::from_str(&text).map_err(|e| json_problem(&format!("manifest {}", path.display()), &e))?;
        m.check()
            .map_err(|why| HarnessError::Data(format!("manifest {}: {why}", path.display())))?;
        Ok(m)
    }

    /// Internal consistency: kind, version, unit numbering, each case once, the id.
    pub fn check(&self) -> Result<(), String> {
        if self.kind != MANIFEST_KIND {
            return Err(format!("kind `{}` is not `{MANIFEST_KIND}`", self.kind));
        }
        if self.schema_version != MANIFEST_SCHEMA_VERSION {
            return Err(format!(
                "schema_version {} (this harness reads {MANIFEST_SCHEMA_VERSION})",
                self.schema_version
            ));
        }
        if self.units.is_empty() {
            return Err("it lists no units".into());
        }
        if self.options.variants.is_empty() {
            return Err("it names no variants".into());
        }
        let mut seen: Vec<&Case> = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            if u.index != i {
                return Err(format!("unit {i} is numbered {} (units count 0, 1, 2, ...)", u.index));
            }
            if u.cases.is_empty() {
                return Err(format!("unit {i} has no cases"));
            }
            for c in &u.cases {
                if seen.contains(&c) {
                    return Err(format!("case {} is in two units", c.label()));
                }
                seen.push(c);
            }
        }
        if self.plan_id != self.content_id() {
            return Err(format!(
                "plan_id `{}` does not match its content (edited after planning? plan again)",
                self.plan_id
            ));
        }
        Ok(())
    }

    /// Unit `k`, or an error saying the valid range.
    pub fn unit(&self, k: usize) -> Result<&Unit, HarnessError> {
        self.units.get(k).ok_or_else(|| {
            HarnessError::Invalid(format!(
                "shard {k} is out of range: the manifest has {} units (0 to {})",
                self.units.len(),
                self.units.len() - 1
            ))
        })
    }

    /// A GitHub Actions matrix (`strategy.matrix`): one `include` entry per unit.
    pub fn gha_matrix(&self) -> Result<serde_json::Value, HarnessError> {
        if self.units.len() > GHA_MAX_JOBS {
            return Err(HarnessError::Invalid(format!(
                "{} units exceed the {GHA_MAX_JOBS} jobs a GitHub Actions matrix may hold; plan fewer shards",
                self.units.len()
            )));
        }
        let include: Vec<serde_json::Value> = self
            .units
            .iter()
            .map(|u| serde_json::json!({ "shard": u.index, "cases": u.label() }))
            .collect();
        Ok(serde_json::json!({ "include": include }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(suite: &str, circuit: &str) -> Case {
        Case {
            suite: suite.into(),
            circuit: circuit.into(),
            partitions: 1,
            backend: crate::model::Backend::Cpu,
            clock: Default::default(),
        }
    }

    fn opts() -> RunOptions {
        RunOptions {
            variants: vec!["baseline".into()],
            ..RunOptions::default()
        }
    }

    #[test]
    fn cases_are_dealt_out_and_capped() {
        let cases = [case("a", "x"), case("a", "y"), case("b", "x")];
        let (m, note) = Manifest::plan(&cases, 2, opts(), "c".into(), "t".into()).unwrap();
        assert!(note.is_none());
        assert_eq!(m.units[0].cases, vec![cases[0].clone(), cases[2].clone()]);
        assert_eq!(m.units[1].cases, vec![cases[1].clone()]);
        m.check().unwrap();
        let (m, note) = Manifest::plan(&cases, 5, opts(), "c".into(), "t".into()).unwrap();
        assert_eq!(m.units.len(), 3);
        assert!(note.unwrap().contains("3 units"));
        assert!(Manifest::plan(&cases, 0, opts(), "c".into(), "t".into()).is_err());
    }

    #[test]
    fn a_matrix_holds_at_most_256_jobs() {
        let cases: Vec<Case> = (0..GHA_MAX_JOBS + 1).map(|i| case("a", &format!("c{i}"))).collect();
        let (m, _) = Manifest::plan(&cases, cases.len(), opts(), "c".into(), "t".into()).unwrap();
        assert!(m.gha_matrix().unwrap_err().to_string().contains("256"));
        let (m, _) = Manifest::plan(&cases, GHA_MAX_JOBS, opts(), "c".into(), "t".into()).unwrap();
        assert_eq!(
            m.gha_matrix().unwrap()["include"].as_array().unwrap().len(),
            GHA_MAX_JOBS
        );
    }

    #[test]
    fn edits_and_ranges_are_refused() {
        let cases = [case("a", "x"), case("a", "y")];
        let (mut m, _) = Manifest::plan(&cases, 2, opts(), "c".into(), "t".into()).unwrap();
        assert!(m.unit(2).is_err());
        assert_eq!(m.gha_matrix().unwrap()["include"].as_array().unwrap().len(), 2);
        m.units[1].cases = vec![case("a", "x")];
        assert!(m.check().unwrap_err().contains("two units"));
        m.units[1].cases = vec![case("a", "z")];
        assert!(m.check().unwrap_err().contains("plan_id"));
    }
}
