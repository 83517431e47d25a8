//! Which unit of a shard manifest this process runs: `--shard K` when given,
//! else the index a scheduler hands each task (a Kubernetes Indexed Job's
//! `JOB_COMPLETION_INDEX`, a Slurm array's `SLURM_ARRAY_TASK_ID`).

use crate::error::HarnessError;

/// The variable a Kubernetes Indexed Job sets in each pod.
pub const KUBERNETES_ENV: &str = "JOB_COMPLETION_INDEX";
/// The variable a Slurm job array sets in each task.
pub const SLURM_ENV: &str = "SLURM_ARRAY_TASK_ID";

/// Where the unit index came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexSource {
    Flag,
    KubernetesIndexedJob,
    SlurmArray,
}

impl IndexSource {
    /// How the source reads in messages and provenance.
    pub fn describe(self) -> &'static str {
        match self {
            IndexSource::Flag => "--shard",
            IndexSource::KubernetesIndexedJob => KUBERNETES_ENV,
            IndexSource::SlurmArray => SLURM_ENV,
        }
    }
}

fn parse(var: &str, value: &str) -> Result<usize, HarnessError> {
    value
        .trim()
        .parse::<usize>()
        .map_err(|_| HarnessError::Invalid(format!("{var}=`{value}` is not a unit index (a whole number from 0)")))
}

/// The unit index: `flag`, else the scheduler variables looked up with `env`.
/// Both variables set to different values is an error, as is neither.
pub fn resolve_index(
    flag: Option<usize>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(usize, IndexSource), HarnessError> {
    if let Some(k) = flag {
        return Ok((k, IndexSource::Flag));
    }
    let k8s = env(KUBERNETES_ENV).map(|v| parse(KUBERNETES_ENV, &v)).transpose()?;
    let slurm = env(SLURM_ENV).map(|v| parse(SLURM_ENV, &v)).transpose()?;
    match (k8s, slurm) {
        (Some(a), Some(b)) if a != b => Err(HarnessError::Invalid(format!(
            "{KUBERNETES_ENV}={a} and {SLURM_ENV}={b} disagree; pass --shard K"
        ))),
        (Some(a), _) => Ok((a, IndexSource::KubernetesIndexedJob)),
        (None, Some(b)) => Ok((b, IndexSource::SlurmArray)),
        (None, None) => Err(HarnessError::Invalid(format!(
            "no shard index: pass --shard K, or run under a scheduler that sets {KUBERNETES_ENV} or {SLURM_ENV}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn flag_wins_then_kubernetes_then_slurm() {
        let both = env_of(&[(KUBERNETES_ENV, "3"), (SLURM_ENV, "3")]);
        assert_eq!(resolve_index(Some(1), &both).unwrap(), (1, IndexSource::Flag));
        assert_eq!(
            resolve_index(None, &both).unwrap(),
            (3, IndexSource::KubernetesIndexedJob)
        );
        let slurm = env_of(&[(SLURM_ENV, "2")]);
        assert_eq!(resolve_index(None, &slurm).unwrap(), (2, IndexSource::SlurmArray));
    }

    #[test]
    fn bad_or_missing_indices_are_errors() {
        assert!(resolve_index(None, &env_of(&[])).is_err());
        assert!(resolve_index(None, &env_of(&[(SLURM_ENV, "-1")])).is_err());
        assert!(resolve_index(None, &env_of(&[(KUBERNETES_ENV, "1"), (SLURM_ENV, "2")])).is_err());
    }
}
