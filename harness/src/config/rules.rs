//! The rules a suite and its names must follow, whether they come from the
//! config or the command line: counts, setup suites, names of variants,
//! baselines and circuits.

use super::{bad, Interleave, Suite};
use crate::error::HarnessError;
use phaseline_record::Mode;

/// Most repetitions (measured, warm-up or in-process warm-up) one suite may ask for: far beyond
/// any useful sample, yet small enough that counts never overflow.
pub const MAX_REPETITIONS: usize = 100_000;

/// Most partitions of one case (a 32 GiB PoRep sector has 10).
pub const MAX_PARTITIONS: usize = 64;

/// Refuses zero measured repetitions and absurd counts of suite `name` (config or command line).
pub fn check_counts(name: &str, s: &Suite) -> Result<(), HarnessError> {
    let k = |f: &str| format!("suites.{name}.{f}");
    if s.reps == 0 {
        return Err(bad(&k("reps"), "must be at least 1"));
    }
    if s.inner_reps == 0 {
        return Err(bad(&k("inner_reps"), "must be at least 1"));
    }
    if s.inner_reps != 1 && s.interleave != Interleave::Alternate {
        return Err(bad(
            &k("inner_reps"),
            "applies to `alternate` suites (in `block` mode every repetition is already in one process)",
        ));
    }
    for (field, n) in [
        ("reps", s.reps),
        ("warmup", s.warmup),
        ("inner_warmup", s.inner_warmup),
        ("inner_reps", s.inner_reps),
    ] {
        if n > MAX_REPETITIONS {
            return Err(bad(
                &k(field),
                format!("{n} is more than {MAX_REPETITIONS} repetitions"),
            ));
        }
    }
    if let Some(p) = s.partitions.iter().find(|p| **p > MAX_PARTITIONS) {
        return Err(bad(&k("partitions"), format!("{p} is more than {MAX_PARTITIONS}")));
    }
    if s.mode != Mode::Prove {
        if s.params_store.is_some() {
            return Err(bad(&k("params_store"), "applies to `prove` suites only"));
        }
        if s.mem_budget.is_some() {
            return Err(bad(&k("mem_budget"), "applies to `prove` suites only"));
        }
    }
    if !s.clock.is_wall() && s.mode != Mode::Synth && s.backend != phaseline_record::Backend::Cpu {
        return Err(bad(
            &k("clock"),
            "the CPU clock applies to CPU-backend suites only (GPU spans carry no CPU time)",
        ));
    }
    if let Some(m) = &s.mem_budget {
        phaseline_record::parse_size(m).map_err(|why| bad(&k("mem_budget"), format!("`{m}`: {why}")))?;
    }
    Ok(())
}

/// A `setup` suite (config or command line) measures one setup per process:
/// one partition, no in-process warm-up (the runner's `setup` makes one set of
/// parameters), variants alternating (`block` would need repetitions in one process).
pub fn check_setup(name: &str, s: &Suite) -> Result<(), HarnessError> {
    if s.mode != Mode::Setup {
        return Ok(());
    }
    let k = |f: &str| format!("suites.{name}.{f}");
    if s.partitions != [1] {
        return Err(bad(
            &k("partitions"),
            "a setup suite makes the parameters of one circuit: use [1]",
        ));
    }
    if s.inner_reps != 1 {
        return Err(bad(
            &k("inner_reps"),
            "a setup runs once per process: use `reps` (a process each) instead",
        ));
    }
    if s.inner_warmup != 0 {
        return Err(bad(
            &k("inner_warmup"),
            "a setup runs once per process: use `warmup` (a process of its own) instead",
        ));
    }
    if s.interleave != Interleave::Alternate {
        return Err(bad(
            &k("interleave"),
            "a setup runs once per process: only `alternate` applies",
        ));
    }
    Ok(())
}

/// Letters, digits, `-` and `_`.
pub fn valid_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// What a circuit name is, for the messages that refuse one.
pub const CIRCUIT_NAME: &str = "a preset, `PRESET-mixN`, or `porep-real:SIZE`";

/// Whether `s` can name a circuit: a preset, a preset with a scalar mix
/// (`medium-mix3.3b2.39`) or a real circuit (`porep-real:2KiB`). The runner
/// says whether it knows it. The one rule for suites and `--circuit`.
pub fn valid_circuit(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_.:".contains(c))
}
