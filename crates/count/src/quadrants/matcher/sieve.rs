//! The sieve in front of the matcher: the stored patterns split, again and again, on the bit
//! most often set on both sides, so that a query meets only the patterns it might not conflict
//! with, and each leaf's patterns matched on the bits that can still conflict there.
//!
//! A split on bit `b` puts the patterns without `b` on the left, met by every query, and those
//! with it on the right, met only by the queries without it: the pairs that share `b` are
//! never tested. Both sides of a split lose `b` as a possible conflict, so a leaf packs the
//! bits its patterns have, less the bits its queries were filtered on ([`Simd::extract`]),
//! which saves chunks of lookups. How deep to split is decided before any table is built
//! ([`super::shape`], by a cost model).
//!
//! [`Simd::extract`]: crate::arch::Simd::extract

pub use super::shape::{cost, Shaped};
use super::shape::{keep_patterns, shape, Shape, WithoutBits, MAX_DEPTH};
use super::sharing::{shared_queries, shares, walk_shared};
use super::{Matcher, BLOCK};
use crate::arch::{cpu, PerBuild, Simd, SimdBuild};
use rayon::prelude::*;

/// A node of the sieve, in preorder: a split's left child follows it.
#[derive(Debug, Clone)]
enum Node {
    /// No stored pattern.
    Empty,
    /// Patterns packed to the bits `live` ([`Simd::extract`]), matched by one [`Matcher`].
    Leaf { live: u64, matcher: Matcher },
    /// Split on `bit`: the next node holds the patterns without it, `right` those with it.
    Split { bit: u32, right: usize },
}

/// Stored patterns split on their bits into leaves, each a [`Matcher`] (see the module).
#[derive(Debug, Clone)]
pub struct Sieve {
    nodes: Vec<Node>,
    /// The bytes of its leaves' tables ([`Shaped::table_bytes`]).
    table_bytes: usize,
    /// The build its loops run in.
    build: SimdBuild,
}

/// Patterns packed to the bits `live`, in one build.
struct Pack<'a> {
    patterns: &'a [u64],
    live: u64,
}

impl PerBuild for Pack<'_> {
    type Out = Vec<u64>;
    #[inline(always)]
    fn run<S: Simd>(self, simd: S) -> Vec<u64> {
        self.patterns
            .iter()
            .map(|&p| simd.extract(p, self.live))
            .collect()
    }
}

impl Shaped {
    /// The sieve, its matchers built.
    pub fn build(self) -> Sieve {
        let table_bytes = self.table_bytes();
        let Shaped {
            build,
            bits,
            patterns: s,
            shapes,
        } = self;
        let node = |shape| match shape {
            Shape::Empty => Node::Empty,
            Shape::Split { bit, right } => Node::Split { bit, right },
            Shape::Leaf { range, live } => {
                let patterns = &s[range];
                let matcher = if live == u64::MAX {
                    Matcher::new(build, patterns, bits)
                } else {
                    let packed = build.run(Pack { patterns, live });
                    Matcher::new(build, &packed, live.count_ones())
                };
                Node::Leaf { live, matcher }
            }
        };
        // Each leaf's tables on their own: on a pool of several threads, its free threads
        // build them (a large sieve's tables are a third of its row set's time at N = 27).
        let nodes = if shares(s.len()) {
            shapes.into_par_iter().with_max_len(16).map(node).collect()
        } else {
            shapes.into_iter().map(node).collect()
        };
        keep_patterns(s);
        Sieve {
            nodes,
            table_bytes,
            build,
        }
    }
}

impl Sieve {
    /// Stores `stored` (patterns of `bits` bits) for matching in `build`, split on the bits
    /// set most often in both it and `queries` (the queries to come, or a sample of them).
    pub fn new(build: SimdBuild, stored: &[u64], queries: &[u64], bits: u32) -> Sieve {
        Sieve::expecting(build, stored, queries, queries.len(), bits)
    }

    /// [`Sieve::new`] from a sample of the queries to come, `expected` of them in all (more
    /// queries make deeper splits pay).
    pub fn expecting(
        build: SimdBuild,
        stored: &[u64],
        queries: &[u64],
        expected: usize,
        bits: u32,
    ) -> Sieve {
        Sieve::shape(build, stored, queries, expected, bits).build()
    }

