//! The harness's typed error and the process exit codes.
//!
//! Each variant names what went wrong, and [`HarnessError::exit_code`] alone
//! turns it into the process's exit status: call sites say what happened,
//! never which code to exit with.

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
    /// A file or directory could not be read or written.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    /// A command-line argument or value is refused.
    #[error("{0}")]
    Invalid(String),
    /// The configuration file is unreadable as a config, or one of its keys is wrong.
    #[error("{0}")]
    Config(String),
    /// A stored file (run, baseline, manifest, journal, state, history) is
    /// missing, truncated or not what it claims to be.
    #[error("{0}")]
    Data(String),
    /// The output already exists or is being written by someone else; nothing was replaced.
    #[error("{0}")]
    Exists(String),
    /// The two sides cannot honestly be compared (other testbed, other features, nothing in common).
    #[error("{0}")]
    Incomparable(String),
    /// Building a runner, or a measurement, failed.
    #[error("{0}")]
    Failed(String),
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

    /// The process exit status this error ends a command with: the signal's
    /// conventional code after an interrupt, [`ExitCode::Error`] otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            HarnessError::Interrupted(sig) => crate::interrupt::exit_code(*sig),
            HarnessError::Io { .. }
            | HarnessError::Invalid(_)
            | HarnessError::Config(_)
            | HarnessError::Data(_)
            | HarnessError::Exists(_)
            | HarnessError::Incomparable(_)
            | HarnessError::Failed(_) => ExitCode::Error as i32,
        }
    }

    /// The same error with `context` put in front of its message (kind kept).
    pub fn context(self, context: impl std::fmt::Display) -> Self {
        let with = |m: String| format!("{context}: {m}");
        match self {
            HarnessError::Io { context: c, source } => HarnessError::Io {
                context: with(c),
                source,
            },
            HarnessError::Invalid(m) => HarnessError::Invalid(with(m)),
            HarnessError::Config(m) => HarnessError::Config(with(m)),
            HarnessError::Data(m) => HarnessError::Data(with(m)),
            HarnessError::Exists(m) => HarnessError::Exists(with(m)),
            HarnessError::Incomparable(m) => HarnessError::Incomparable(with(m)),
            HarnessError::Failed(m) => HarnessError::Failed(with(m)),
            HarnessError::Interrupted(s) => HarnessError::Interrupted(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_but_an_interrupt_exits_with_the_error_code() {
        assert_eq!(HarnessError::Data("x".into()).exit_code(), 2);
        assert_eq!(HarnessError::Incomparable("x".into()).exit_code(), 2);
        assert_eq!(HarnessError::Interrupted(2).exit_code(), crate::interrupt::exit_code(2));
        let e = HarnessError::Config("bad key".into()).context("phaseline.toml");
        assert!(matches!(&e, HarnessError::Config(m) if m == "phaseline.toml: bad key"));
    }
}
