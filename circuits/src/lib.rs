//! phaseline-circuits: our small constraint-system trait with its own
//! linear-combination type ([`cs`]), a bridge that runs circuits on any
//! bellpepper `ConstraintSystem`, and the benchmark circuits and presets
//! ([`circuits`]). Free of bellperson, so the same circuits can be built
//! against any bellperson flavour.

pub mod circuits;
pub mod cs;