    /// [`Sieve::expecting`]'s first half: the patterns split into leaves, their matchers not
    /// yet built, so that what their tables will hold is known first ([`Shaped::table_bytes`]).
    pub fn shape(
        build: SimdBuild,
        stored: &[u64],
        queries: &[u64],
        expected: usize,
        bits: u32,
    ) -> Shaped {
        shape(build, stored, queries, expected, bits)
    }

    /// An upper bound, for memory estimates, of the blocks of tables per sieve of `stored`
    /// patterns builds: a leaf of `k` patterns holds `ceil(k / BLOCK)` blocks; a sieve of one
    /// leaf holds `ceil(stored / BLOCK)`, and in a split one every leaf holds at least
    /// `MIN_LEAF` = `BLOCK / 2` patterns, so at most `k / MIN_LEAF` blocks
    /// (`ceil(x) <= 2x` for `x >= 1/2`), `stored / MIN_LEAF` in all.
    pub fn blocks_bound(stored: usize) -> usize {
        2 * stored.div_ceil(BLOCK)
    }

    /// The number of (stored, query) pairs with no bit in common. On a pool of several
    /// threads, the sieve's top splits hand their branches to its free threads
    /// ([`walk_shared`]): the sieve is read by all of them, built once, and each query list
    /// still walks each node once. (A thread alone counts them in one walk.)
    pub fn count(&self, queries: &[u64]) -> u64 {
        self.count_batched(queries, self.walk_queries())
    }

    /// The most queries one walk through this sieve takes: as many as fill half the level-2
    /// cache ([`walk_queries`]), and at least an eighth as many bytes of them as its tables
    /// hold, since each walk reads the tables again. A large sieve is walked in one or two
    /// goes: one of N = 27 holds 63 to 311 MiB of tables (walks of 131,072 queries made a
    /// task 1.30 times as long; walks bounded so, 1.00).
    fn walk_queries(&self) -> usize {
        walk_queries().max(self.table_bytes / 64)
    }

    /// [`Sieve::count`] with walks of at most `batch` queries each.
    fn count_batched(&self, queries: &[u64], batch: usize) -> u64 {
        match walk_shared(queries.len()) {
            Some(depth) => self.count_shared(0, queries, depth, batch),
            None => self.count_from(0, queries, batch),
        }
    }

    /// The pairs of the subtree at node `at` with `queries`, its splits down to `depth` more
    /// levels handing their branches to the pool's free threads.
    fn count_shared(&self, at: usize, queries: &[u64], depth: usize, batch: usize) -> u64 {
        match &self.nodes[at] {
            Node::Split { bit, right } if depth > 0 && queries.len() >= shared_queries() => {
                let lacking = self.build.run(WithoutBits {
                    queries,
                    bits: 1 << bit,
                });
                #[cfg(test)]
                SHARED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let (left, right) = rayon::join(
                    || self.count_shared(at + 1, queries, depth - 1, batch),
                    || self.count_shared(*right, &lacking, depth - 1, batch),
                );
                left + right
            }
            _ => self.count_from(at, queries, batch),
        }
    }

    /// The pairs of the subtree at node `at` with `queries`, on this thread, in walks of at
    /// most `batch` queries.
    fn count_from(&self, at: usize, queries: &[u64], batch: usize) -> u64 {
        let walk = |queries| {
            self.build.run(CountAll {
                sieve: self,
                root: at,
                queries,
            })
        };
        queries.chunks(batch.max(1)).map(walk).sum()
    }

