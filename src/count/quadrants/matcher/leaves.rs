//! The quadrant method's leaves matched on a GPU: a prototype (issue 59; the case for it in
//! docs/guide/gpu.md). The CPU keeps what it does well, the sieve's splits: a sieve's leaves,
//! each with the queries its splits let in ([`Shaped::leaf_work`]), are laid out for the
//! leaves kernel (`leaves.cu`: a thread a query, over its leaf's bit-sliced blocks of 256
//! patterns), which counts the pairs with no bit in common. The kernel's source is compiled
//! for this CPU by `build.rs` ([`LeafWork::count_cpu`], what the tests run against the CPU
//! matcher) and for the GPU at run time (the `gpu` feature's `leaves_device`).

use super::shape::{Shape, Shaped};
use super::{slices, BLOCK};

/// The words a block of [`BLOCK`] patterns takes in [`LeafWork::sliced`]: for each of the 64
/// bit positions, four words (one bit a pattern: it lacks the bit), then the block's
/// valid-pattern words.
pub const BLOCK_WORDS: usize = 65 * 4;

/// A leaf in [`LeafWork::sliced`]: its blocks, from block `first` on. Laid out as `leaves.cu`'s
/// `struct nq_leaf`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Leaf {
    /// Its first block.
    pub first: u32,
    /// Its blocks.
    pub blocks: u32,
}

/// A sieve's leaves and the queries that reach each, laid out for the leaves kernel: what
/// would cross to the GPU for one sieve and one list of queries.
#[derive(Debug, Default, Clone)]
pub struct LeafWork {
    /// Every leaf's patterns, bit-sliced, [`BLOCK_WORDS`] words a block.
    pub sliced: Vec<u64>,
    /// The leaves that some query reaches.
    pub leaves: Vec<Leaf>,
    /// The queries, each as many times as it reaches a leaf, masked to the bits that can
    /// still conflict there; a leaf's are next to each other.
    pub queries: Vec<u64>,
    /// Each query's leaf (an index of `leaves`).
    pub leaf_of: Vec<u32>,
}

extern "C" {
    fn nq_match_leaves_cpu(
        sliced: *const u64,
        leaves: *const Leaf,
        queries: *const u64,
        leaf_of: *const u32,
        count: u32,
        found: *mut u64,
    );
}

impl LeafWork {
    /// The (pattern, query) tests the kernel makes: each query against every pattern slot
    /// of its leaf's blocks (a last block's empty slots included, as the CPU matcher's).
    pub fn pattern_tests(&self) -> u128 {
        let leaf_tests = |&l: &u32| u128::from(self.leaves[l as usize].blocks) * BLOCK as u128;
        self.leaf_of.iter().map(leaf_tests).sum()
    }

    /// The bytes the work takes on the GPU (what crosses PCIe for it), the counts it sends
    /// back (8 bytes a query) included.
    pub fn bytes(&self) -> usize {
        8 * self.sliced.len() + 8 * self.leaves.len() + (8 + 4 + 8) * self.queries.len()
    }

    /// The pairs with no bit in common, counted by the leaves kernel compiled for this CPU
    /// (slow: one query at a time; it checks the kernel's logic).
    pub fn count_cpu(&self) -> u64 {
        let count = u32::try_from(self.queries.len()).expect("fewer than 2^32 queries");
        let mut found = vec![0u64; self.queries.len()];
        // SAFETY: the kernel reads `count` queries and leaf indices, every index below
        // `leaves.len()` and every leaf's blocks within `sliced` (by `Shaped::leaf_work`),
        // and writes `count` counts; `Leaf` is `repr(C)` as `leaves.cu` declares it.
        unsafe {
            nq_match_leaves_cpu(
                self.sliced.as_ptr(),
                self.leaves.as_ptr(),
                self.queries.as_ptr(),
                self.leaf_of.as_ptr(),
                count,
                found.as_mut_ptr(),
            );
        }
        found.iter().sum()
    }

    /// Appends a leaf of `patterns` (at least one) and returns its index.
    fn push_leaf(&mut self, patterns: &[u64]) -> u32 {
        let first = (self.sliced.len() / BLOCK_WORDS) as u32;
        for block in patterns.chunks(BLOCK) {
            let (slice, valid) = slices(block);
            for s in &slice[..64] {
                self.sliced.extend_from_slice(&s.0);
            }
            self.sliced.extend_from_slice(&valid.0);
        }
        let blocks = patterns.len().div_ceil(BLOCK) as u32;
        self.leaves.push(Leaf { first, blocks });
        (self.leaves.len() - 1) as u32
    }
}

