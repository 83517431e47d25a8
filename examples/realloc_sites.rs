//! Diagnostic: where synthesis reallocates. Runs one synthesis of a preset
//! under an allocator that groups reallocations by (old size, new size) and
//! keeps one backtrace per group. Build with the features to inspect, e.g.
//! `cargo run --release --example realloc_sites --features presize -- small`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::Mutex;

struct Sites;

thread_local! {
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

type Groups = BTreeMap<String, u64>;
static GROUPS: Mutex<Option<Groups>> = Mutex::new(None);

unsafe impl GlobalAlloc for Sites {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let outer = INSIDE.with(|c| !c.replace(true));
        if outer {
            if let Ok(mut g) = GROUPS.lock() {
                if let Some(map) = g.as_mut() {
                    let bt = std::backtrace::Backtrace::force_capture().to_string();
                    let mut key = format!("{} -> {} bytes", l.size(), new);
                    for line in bt.lines().filter(|l| l.contains("phaseline")).take(6) {
                        key.push_str("\n   ");
                        key.push_str(
                            line.trim()
                                .trim_start_matches(|c: char| c.is_ascii_digit() || c == ':')
                                .trim(),
                        );
                    }
                    *map.entry(key).or_insert(0) += 1;
                }
            }
            INSIDE.with(|c| c.set(false));
        }
        System.realloc(p, l, new)
    }
}

#[global_allocator]
static A: Sites = Sites;

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "tiny".into());
    let c = phaseline_prover::circuits::presets::preset(&name, 1).expect("preset");
    // `cold`: the size hint is computed inside the counted region, as the runner does
    let cold = std::env::args().nth(2).as_deref() == Some("cold");
    let hint = (!cold).then(|| phaseline_prover::cs::Circuit::size_hint(&c));
    *GROUPS.lock().unwrap() = Some(BTreeMap::new());
    let s = phaseline_prover::synth::synthesize(&c, hint).expect("synthesis");
    let map = GROUPS.lock().unwrap().take().unwrap();
    let total: u64 = map.values().sum();
    println!("{name}: {} constraints, {total} reallocations", s.num_constraints());
    let mut v: Vec<_> = map.into_iter().collect();
    v.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    for (key, n) in v.iter().take(20) {
        println!("== {n} x {key}");
    }
}