    /// [`Sieve::count`]'s walk, in one build: a loop with a stack, not a recursion, so that
    /// it is inlined into the build's function with the matcher's loops. A stack entry is a
    /// node and its queries' list (0: `queries`, `k`: `buffers[k - 1]`). Each split filters
    /// its list for its right branch into the next buffer; the right branch is walked first,
    /// so the left one finds its parent's list intact.
    #[inline(always)]
    fn walk<S: Simd>(
        &self,
        simd: S,
        root: usize,
        queries: &[u64],
        buffers: &mut [Vec<u64>],
    ) -> u64 {
        let mut total = 0;
        let mut stack = vec![(root, 0usize)];
        while let Some((at, list)) = stack.pop() {
            let (below, above) = buffers.split_at_mut(list);
            let qs = if list == 0 { queries } else { &below[list - 1] };
            if qs.is_empty() {
                continue;
            }
            match &self.nodes[at] {
                Node::Empty => {}
                Node::Leaf { live, matcher } => {
                    debug_assert_eq!(matcher.build(), self.build);
                    total += matcher.count_in_build(simd, qs, *live);
                }
                Node::Split { bit, right } => {
                    simd.keep_lacking(qs, 1 << bit, &mut above[0]);
                    stack.push((at + 1, list));
                    stack.push((*right, list + 1));
                }
            }
        }
        total
    }
}

/// The most queries one walk through a sieve of small tables takes ([`Sieve::walk_queries`]).
/// A walk's lists (its queries, and what each split on the way down keeps for its right
/// branch, each a part of its parent's) are read again after the walk comes back up: the
/// left branch reads its parent's list after the whole right subtree. Counted in walks of at
/// most this many, those lists are mostly still in the level-2 cache then; one walk of all
/// the queries (tens of MB near the root at N = 26 to 28) read them back from the level-3
/// cache or memory at every split of a left spine (in a simulation of a Zen 3's 512 KiB L2,
/// walks of 32,768 queries missed it 46% less often at N = 22). Each walk fetches the
/// leaves' tables again, so the walks are no smaller than they need be
/// ([`Sieve::walk_queries`] bounds them by the tables too): queries of 8 bytes filling half
/// the cache ([`cpu::l2_bytes`]; 1 MiB where the system does not say), at least
/// [`MIN_WALK_QUERIES`].
fn walk_queries() -> usize {
    static QUERIES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *QUERIES.get_or_init(|| queries_for_cache(cpu::l2_bytes()))
}

/// The fewest queries of a walk ([`walk_queries`]): a leaf's tables (12 to 25 KiB a pair of
/// blocks) are fetched once a walk, so a walk brings them thousands of queries.
const MIN_WALK_QUERIES: usize = 1 << 14;

/// The queries of a walk on a CPU whose level-2 cache holds `l2` bytes.
fn queries_for_cache(l2: Option<usize>) -> usize {
    (l2.unwrap_or(1 << 20) / 16).max(MIN_WALK_QUERIES)
}

/// Splits whose branches a count handed to the pool ([`Sieve::count_shared`]): how the tests
/// know they reached that path.
#[cfg(test)]
pub(crate) static SHARED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// [`Sieve::count_from`] in one build.
struct CountAll<'a> {
    sieve: &'a Sieve,
    root: usize,
    queries: &'a [u64],
}

impl PerBuild for CountAll<'_> {
    type Out = u64;
    #[inline(always)]
    fn run<S: Simd>(self, simd: S) -> u64 {
        let mut buffers = LISTS.with(|l| l.take());
        buffers.resize_with(MAX_DEPTH + 1, Vec::new);
        let found = self.sieve.walk(simd, self.root, self.queries, &mut buffers);
        // A thread that is exiting has no lists to keep them in: they are freed.
        let _ = LISTS.try_with(|l| *l.borrow_mut() = buffers);
        found
    }
}

