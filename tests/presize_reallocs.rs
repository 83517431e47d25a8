//! A2 (`presize`) keeps its promise: with it, synthesis of a preset makes no
//! reallocation at all; without it, growing vectors reallocate. Counted with
//! the runner's counting allocator (one test in this binary, so no other
//! test allocates meanwhile).

use phaseline_prover::alloc_count::{AllocCounts, CountingAlloc};
use phaseline_prover::circuits::presets::preset;
use phaseline_prover::cs::Circuit;
use phaseline_prover::synth::synthesize;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

#[test]
fn presize_synthesis_does_not_reallocate() {
    let c = preset("tiny", 2).unwrap();
    let hint = c.size_hint(); // computed once per circuit, outside the count
    let before = AllocCounts::now();
    let s = synthesize(&c, Some(hint)).unwrap();
    let d = AllocCounts::now().since(before);
    assert_eq!(s.hint(), hint, "the hint is exact");
    if cfg!(feature = "presize") {
        assert_eq!(d.reallocs, 0, "{d:?}");
    } else {
        assert!(d.reallocs > 100, "{d:?}");
    }
}
