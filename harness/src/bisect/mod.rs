//! `phaseline bisect`: which optimization flag (or pair of flags) moved a
//! phase (`bisect flags`), and a noise-aware good/bad oracle for
//! `git bisect run` (`bisect oracle`).
//!
//! Every measurement goes through [`Measurer`], so the search logic is tested
//! with a seeded mock and runs unchanged on real builds.

pub mod ddmin;
pub mod drift;
pub mod factorial;
pub mod flags;
pub mod flags_run;
pub mod judge;
pub mod measurer;
pub mod oracle;
pub mod real;
pub mod report;
pub mod screen;
pub mod space;
pub mod state;
pub mod target;

pub use flags_run::{run_flags, FlagsRequest, FlagsRun, Settings};
pub use measurer::Measurer;
pub use target::Target;