thread_local! {
    /// The query lists of this thread's last count through a sieve, kept for its next one:
    /// the lists near the root hold most of the queries (tens of MB at N = 26-28), which
    /// glibc maps on their own and unmaps when they are freed, so that every count faulted
    /// them in again. The memory estimate counts them already (`Sizes::bytes_per_key`).
    static LISTS: std::cell::RefCell<Vec<Vec<u64>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The number of (stored, query) pairs with no bit in common, through a [`Sieve`] in `build`.
pub fn count_disjoint(build: SimdBuild, stored: &[u64], queries: &[u64], bits: u32) -> u64 {
    Sieve::new(build, stored, queries, bits).count(queries)
}

#[cfg(test)]
mod tests {
    use super::super::shape::CUT_MIN;
    use super::super::testing::{plain, Sparse};
    use super::*;

    /// Sieved counts (splits, packed leaves) in every build against a plain count.
    #[test]
    fn sieved_counts_match_the_plain_count() {
        for build in crate::quadrants::builds() {
            let mut next = Sparse::new();
            for len in [0usize, 600, 3000, 9000, 40_000] {
                let p: Vec<u64> = (0..len).map(|_| next.bits(34)).collect();
                let q: Vec<u64> = (0..300).map(|_| next.bits(34)).collect();
                assert_eq!(
                    count_disjoint(build, &p, &q, 34),
                    plain(&p, &q),
                    "{}: sieved, len {len}",
                    build.name()
                );
            }
            // Bits no stored pattern has (packed out of the leaves), set in queries; a sieve
            // shaped on one sample and asked about other queries.
            for (len, dead) in [
                (40usize, 0x0003_0000_0F00u64),
                (3000, 0x0000_0404_0000),
                (20_000, 0x3F),
            ] {
                let p: Vec<u64> = (0..len).map(|_| next.bits(38) & !dead).collect();
                let q: Vec<u64> = (0..3000)
                    .map(|_| next.bits(38) | (next.bits(38) & dead))
                    .collect();
                assert_eq!(
                    count_disjoint(build, &p, &q, 38),
                    plain(&p, &q),
                    "{}: dead {dead:x}",
                    build.name()
                );
                // (A sample this small leaves some branches without sampled queries.)
                let sieve = Sieve::new(build, &p, &q[..100], 38);
                assert_eq!(sieve.count(&q[100..]), plain(&p, &q[100..]));
                assert_eq!(sieve.count(&[]), 0);
                // Walks of a few queries each count the same.
                for batch in [1, 7, 1000] {
                    assert_eq!(sieve.count_batched(&q, batch), plain(&p, &q), "{batch}");
                }
            }
        }
    }

    /// A walk's queries fill half the level-2 cache, bring a leaf's tables enough, and are
    /// at least an eighth as many bytes as the sieve's tables, which each walk reads again.
    #[test]
    fn walks_fill_half_the_level_2_cache_unless_the_tables_are_larger() {
        assert_eq!(queries_for_cache(Some(512 << 10)), 32_768);
        assert_eq!(queries_for_cache(Some(2 << 20)), 131_072);
        assert_eq!(queries_for_cache(None), 65_536);
        assert_eq!(queries_for_cache(Some(64 << 10)), MIN_WALK_QUERIES);
        assert!(walk_queries() >= MIN_WALK_QUERIES);
        let mut next = Sparse::new();
        let build = crate::quadrants::builds()[0];
        for (stored, large) in [(600, false), (400_000, true)] {
            let p: Vec<u64> = (0..stored).map(|_| next.bits(38)).collect();
            let q: Vec<u64> = (0..3000).map(|_| next.bits(38)).collect();
            let sieve = Sieve::new(build, &p, &q, 38);
            assert!(sieve.walk_queries() * 64 >= sieve.table_bytes);
            assert_eq!(sieve.walk_queries() > walk_queries(), large, "{stored}");
        }
    }

    /// The sieve's nodes as plain values: a split's bit and right index, or a leaf's live
    /// bits, chunks and tables.
    type Outline = Vec<(
        u32,
        usize,
        u64,
        Vec<super::super::counters::Pair>,
        Vec<super::super::counters::Lanes>,
    )>;
    fn outline(sieve: &Sieve) -> Outline {
        sieve
            .nodes
            .iter()
            .map(|n| match n {
                Node::Empty => (0, 0, 0, Vec::new(), Vec::new()),
                Node::Split { bit, right } => (*bit, *right, 0, Vec::new(), Vec::new()),
                Node::Leaf { live, matcher } => (
                    u32::MAX,
                    matcher.chunks,
                    *live,
                    matcher.pairs.clone(),
                    matcher.single.clone(),
                ),
            })
            .collect()
    }

    /// A sieve shaped, built and counted by the threads of a pool (its splits' sides shaped
    /// at once, its leaves' tables built at once, its top splits' branches walked at once) is
    /// the sieve one thread builds, node for node and byte for byte, and counts what one
    /// thread counts, in every build.
    #[test]
    fn a_sieve_shared_by_a_pool_is_the_one_a_thread_builds() {
        super::super::share_small_sieves();
        let pool = |t| crate::engine::pool(t).unwrap();
        let (one, four) = (pool(1), pool(4));
        for build in crate::quadrants::builds() {
            let mut next = Sparse::new();
            let p: Vec<u64> = (0..40_000).map(|_| next.bits(36)).collect();
            let q: Vec<u64> = (0..6_000).map(|_| next.bits(36)).collect();
            let alone = one.install(|| Sieve::expecting(build, &p, &q, 1 << 20, 36));
            let shared = four.install(|| Sieve::expecting(build, &p, &q, 1 << 20, 36));
            let splits = alone
                .nodes
                .iter()
                .filter(|n| matches!(n, Node::Split { .. }));
            assert!(splits.count() > 16, "{}: too few splits", build.name());
            assert!(outline(&alone) == outline(&shared), "{}", build.name());
            let before = SHARED.load(std::sync::atomic::Ordering::Relaxed);
            let want = plain(&p, &q);
            assert_eq!(one.install(|| alone.count(&q)), want, "{}", build.name());
            assert_eq!(four.install(|| shared.count(&q)), want, "{}", build.name());
            assert_eq!(
                four.install(|| alone.count(&q[..1000])),
                plain(&p, &q[..1000])
            );
            assert!(SHARED.load(std::sync::atomic::Ordering::Relaxed) > before);
        }
    }

    /// A branch the sample never reaches still counts the queries that do reach it: here
    /// every sampled query has bit 0 and half the patterns do, so the split on it leaves its
    /// right branch no sample (a first version made that branch empty and lost its pairs).
    #[test]
    fn branches_without_sampled_queries_still_count() {
        for build in crate::quadrants::builds() {
            let mut next = Sparse::new();
            let p: Vec<u64> = (0..20_000u64).map(|i| next.bits(36) & !1 | i & 1).collect();
            let sample: Vec<u64> = (0..2000).map(|_| next.bits(36) | 1).collect();
            let q: Vec<u64> = (0..500).map(|_| next.bits(36) & !1).collect();
            let sieve = Sieve::new(build, &p, &sample, 36);
            assert!(sieve.nodes.len() > 1, "{}: not split", build.name());
            assert_eq!(sieve.count(&q), plain(&p, &q), "{}", build.name());
            assert_eq!(sieve.count(&sample), plain(&p, &sample), "{}", build.name());
        }
    }

    /// The sieve splits large stored sides (and not small ones), and its leaves pack bits.
    #[test]
    fn large_sides_are_split_and_leaves_packed() {
        let mut next = Sparse::new();
        let p: Vec<u64> = (0..40_000).map(|_| next.bits(40)).collect();
        let q: Vec<u64> = (0..40_000).map(|_| next.bits(40)).collect();
        for build in crate::quadrants::builds() {
            let sieve = Sieve::new(build, &p, &q, 40);
            let splits = sieve
                .nodes
                .iter()
                .filter(|n| matches!(n, Node::Split { .. }))
                .count();
            assert!(splits >= 8, "{}: {splits} splits", build.name());
            let packed = sieve
                .nodes
                .iter()
                .any(|n| matches!(n, Node::Leaf { live, .. } if *live != u64::MAX));
            assert_eq!(packed, build.extracts(), "{}", build.name());
            let small = Sieve::new(build, &p[..CUT_MIN - 1], &q, 40);
            assert_eq!(small.nodes.len(), 1, "{}", build.name());
            let blocks: usize = sieve
                .nodes
                .iter()
                .map(|n| match n {
                    Node::Leaf { matcher, .. } => matcher.blocks(),
                    _ => 0,
                })
                .sum();
            assert!(blocks <= Sieve::blocks_bound(p.len()), "{}", build.name());
            for n in &sieve.nodes {
                if let Node::Leaf { matcher, .. } = n {
                    assert!(matcher.blocks() >= 1);
                }
            }
        }
    }
}