/// The largest leaf work a thread met while its tap was on ([`tap`]): a real row set's
/// sieve and queries, with what the CPU's sieve counted of them and in how long.
#[derive(Debug, Clone)]
pub struct Tapped {
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

/// Every sieve a thread's tap was offered, added up.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TapTotals {
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

/// A thread's tap: the largest leaf work offered, and all of them added up.
type Tap = (Option<Tapped>, TapTotals);

thread_local! {
    static TAP: std::cell::RefCell<Option<Tap>> = const { std::cell::RefCell::new(None) };
}

/// Turns this thread's tap on (emptied) or off: while it is on, the even boards' sieves this
/// thread counts offer their leaf work ([`offer`]), and the one with the most pattern tests is
/// kept for [`tapped`]. For the GPU prototype's measurements (`examples/leaves_on_gpu.rs`);
/// off, counting is as before.
pub fn tap(on: bool) {
    TAP.with(|t| *t.borrow_mut() = on.then(Tap::default));
}

/// Whether this thread's tap is on.
pub fn tapping() -> bool {
    TAP.with(|t| t.borrow().is_some())
}

/// Offers a sieve's leaf work and what the CPU counted of it to this thread's tap: kept if
/// it has more pattern tests than the one kept.
pub fn offer(t: Tapped) {
    TAP.with(|k| {
        if let Some((kept, totals)) = k.borrow_mut().as_mut() {
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

/// The largest leaf work this thread's tap kept, and every sieve offered added up (`None`
/// while the tap is off).
pub fn tapped() -> Option<(Option<Tapped>, TapTotals)> {
    TAP.with(|t| t.borrow().clone())
}

impl Shaped {
    /// The sieve's leaves that `queries` reach, each with the queries its splits let in
    /// (masked to its live bits), laid out for the leaves kernel: the sieve's walk, done on
    /// the CPU, with each leaf's matching left to the kernel.
    pub fn leaf_work(&self, queries: &[u64]) -> LeafWork {
        let mut work = LeafWork::default();
        let mut stack = vec![(0usize, queries.to_vec())];
        while let Some((at, qs)) = stack.pop() {
            if qs.is_empty() {
                continue;
            }
            match &self.shapes[at] {
                Shape::Empty => {}
                Shape::Split { bit, right } => {
                    let lacking = qs.iter().copied().filter(|q| q >> bit & 1 == 0).collect();
                    stack.push((*right, lacking));
                    stack.push((at + 1, qs));
                }
                Shape::Leaf { range, live } => {
                    let leaf = work.push_leaf(&self.patterns[range.clone()]);
                    work.queries.extend(qs.iter().map(|q| q & live));
                    work.leaf_of.extend(std::iter::repeat_n(leaf, qs.len()));
                }
            }
        }
        work
    }
}

#[cfg(test)]
mod tests {
    use super::super::sieve::Sieve;
    use super::super::testing::{plain, Sparse};
    use super::*;

    /// The leaves kernel, compiled for this CPU, counts what the CPU's sieve and a plain count
    /// do, on sieves of one leaf and of many (split and packed), in every build, and makes
    /// the pattern tests its layout says.
    #[test]
    fn the_leaves_kernel_counts_as_the_cpu_matcher_does() {
        for build in crate::count::quadrants::builds() {
            let mut next = Sparse::new();
            for (len, bits) in [
                (0usize, 42u32),
                (1, 42),
                (300, 42),
                (40_000, 42),
                (20_000, 56),
            ] {
                let p: Vec<u64> = (0..len).map(|_| next.bits(bits)).collect();
                let q: Vec<u64> = (0..3000).map(|_| next.bits(bits)).collect();
                let shaped = Sieve::shape(build, &p, &q[..500], q.len(), bits);
                let work = shaped.leaf_work(&q);
                let want = plain(&p, &q);
                assert_eq!(work.count_cpu(), want, "{}: {len} of {bits}", build.name());
                assert_eq!(shaped.build().count(&q), want);
                let tests: u128 = work
                    .leaf_of
                    .iter()
                    .map(|&l| 256 * u128::from(work.leaves[l as usize].blocks))
                    .sum();
                assert_eq!(work.pattern_tests(), tests);
                if len >= 40_000 {
                    assert!(work.leaves.len() > 8, "{}: not split", build.name());
                    // The splits keep most pairs out: fewer tests than every pair.
                    assert!(work.pattern_tests() < (len * q.len()) as u128);
                }
            }
        }
    }

    /// `struct nq_leaf` is 8 bytes, as `Leaf`.
    #[test]
    fn the_leaf_layout_is_the_kernels() {
        assert_eq!(std::mem::size_of::<Leaf>(), 8);
        assert_eq!(std::mem::align_of::<Leaf>(), 4);
    }
}
