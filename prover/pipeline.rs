//! Partitions pipelined: a producer thread starts each partition's making
//! (synthesis) on a thread of its own once a permit allows, and the made
//! partitions reach the consumer (the calling thread) through a bounded
//! channel; it proves them in order while the next ones are made, several at
//! once when the depth allows. At most
//! `depth` partitions are alive at once, counting the one being made, those
//! waiting and the one being proven: a partition is admitted (a permit taken)
//! before it is made and leaves when its proof is done and it is dropped.
//!
//! The depth is fixed ([`Depth::Fixed`]) or follows from a memory budget and
//! the measured bytes of the first partition ([`Depth::Budget`]); the first
//! partition is made before the producer starts, so that measurement never
//! overlaps other work. Generic over what a partition is and how it is made
//! and proven: the runner (`crate::run`) plugs in synthesis and the driver.

use crate::error::ProverError;
use crate::mem_budget::MemBudget;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

/// How many partitions may be in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// This many (at least 1).
    Fixed(usize),
    /// As many as the budget holds, from the first partition's measured bytes.
    Budget(MemBudget),
}

/// The depth of `--pipeline on` without `--mem-budget`: one partition made
/// while one is proven.
pub const DEFAULT_DEPTH: usize = 2;

/// What a pipelined run did: its bound and how it was met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipelineStats {
    /// The bound on partitions in flight (never more than there are partitions).
    pub depth: usize,
    /// The budget it came from, when one was given.
    pub budget: Option<MemBudget>,
    /// The first partition's measured bytes.
    pub partition_bytes: u64,
    /// The most partitions that were in flight at once (counted, not timed).
    pub max_in_flight: usize,
}

/// Counts partitions in flight and remembers the most at once.
#[derive(Default)]
struct InFlight {
    now: AtomicUsize,
    max: AtomicUsize,
}

