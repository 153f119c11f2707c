//! When a sieve's work is shared by the threads of the pool it runs on: from how many stored
//! patterns its shaping and tables are built by several threads, and from how many queries a
//! node's walk is handed over. Below these a node's work is too small to hand over.

use crate::spread::spare_workers;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Stored patterns from which a sieve's shaping and tables are shared by the threads of the
/// pool it is built on ([`shares`]): below it a node's work is too small to hand over.
static SHARED_PATTERNS: AtomicUsize = AtomicUsize::new(1 << 16);

/// The fewest queries per sieve node hands to another thread when it is counted by several
/// ([`walk_shared`]).
static SHARED_QUERIES: AtomicUsize = AtomicUsize::new(1 << 14);

/// The fewest queries per sieve node hands to another thread ([`SHARED_QUERIES`]).
pub(in crate::quadrants::matcher) fn shared_queries() -> usize {
    SHARED_QUERIES.load(Ordering::Relaxed)
}

/// Shares sieves from far fewer patterns and queries than a count does, so that the test that
/// checks the shared paths reaches them on small boards. Every other test, and every count,
/// runs with the thresholds above.
#[cfg(test)]
pub(crate) fn share_small_sieves() {
    SHARED_PATTERNS.store(1 << 10, Ordering::Relaxed);
    SHARED_QUERIES.store(1 << 7, Ordering::Relaxed);
}

/// Whether a sieve node of `stored` patterns shares its work with the free threads of the
/// pool it runs on: only where there are some ([`spare_workers`]: on one thread, or while
/// the run still has tasks for every worker, the code is the walk alone).
pub(in crate::quadrants::matcher) fn shares(stored: usize) -> bool {
    stored >= SHARED_PATTERNS.load(Ordering::Relaxed) && spare_workers()
}

/// How deep into a sieve a count of `queries` hands subtrees to the free threads of the
/// pool it runs on (`None`: one walk, on this thread): where there are some
/// ([`spare_workers`]), as deep as makes about eight subtrees per thread, so that threads that
/// finish early take more.
pub(in crate::quadrants::matcher) fn walk_shared(queries: usize) -> Option<usize> {
    let threads = rayon::current_num_threads();
    let depth = (8 * threads).next_power_of_two().trailing_zeros() as usize;
    (queries >= shared_queries() && spare_workers()).then_some(depth)
}
