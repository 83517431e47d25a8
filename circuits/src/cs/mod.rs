//! Our small constraint-system trait. Benchmark circuits are written against
//! it; the synthesis engine, the shape recorder and the bellpepper bridge each
//! implement it.

pub mod bridge;
pub mod lc;

pub use lc::{is_minus_one_vartime, is_one_vartime, is_zero_vartime, Lc, Var};

use blstrs::Scalar as Fr;

/// Why synthesis stopped.
#[derive(Debug, thiserror::Error)]
pub enum CsError {
    #[error("a witness value was needed but not provided")]
    MissingValue,
    #[error("bellpepper: {0}")]
    Bellpepper(String),
}

/// A rank-1 constraint system (`Send`, as bellpepper's systems are, so a
/// bellpepper circuit can run on it). Values are given eagerly as `Option`s; a system
/// that only records the shape ignores them.
pub trait Cs: Send {
    /// Allocates an auxiliary (private) variable.
    fn alloc(&mut self, value: Option<Fr>) -> Result<Var, CsError>;
    /// Allocates a public input.
    fn alloc_input(&mut self, value: Option<Fr>) -> Result<Var, CsError>;
    /// Enforces `a * b = c`.
    fn enforce(&mut self, a: Lc, b: Lc, c: Lc);
    /// Enforces the constraint `f` builds. A system that never looks at the
    /// combinations (`wants_constraints` false) counts it without calling
    /// `f`, so gadgets that build their combinations in `f` skip that work.
    fn enforce_with<F: FnOnce() -> (Lc, Lc, Lc)>(&mut self, f: F) {
        if self.wants_constraints() {
            let (a, b, c) = f();
            self.enforce(a, b, c);
        } else {
            self.enforce(Lc::default(), Lc::default(), Lc::default());
        }
    }
    /// Whether witness values are wanted (false while only the shape matters).
    fn wants_values(&self) -> bool {
        true
    }
    /// Whether `enforce` looks at its linear combinations (false for a
    /// witness-only system, which only counts constraints): an adapter whose
    /// combinations come from closures may then skip calling them and pass
    /// empty ones.
    fn wants_constraints(&self) -> bool {
        true
    }
}

/// Whether synthesis vectors are pre-sized (feature `presize`, A2).
pub const PRESIZE: bool = cfg!(feature = "presize");

/// A growing synthesis vector: with `presize` it starts with room for `cap`
/// items, so it never reallocates while it stays within its bound; without
/// it, it starts empty and grows on demand.
pub fn presized<T>(cap: usize) -> Vec<T> {
    if PRESIZE {
        Vec::with_capacity(cap)
    } else {
        Vec::new()
    }
}

/// Capacity hint for pre-sizing synthesis vectors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SizeHint {
    pub constraints: usize,
    pub aux: usize,
    pub inputs: usize,
}

/// A circuit written against [`Cs`].
pub trait Circuit: Sync {
    /// Synthesizes the circuit. Public inputs are allocated by the circuit
    /// (the constant-one input is allocated by the system before this).
    fn synthesize<C: Cs>(&self, cs: &mut C) -> Result<(), CsError>;
    /// Exact or upper-bound sizes, used by the `presize` feature.
    fn size_hint(&self) -> SizeHint;
    /// The public inputs (without the constant one) that a correct witness yields.
    fn public_inputs(&self) -> Vec<Fr>;
    /// A stable identifier of the circuit's shape (same id, same R1CS).
    fn shape_id(&self) -> String;
}
