//! The sieve in front of the matcher: the stored patterns split, again and again, on the bit
//! most often set on both sides, so that a query meets only the patterns it might not conflict
//! with, and each leaf's patterns matched on the bits that can still conflict there.
//!
//! A split on bit `b` puts the patterns without `b` on the left, met by every query, and those
//! with it on the right, met only by the queries without it: the pairs that share `b` are
//! never tested. Both sides of a split lose `b` as a possible conflict, so a leaf packs the
//! bits its patterns have, less the bits its queries were filtered on ([`Simd::extract`]),
//! which saves chunks of lookups. A cost model (block visits, filtering, table building)
//! decides how deep to split; the bits' frequencies are sampled at every node, so each split
//! takes the bit that pays best where it is.
//!
//! [`Simd::extract`]: crate::count::quadrants::arch::Simd::extract

use super::{chunks_for, Matcher, BLOCK};
use crate::count::quadrants::arch::{keep_lacking_portable, Build, Simd, Work};
use std::ops::Range;

/// Stored patterns below which the sieve does not split (one matcher, no sampling).
pub const CUT_MIN: usize = 16 * BLOCK;

/// The deepest split (each level adds one query buffer to a count).
const MAX_DEPTH: usize = 24;

/// The fewest patterns on either side of a split: so a sieve's leaves hold at least this
/// many (but for a sieve of one leaf), and its blocks are at most 2 per `BLOCK` patterns
/// ([`Sieve::blocks_bound`]).
const MIN_LEAF: usize = BLOCK / 2;

/// The most queries kept as the sample that steers the splits.
const SAMPLE: usize = 2048;

/// Patterns per side whose bits a node counts to choose its split.
const FREQ_SAMPLE: usize = 128;

/// Sampled queries below which a node is not split (its frequencies would be noise).
const MIN_SAMPLE: usize = 16;

/// The cost model, in operations (one is about 0.06 ns on the Zen 5 it was measured on): a
/// query visiting a block (a base and a lookup per chunk, 2 ns with 6 chunks), a query
/// filtered at a split (1 ns), a query entering a leaf, a block's tables built (2.2 µs, with
/// its patterns packed), a pattern partitioned at a split while the sieve is shaped (3 ns).
const VISIT: f64 = 6.0;
const VISIT_CHUNK: f64 = 4.5;
const FILTER: f64 = 16.0;
const LEAF: f64 = 5.0;
const BUILD: f64 = 36_000.0;
const SHAPE: f64 = 50.0;

/// What a leaf's visit costs with 6 chunks (its usual size), and how a split sieve's cost
/// per query grows with its blocks `b`: about `SPLIT_COST * b^SPLIT_GROWTH` (each level of
/// splits leaves 3/4 of the block visits and filters 3/2 of the queries, with leaves of up to
/// 2 blocks: `log2 1.5` is 0.585; on half-boards of N = 22 the model said 41.6 visits and 41.7
/// filtered per query where the sieve made 44.8 and 44.3).
const VISIT_6: f64 = VISIT + 6.0 * VISIT_CHUNK;
const SPLIT_COST: f64 = 1.33 * VISIT_6 + 2.0 * 0.67 * FILTER;
const SPLIT_GROWTH: f64 = 0.585;

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
    /// The build its loops run in.
    build: Build,
}

/// The shape of a sieve before its matchers are built: a leaf is a range of the partitioned
/// patterns.
enum Shape {
    Empty,
    Leaf { range: Range<usize>, live: u64 },
    Split { bit: u32, right: usize },
}

/// What shaping a sieve needs to know.
struct Shaper {
    /// Whether leaves pack their live bits ([`Build::extracts`]).
    extracts: bool,
    /// The patterns' bits.
    bits: u32,
    /// Queries each sampled query stands for.
    weight: f64,
    shapes: Vec<Shape>,
}

impl Shaper {
    /// Shapes the patterns `s` (starting at `at` of all of them, partitioned in place), met
    /// by the queries `sample` stands for, which all lack the bits `right`; returns the
    /// expected cost of its subtree. (An empty sample still makes a leaf: the queries to come
    /// are not the sample.)
    fn shape(&mut self, s: &mut [u64], at: usize, sample: &[u64], right: u64, depth: usize) -> f64 {
        let me = self.shapes.len();
        if s.is_empty() {
            self.shapes.push(Shape::Empty);
            return 0.0;
        }
        let or = s.iter().fold(0, |a, &p| a | p);
        let live = if self.extracts { or & !right } else { u64::MAX };
        let queries = sample.len() as f64 * self.weight;
        let leaf = queries * (LEAF + self.visit(s.len(), live)) + self.build(s.len());
        self.shapes.push(Shape::Leaf {
            range: at..at + s.len(),
            live,
        });
        if depth >= MAX_DEPTH
            || s.len() <= 2 * BLOCK
            || (depth == 0 && s.len() < CUT_MIN)
            || sample.len() < MIN_SAMPLE
        {
            return leaf;
        }
        let Some(bit) = best_bit(s, sample, or & !right) else {
            return leaf;
        };
        let m = 1u64 << bit;
        let split = partition(s, m);
        if split.min(s.len() - split) < MIN_LEAF {
            return leaf;
        }
        let mut lacking = Vec::new();
        keep_lacking_portable(sample, m, &mut lacking);
        let (s0, s1) = s.split_at_mut(split);
        self.shapes[me] = Shape::Split { bit, right: 0 };
        let left = self.shape(s0, at, sample, right, depth + 1);
        let r = self.shapes.len();
        let cost =
            queries * FILTER + left + self.shape(s1, at + split, &lacking, right | m, depth + 1);
        if cost < leaf {
            self.shapes[me] = Shape::Split { bit, right: r };
            cost
        } else {
            self.shapes.truncate(me);
            self.shapes.push(Shape::Leaf {
                range: at..at + s.len(),
                live,
            });
            leaf
        }
    }

