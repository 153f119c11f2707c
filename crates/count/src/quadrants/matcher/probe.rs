//! A probe of the sieves per thread builds, for measurements only (the `probe` feature; a build
//! without it has none of this code on its counting path): while a thread's probe is on, each
//! even board's east slot that the thread matches through a sieve offers that sieve's leaf
//! work ([`LeafWork`]) and what the CPU counted of it, so that a measurement can count the
//! pattern tests per solution and the leaves per query, and the GPU room's leaves prototype
//! can match a real sieve (`examples/leaves_on_gpu.rs`).

use super::leaves::LeafWork;
use super::shape::Shaped;

/// The largest leaf work a thread met while its tap was on ([`probe`]): a real row set's
/// sieve and queries, with what the CPU's sieve counted of them and in how long.
#[derive(Debug, Clone)]
pub struct Probed {
    /// The leaves and their queries.
    pub work: LeafWork,
    /// The stored patterns and the queries (before the splits) it came from.
    pub stored: usize,
    /// The queries matched.
    pub queries: usize,
    /// The pairs the CPU's sieve found disjoint.
    pub found: u64,
    /// The seconds the CPU's sieve took to count them, on this thread.
    pub cpu_seconds: f64,
}

/// Every sieve a thread's probe was offered, added up.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ProbeTotals {
    /// The sieves.
    pub sieves: usize,
    /// Their pattern tests.
    pub pattern_tests: u128,
    /// The bytes their leaf work would take to the GPU ([`LeafWork::bytes`]).
    pub bytes: u128,
    /// Their stored patterns and queries (each once, before the splits).
    pub stored_and_queries: u128,
    /// Their queries (each once).
    pub queries: u128,
    /// The leaves their queries entered, added up over the queries.
    pub leaf_queries: u128,
    /// The seconds the CPU's sieves took to count them.
    pub cpu_seconds: f64,
}

/// What a thread's probe holds: the largest leaf work offered, and all of them added up.
#[derive(Debug, Clone, Default)]
pub struct Probe {
    /// The leaf work with the most pattern tests offered.
    pub largest: Option<Probed>,
    /// Every sieve offered, added up.
    pub totals: ProbeTotals,
}

thread_local! {
    static PROBE: std::cell::RefCell<Option<Probe>> = const { std::cell::RefCell::new(None) };
}

/// Turns this thread's probe on (emptied) or off: while it is on, the even boards' sieves this
/// thread counts offer their leaf work ([`offer`]), and the one with the most pattern tests is
/// kept for [`probed`]. For measurements (`examples/leaves_on_gpu.rs`); off,
/// counting is as before.
pub fn probe(on: bool) {
    PROBE.with(|t| *t.borrow_mut() = on.then(Probe::default));
}

/// Whether this thread's probe is on.
pub fn probing() -> bool {
    PROBE.with(|t| t.borrow().is_some())
}

/// Offers a sieve's leaf work and what the CPU counted of it to this thread's probe: kept if
/// it has more pattern tests than the one kept.
pub fn offer(t: Probed) {
    PROBE.with(|k| {
        if let Some(Probe {
            largest: kept,
            totals,
        }) = k.borrow_mut().as_mut()
        {
            let tests = t.work.pattern_tests();
            totals.sieves += 1;
            totals.pattern_tests += tests;
            totals.bytes += t.work.bytes() as u128;
            totals.stored_and_queries += (t.stored + t.queries) as u128;
            totals.queries += t.queries as u128;
            totals.leaf_queries += t.work.queries.len() as u128;
            totals.cpu_seconds += t.cpu_seconds;
            if kept.as_ref().is_none_or(|x| x.work.pattern_tests() < tests) {
                *kept = Some(t);
            }
        }
    });
}

/// The largest leaf work this thread's probe kept, and every sieve offered added up (`None`
/// while the tap is off).
pub fn probed() -> Option<Probe> {
    PROBE.with(|t| t.borrow().clone())
}

/// The weighed count through `shaped` of the west slots `slots` (weight, queries) that the
/// pair matcher would make, each slot's leaf work offered to this thread's probe ([`offer`]).
pub fn count_offering<'a>(
    shaped: Shaped,
    stored: usize,
    slots: impl Iterator<Item = (u128, &'a Vec<u64>)>,
) -> u128 {
    let slots: Vec<_> = slots.collect();
    let works: Vec<_> = slots.iter().map(|(_, q)| shaped.leaf_work(q)).collect();
    let sieve = shaped.build();
    let mut total = 0;
    for ((weight, queries), work) in slots.into_iter().zip(works) {
        let start = std::time::Instant::now();
        let found = sieve.count(queries);
        offer(Probed {
            work,
            stored,
            queries: queries.len(),
            found,
            cpu_seconds: start.elapsed().as_secs_f64(),
        });
        total += weight * u128::from(found);
    }
    total
}
