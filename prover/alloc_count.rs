//! A counting global allocator: the runner installs it so synthesis can
//! report how many heap allocations and reallocations it made.
//!
//! The counters are per thread: each of the first 64 threads that
//! allocates owns a cache-line-sized shard that only it writes (a plain
//! load and store, no locked instruction); later threads share one extra
//! shard with atomic adds. A reading sums the shards. One shared counter
//! would be bumped by every allocation of every thread, and with several
//! partitions synthesized at once the cache line bouncing between cores
//! slowed the very synthesis being measured (2 partitions of `small` on 2
//! cores: 125 ms with one shared counter, 92 ms with shards).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Shards owned by one thread each; index `OWNED` is the shared one.
const OWNED: usize = 64;

/// One shard's counters, alone on its cache line(s).
#[repr(align(128))]
struct Shard {
    allocs: AtomicU64,
    reallocs: AtomicU64,
    bytes: AtomicU64,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: Shard = Shard {
    allocs: AtomicU64::new(0),
    reallocs: AtomicU64::new(0),
    bytes: AtomicU64::new(0),
};
static COUNTS: [Shard; OWNED + 1] = [EMPTY; OWNED + 1];
static NEXT_SHARD: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Const-initialized and without a destructor, so reading it inside the
    // allocator never allocates.
    static SHARD: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// This thread's shard index (`OWNED` = the shared shard).
fn shard() -> usize {
    SHARD
        .try_with(|s| {
            let mut i = s.get();
            if i == usize::MAX {
                i = NEXT_SHARD.fetch_add(1, Ordering::Relaxed).min(OWNED);
                s.set(i);
            }
            i
        })
        .unwrap_or(OWNED)
}

fn add(c: &AtomicU64, v: u64, owned: bool) {
    if owned {
        // Only this thread writes an owned shard: no read-modify-write needed.
        c.store(c.load(Ordering::Relaxed) + v, Ordering::Relaxed);
    } else {
        c.fetch_add(v, Ordering::Relaxed);
    }
}

fn count(alloc: bool, bytes: usize) {
    let i = shard();
    let (s, owned) = (&COUNTS[i], i < OWNED);
    add(if alloc { &s.allocs } else { &s.reallocs }, 1, owned);
    add(&s.bytes, bytes as u64, owned);
}

/// Wraps the system allocator and counts calls.
pub struct CountingAlloc;

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(true, layout.size());
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(true, layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(false, new_size);
        System.realloc(ptr, layout, new_size)
    }
}

/// Counter values at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AllocCounts {
    pub allocs: u64,
    pub reallocs: u64,
    pub bytes: u64,
}

impl AllocCounts {
    /// Sum over every thread's shard.
    pub fn now() -> Self {
        COUNTS.iter().fold(AllocCounts::default(), |a, s| AllocCounts {
            allocs: a.allocs + s.allocs.load(Ordering::Relaxed),
            reallocs: a.reallocs + s.reallocs.load(Ordering::Relaxed),
            bytes: a.bytes + s.bytes.load(Ordering::Relaxed),
        })
    }
    pub fn since(self, earlier: AllocCounts) -> AllocCounts {
        AllocCounts {
            allocs: self.allocs - earlier.allocs,
            reallocs: self.reallocs - earlier.reallocs,
            bytes: self.bytes - earlier.bytes,
        }
    }
}

/// Whether the counting allocator is installed (counts move when we allocate).
pub fn counting_active() -> bool {
    let before = AllocCounts::now();
    let v: Vec<u8> = Vec::with_capacity(64);
    std::hint::black_box(&v);
    drop(v);
    AllocCounts::now().allocs > before.allocs
}

/// Peak resident set size of this process (Linux VmHWM), if known.
pub fn peak_rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