    /// A query's visits to a leaf of `len` patterns packed to `live`.
    fn visit(&self, len: usize, live: u64) -> f64 {
        let bits = if self.extracts {
            live.count_ones()
        } else {
            self.bits
        };
        len.div_ceil(BLOCK) as f64 * (VISIT + VISIT_CHUNK * chunks_for(bits) as f64)
    }

    /// Building the tables of a leaf of `len` patterns.
    fn build(&self, len: usize) -> f64 {
        len.div_ceil(BLOCK) as f64 * BUILD
    }
}

/// Moves the patterns without the bits `m` to the front of `s`; returns how many there are.
/// (Every step swaps, whether the pattern stays or not: no branch to mispredict. The ones
/// from `front` to `i` all have the bits.)
fn partition(s: &mut [u64], m: u64) -> usize {
    let mut front = 0;
    for i in 0..s.len() {
        let lacks = s[i] & m == 0;
        s.swap(front, i);
        front += usize::from(lacks);
    }
    front
}

/// The bit of `candidates` that rules out the largest share of the (pattern, query) pairs,
/// `p_s * p_q` from samples of both sides; none if no candidate rules any out.
fn best_bit(s: &[u64], sample: &[u64], candidates: u64) -> Option<u32> {
    // Counted a bit position at a time over a contiguous copy of the sample: a loop the
    // compiler vectorises (counting each pattern's set bits in turn stalls on the counters).
    let freq = |v: &[u64]| {
        let step = (v.len() / FREQ_SAMPLE).max(1);
        let picked: Vec<u64> = v.iter().step_by(step).copied().collect();
        let mut f = [0u32; 64];
        for (b, c) in f.iter_mut().enumerate() {
            if candidates >> b & 1 == 1 {
                *c = picked.iter().map(|&p| (p >> b & 1) as u32).sum();
            }
        }
        (f, picked.len() as u32)
    };
    let ((fs, ns), (fq, nq)) = (freq(s), freq(sample));
    (0..64u32)
        .filter(|&b| candidates >> b & 1 == 1)
        .map(|b| {
            (
                b,
                fs[b as usize] as f64 / ns as f64 * fq[b as usize] as f64 / nq as f64,
            )
        })
        .filter(|&(_, p)| p > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(b, _)| b)
}

/// Patterns packed to the bits `live`, in one build.
struct Pack<'a> {
    patterns: &'a [u64],
    live: u64,
}

impl Work for Pack<'_> {
    type Out = Vec<u64>;
    #[inline(always)]
    fn run<S: Simd>(self, simd: S) -> Vec<u64> {
        self.patterns
            .iter()
            .map(|&p| simd.extract(p, self.live))
            .collect()
    }
}

/// A sieve shaped ([`Sieve::shape`]): its leaves chosen, their matchers not yet built.
pub struct Shaped {
    build: Build,
    /// The patterns' bits.
    bits: u32,
    /// The stored patterns, partitioned: a leaf is a range of them.
    patterns: Vec<u64>,
    shapes: Vec<Shape>,
}

impl Shaped {
    /// The bytes the sieve's matchers will hold ([`Matcher::bytes_for`] of each leaf, on the
    /// bits it packs), exactly.
    pub fn table_bytes(&self) -> usize {
        self.shapes
            .iter()
            .map(|shape| match shape {
                Shape::Leaf { range, live } => {
                    let bits = if *live == u64::MAX {
                        self.bits
                    } else {
                        live.count_ones()
                    };
                    Matcher::bytes_for(range.len(), bits)
                }
                _ => 0,
            })
            .sum()
    }

    /// The sieve, its matchers built.
    pub fn build(self) -> Sieve {
        let Shaped {
            build,
            bits,
            patterns: s,
            shapes,
        } = self;
        let nodes = shapes
            .into_iter()
            .map(|shape| match shape {
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
            })
            .collect();
        Sieve { nodes, build }
    }
}