impl InFlight {
    fn enter(&self) {
        let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.max.fetch_max(n, Ordering::SeqCst);
    }
    fn leave(&self) {
        self.now.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Makes and proves partitions `0..n` in order, at most `depth` in flight;
/// `bytes_of` measures a made partition. Returns the proofs in partition
/// order. The first error (making or proving) stops both sides and is returned.
pub fn run<T: Send, P>(
    n: usize,
    depth: Depth,
    bytes_of: impl Fn(&T) -> u64,
    make: impl Fn(usize) -> Result<T, ProverError> + Sync,
    mut prove: impl FnMut(usize, T) -> Result<P, ProverError>,
) -> Result<(Vec<P>, PipelineStats), ProverError> {
    let in_flight = InFlight::default();
    if n == 0 {
        return Err(ProverError::InvalidArgument(
            "a pipeline needs at least one partition".into(),
        ));
    }
    in_flight.enter();
    let first = make(0)?;
    let partition_bytes = bytes_of(&first);
    let (d, budget) = match depth {
        Depth::Fixed(d) => (d.max(1), None),
        Depth::Budget(b) => (b.depth(partition_bytes)?, Some(b)),
    };
    let d = d.min(n);
    // Permits: one per partition allowed in flight, the first's already taken.
    let (permit_tx, permit_rx) = sync_channel::<()>(d);
    for _ in 1..d {
        permit_tx
            .send(())
            .map_err(|_| ProverError::Internal("pipeline permits".into()))?;
    }
    let (tx, rx) = sync_channel::<(usize, Result<T, ProverError>)>(d);
    let in_flight = &in_flight;
    let make = &make;
    let proofs = std::thread::scope(|sc| {
        let producer = std::thread::Builder::new()
            .name("pipeline-synth".into())
            .spawn_scoped(sc, move || produce(n, make, in_flight, permit_rx, tx))
            .map_err(|e| ProverError::Internal(format!("cannot start the pipeline's producer: {e}")))?;
        let consumed = consume(n, first, &mut prove, in_flight, permit_tx, rx);
        // The consumer's ends are dropped: a producer still waiting sees that and stops.
        producer
            .join()
            .map_err(|_| ProverError::Internal("the pipeline's producer panicked".into()))?;
        consumed
    })?;
    let stats = PipelineStats {
        depth: d,
        budget,
        partition_bytes,
        max_in_flight: in_flight.max.load(Ordering::SeqCst),
    };
    Ok((proofs, stats))
}

/// The producer: partitions `1..n`, each started on its own thread once a
/// permit is free, so up to `depth - 1` partitions are made at once while
/// the consumer proves; each result goes out tagged with its index. Stops
/// starting partitions after a failure (sent on) or when the consumer is gone.
fn produce<T: Send>(
    n: usize,
    make: &(impl Fn(usize) -> Result<T, ProverError> + Sync),
    in_flight: &InFlight,
    permits: Receiver<()>,
    out: SyncSender<(usize, Result<T, ProverError>)>,
) {
    let stop = AtomicBool::new(false);
    let stop = &stop;
    std::thread::scope(|sc| {
        for k in 1..n {
            if permits.recv().is_err() || stop.load(Ordering::SeqCst) {
                return;
            }
            in_flight.enter();
            let tx = out.clone();
            let started = std::thread::Builder::new()
                .name(format!("pipeline-synth-{k}"))
                .spawn_scoped(sc, move || {
                    let made = make(k);
                    if made.is_err() {
                        stop.store(true, Ordering::SeqCst);
                    }
                    if tx.send((k, made)).is_err() {
                        stop.store(true, Ordering::SeqCst);
                    }
                });
            if let Err(e) = started {
                let why = ProverError::Internal(format!("cannot start partition {k}'s synthesis: {e}"));
                let _ = out.send((k, Err(why)));
                return;
            }
        }
    });
}

/// The consumer: proves `first`, then partitions `1..n` in order as they
/// arrive (one made early waits its turn, still in flight), handing a
/// permit back after each proof.
fn consume<T, P>(
    n: usize,
    first: T,
    prove: &mut impl FnMut(usize, T) -> Result<P, ProverError>,
    in_flight: &InFlight,
    permits: SyncSender<()>,
    made: Receiver<(usize, Result<T, ProverError>)>,
) -> Result<Vec<P>, ProverError> {
    let mut proofs = Vec::with_capacity(n);
    let mut early: BTreeMap<usize, T> = BTreeMap::new();
    let mut next = Some(first);
    for k in 0..n {
        let part = match next.take() {
            Some(p) => p,
            None => loop {
                if let Some(p) = early.remove(&k) {
                    break p;
                }
                let (j, r) = made
                    .recv()
                    .map_err(|_| ProverError::Internal("the pipeline's producer stopped early".into()))?;
                early.insert(j, r?);
            },
        };
        proofs.push(prove(k, part)?);
        in_flight.leave();
        // The producer may be done already: a refused permit is no error.
        let _ = permits.send(());
    }
    Ok(proofs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Makes `n` partitions of `bytes` each under `depth`, checking the live
    /// count (made and not yet dropped) inside both sides.
    fn check(n: usize, depth: Depth, bytes: usize) -> PipelineStats {
        let live = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let (proofs, stats) = run(
            n,
            depth,
            |v: &Vec<u8>| v.capacity() as u64,
            |k| {
                let now = live.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                Ok(vec![k as u8; bytes])
            },
            |k, v| {
                assert_eq!(v[0], k as u8, "partitions arrive in order");
                drop(v);
                live.fetch_sub(1, Ordering::SeqCst);
                Ok(k)
            },
        )
        .unwrap();
        assert_eq!(proofs, (0..n).collect::<Vec<_>>());
        assert!(most.load(Ordering::SeqCst) <= stats.depth, "{stats:?}");
        assert!(
            stats.max_in_flight <= stats.depth && stats.max_in_flight >= 1,
            "{stats:?}"
        );
        stats
    }

    #[test]
    fn bounded_by_the_budget_and_in_order() {
        let s = check(6, Depth::Budget(MemBudget(2500)), 1000);
        assert_eq!((s.depth, s.partition_bytes), (2, 1000));
        assert_eq!(check(4, Depth::Budget(MemBudget(1000)), 1000).depth, 1);
        assert_eq!(
            check(3, Depth::Fixed(10), 8).depth,
            3,
            "never deeper than the partitions"
        );
        assert_eq!(check(1, Depth::Fixed(0), 8).depth, 1);
    }

    /// With depth 3 the two partitions after the first are made at once: the
    /// first proof waits (bounded) until both makers are inside `make`, which
    /// a producer making one at a time never reaches.
    #[test]
    fn partitions_after_the_first_are_made_concurrently() {
        let making = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let (_, stats) = run(
            3,
            Depth::Fixed(3),
            |_: &usize| 1,
            |k| {
                let now = making.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                if k > 0 {
                    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
                    while most.load(Ordering::SeqCst) < 2 && std::time::Instant::now() < until {
                        std::thread::yield_now();
                    }
                }
                making.fetch_sub(1, Ordering::SeqCst);
                Ok(k)
            },
            |_, k| Ok(k),
        )
        .unwrap();
        assert_eq!(most.load(Ordering::SeqCst), 2, "{stats:?}");
        assert!((2..=3).contains(&stats.max_in_flight), "{stats:?}");
    }

    #[test]
    fn a_budget_below_one_partition_is_refused() {
        let r = run(3, Depth::Budget(MemBudget(10)), |_: &u8| 11, |_| Ok(0u8), |_, _| Ok(()));
        assert!(matches!(
            r,
            Err(ProverError::OverBudget {
                budget: 10,
                partition: 11
            })
        ));
    }

    #[test]
    fn the_first_error_of_either_side_is_returned() {
        let r = run(
            5,
            Depth::Fixed(2),
            |_: &usize| 1,
            |k| {
                if k == 3 {
                    Err(ProverError::Synthesis("k3".into()))
                } else {
                    Ok(k)
                }
            },
            |_, k| Ok(k),
        );
        assert!(matches!(r, Err(ProverError::Synthesis(m)) if m == "k3"));
        let r = run(
            5,
            Depth::Fixed(2),
            |_: &usize| 1,
            Ok,
            |_, k| {
                if k == 1 {
                    Err(ProverError::Prove("k1".into()))
                } else {
                    Ok(k)
                }
            },
        );
        assert!(matches!(r, Err(ProverError::Prove(m)) if m == "k1"));
    }
}
