//! The counting allocator's per-thread shards: allocations made on many
//! threads at once (more threads than owned shards, so the shared shard is
//! used too) are all counted, none lost.

use phaseline_prover::alloc_count::{AllocCounts, CountingAlloc};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

#[test]
fn allocations_on_many_threads_are_all_counted() {
    const THREADS: usize = 100;
    const PER_THREAD: usize = 2000;
    let before = AllocCounts::now();
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            std::thread::spawn(move || {
                let mut sum = 0u64;
                for i in 0..PER_THREAD {
                    let b = std::hint::black_box(Box::new((t * PER_THREAD + i) as u64));
                    sum += *b;
                }
                sum
            })
        })
        .collect();
    let total: u64 = handles.into_iter().map(|h| h.join().expect("thread")).sum();
    let n = (THREADS * PER_THREAD) as u64;
    assert_eq!(total, n * (n - 1) / 2);
    let d = AllocCounts::now().since(before);
    // Every box is counted; spawning and joining a thread allocates a little more.
    assert!(d.allocs >= n, "{} allocations counted, at least {n} made", d.allocs);
    assert!(
        d.allocs < n + (THREADS as u64) * 64,
        "{} allocations counted for {n}",
        d.allocs
    );
    assert!(d.bytes >= 8 * n, "{} bytes counted", d.bytes);
}