impl Sieve {
    /// Stores `stored` (patterns of `bits` bits) for matching in `build`, split on the bits
    /// set most often in both it and `queries` (the queries to come, or a sample of them).
    pub fn new(build: Build, stored: &[u64], queries: &[u64], bits: u32) -> Sieve {
        Sieve::expecting(build, stored, queries, queries.len(), bits)
    }

    /// [`Sieve::new`] from a sample of the queries to come, `expected` of them in all (more
    /// queries make deeper splits pay).
    pub fn expecting(
        build: Build,
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
        build: Build,
        stored: &[u64],
        queries: &[u64],
        expected: usize,
        bits: u32,
    ) -> Shaped {
        let mut s = stored.to_vec();
        let step = (queries.len() / SAMPLE).max(1);
        let sample: Vec<u64> = queries.iter().copied().step_by(step).collect();
        let mut shaper = Shaper {
            extracts: build.extracts(),
            bits,
            weight: expected.max(1) as f64 / sample.len().max(1) as f64,
            shapes: Vec::new(),
        };
        // With no sample (no queries yet) the patterns are one leaf.
        let sample = if sample.is_empty() { vec![0] } else { sample };
        shaper.shape(&mut s, 0, &sample, 0, 0);
        Shaped {
            build,
            bits,
            patterns: s,
            shapes: shaper.shapes,
        }
    }

    /// An upper bound, for memory estimates, of the blocks of tables a sieve of `stored`
    /// patterns builds: a leaf of `k` patterns holds `ceil(k / BLOCK)` blocks; a sieve of one
    /// leaf holds `ceil(stored / BLOCK)`, and in a split one every leaf holds at least
    /// [`MIN_LEAF`] = `BLOCK / 2` patterns, so at most `k / MIN_LEAF` blocks
    /// (`ceil(x) <= 2x` for `x >= 1/2`), `stored / MIN_LEAF` in all.
    pub fn blocks_bound(stored: usize) -> usize {
        2 * stored.div_ceil(BLOCK)
    }

    /// The number of (stored, query) pairs with no bit in common.
    pub fn count(&self, queries: &[u64]) -> u64 {
        self.build.run(CountAll {
            sieve: self,
            queries,
        })
    }

    /// [`Sieve::count`]'s walk, in one build: a loop with a stack, not a recursion, so that
    /// it is inlined into the build's function with the matcher's loops. A stack entry is a
    /// node and its queries' list (0: `queries`, `k`: `buffers[k - 1]`). Each split filters
    /// its list for its right branch into the next buffer; the right branch is walked first,
    /// so the left one finds its parent's list intact.
    #[inline(always)]
    fn walk<S: Simd>(&self, simd: S, queries: &[u64], buffers: &mut [Vec<u64>]) -> u64 {
        let mut total = 0;
        let mut stack = vec![(0usize, 0usize)];
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

/// [`Sieve::count`] in one build.
struct CountAll<'a> {
    sieve: &'a Sieve,
    queries: &'a [u64],
}

impl Work for CountAll<'_> {
    type Out = u64;
    #[inline(always)]
    fn run<S: Simd>(self, simd: S) -> u64 {
        let mut buffers = vec![Vec::new(); MAX_DEPTH + 1];
        self.sieve.walk(simd, self.queries, &mut buffers)
    }
}

/// The expected cost, in the cost model's operations, of matching `queries` queries against
/// a sieve of `stored` patterns, its building included: which side to store is chosen by it
/// (a split sieve's cost grows more slowly than its patterns, so the larger side is often the
/// one to store).
pub fn cost(stored: usize, queries: usize) -> f64 {
    let blocks = stored.div_ceil(BLOCK) as f64;
    if stored < CUT_MIN {
        queries as f64 * blocks * VISIT_6 + blocks * BUILD
    } else {
        let levels = (blocks / 2.0).log2();
        queries as f64 * SPLIT_COST * blocks.powf(SPLIT_GROWTH)
            + 2.0 * blocks * BUILD
            + stored as f64 * levels * SHAPE
    }
}

/// The number of (stored, query) pairs with no bit in common, through a [`Sieve`] in `build`.
pub fn count_disjoint(build: Build, stored: &[u64], queries: &[u64], bits: u32) -> u64 {
    Sieve::new(build, stored, queries, bits).count(queries)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{plain, Sparse};
    use super::*;

    /// Sieved counts (splits, packed leaves) in every build against a plain count.
    #[test]
    fn sieved_counts_match_the_plain_count() {
        for build in Build::all() {
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
            }
        }
    }

    /// A branch the sample never reaches still counts the queries that do reach it: here
    /// every sampled query has bit 0 and half the patterns do, so the split on it leaves its
    /// right branch no sample (a first version made that branch empty and lost its pairs).
    #[test]
    fn branches_without_sampled_queries_still_count() {
        for build in Build::all() {
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
        for build in Build::all() {
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
