//! The harness's typed error and the process exit codes.

use thiserror::Error;

/// Exit codes of the `phaseline` binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitCode {
    /// Nothing regressed.
    Ok = 0,
    /// At least one phase regressed.
    Regression = 1,
    /// Bad input, failed build, failed runs.
    Error = 2,
    /// `bisect oracle`: this commit cannot be built or judged (`git bisect run` skips it).
    Skip = 125,
    /// `bisect oracle`: the bisect itself cannot go on (`git bisect run` aborts on codes above 127).
    Abort = 128,
}

#[derive(Debug, Error)]
pub enum HarnessError {
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Invalid(String),
    /// SIGINT or SIGTERM arrived; the command stopped at its next step.
    #[error("interrupted by {} (exit code {})", crate::interrupt::name(*.0), crate::interrupt::exit_code(*.0))]
    Interrupted(i32),
}

impl HarnessError {
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        HarnessError::Io {
            context: context.into(),
            source,
        }
    }
}
