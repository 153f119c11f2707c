//! Shaping a sieve: its stored patterns split, again and again, on the bit most often set on
//! both sides, as deep as the cost model says it pays ([`cost`] weighs block visits,
//! filtering and table building), before any matcher is built ([`Shaped`]): so that what the
//! tables will hold is known first. The bits' frequencies are sampled at every node, so each
//! split takes the bit that pays best where it is.

use super::sharing::shares;
use super::{chunks_for, Matcher, BLOCK};
use crate::arch::{PerBuild, Simd, SimdBuild};
use std::ops::Range;

/// Stored patterns below which the sieve does not split (one matcher, no sampling).
pub const CUT_MIN: usize = 16 * BLOCK;

/// The deepest split (each level adds one query buffer to a count).
pub(super) const MAX_DEPTH: usize = 24;

/// The fewest patterns on either side of a split: so a sieve's leaves hold at least this
/// many (but for a sieve of one leaf), and its blocks are at most 2 per `BLOCK` patterns
/// ([`super::sieve::Sieve::blocks_bound`]).
const MIN_LEAF: usize = BLOCK / 2;

/// The fewest queries kept as the sample that steers the splits (all of them when fewer).
const SAMPLE_MIN: usize = 2048;

/// The most queries kept as the sample.
const SAMPLE_MAX: usize = 1 << 17;

/// Expected queries a sampled query stands for, at least: shaping walks the sample down the
/// splits as the count walks the queries, so a sample of a 64th of them costs about a 64th of
/// the filtering. A node whose sample falls under [`MIN_SAMPLE`] is not split: with a fixed
/// sample of 2,048 the stored side of an N = 28 row set (50 million half-boards) stopped
/// splitting in leaves of about 30 blocks: 2.6 times the block visits the deeper sieve makes.
const SAMPLE_SHARE: usize = 64;

/// The queries to sample for a sieve expecting `expected` of them.
fn sample_size(expected: usize) -> usize {
    (expected / SAMPLE_SHARE).clamp(SAMPLE_MIN, SAMPLE_MAX)
}

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

/// The shape of a sieve before its matchers are built: a leaf is a range of the partitioned
/// patterns.
pub(super) enum Shape {
    Empty,
    Leaf { range: Range<usize>, live: u64 },
    Split { bit: u32, right: usize },
}

/// What shaping a sieve needs to know.
struct Shaper {
    /// The build the node's passes over the patterns run in (the tables are built in it too).
    build: SimdBuild,
    /// Whether leaves pack their live bits ([`SimdBuild::extracts`]).
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
        let or = self.build.run(UnionOf(s));
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
        let Some(bit) = self.build.run(BestBit {
            s,
            sample,
            candidates: or & !right,
        }) else {
            return leaf;
        };
        let m = 1u64 << bit;
        let split = partition(s, m);
        if split.min(s.len() - split) < MIN_LEAF {
            return leaf;
        }
        let lacking = self.build.run(WithoutBits {
            queries: sample,
            bits: m,
        });
        let shared = shares(s.len());
        let (s0, s1) = s.split_at_mut(split);
        self.shapes[me] = Shape::Split { bit, right: 0 };
        let (left, r, right_cost) = if shared {
            self.shape_both(s0, s1, at, [sample, &lacking], right, m, depth)
        } else {
            let left = self.shape(s0, at, sample, right, depth + 1);
            let r = self.shapes.len();
            (
                left,
                r,
                self.shape(s1, at + split, &lacking, right | m, depth + 1),
            )
        };
        let cost = queries * FILTER + left + right_cost;
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

    /// The two sides of a split on the bits `m` (`s0` without them, from `at`; `s1` with
    /// them) shaped as [`Shaper::shape`] does in turn, on the pool's free threads: each side
    /// into a list of its own, then both appended, their split indices moved by where they
    /// land, so that the shape is the same node for node. Returns the left side's cost,
    /// where the right side starts and its cost.
    #[allow(clippy::too_many_arguments)]
    fn shape_both(
        &mut self,
        s0: &mut [u64],
        s1: &mut [u64],
        at: usize,
        [sample, lacking]: [&[u64]; 2],
        right: u64,
        m: u64,
        depth: usize,
    ) -> (f64, usize, f64) {
        let split = s0.len();
        let (mut l, mut r) = (self.empty(), self.empty());
        let (left, right_cost) = rayon::join(
            || l.shape(s0, at, sample, right, depth + 1),
            || r.shape(s1, at + split, lacking, right | m, depth + 1),
        );
        self.append(l.shapes);
        let start = self.shapes.len();
        self.append(r.shapes);
        (left, start, right_cost)
    }

    /// A shaper like this one with no node yet.
    fn empty(&self) -> Shaper {
        Shaper {
            build: self.build,
            extracts: self.extracts,
            bits: self.bits,
            weight: self.weight,
            shapes: Vec::new(),
        }
    }

    /// Appends the nodes of a subtree shaped on its own (its split indices from 0).
    fn append(&mut self, shapes: Vec<Shape>) {
        let base = self.shapes.len();
        self.shapes
            .extend(shapes.into_iter().map(|shape| match shape {
                Shape::Split { bit, right } => Shape::Split {
                    bit,
                    right: right + base,
                },
                other => other,
            }));
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

/// The OR of the patterns, in a build.
struct UnionOf<'a>(&'a [u64]);

impl PerBuild for UnionOf<'_> {
    type Out = u64;
    #[inline(always)]
    fn run<S: Simd>(self, _: S) -> u64 {
        self.0.iter().fold(0, |a, &p| a | p)
    }
}

/// Moves the patterns without the bits `m` to the front of `s`; returns how many there are.
/// (Every step swaps, whether the pattern stays or not: no branch to mispredict. The ones
/// from `front` to `i` all have the bits. The patterns lacking the bits keep their order. A
/// partition in place a register per step, as vectorised sorts do, made the AVX2 build's
/// N = 22 sieves cost 2.5 times as much to walk, for a reason not found:
/// the performance log.)
fn partition(s: &mut [u64], m: u64) -> usize {
    let mut front = 0;
    for i in 0..s.len() {
        let lacks = s[i] & m == 0;
        s.swap(front, i);
        front += usize::from(lacks);
    }
    front
}

/// The queries (or sampled queries) that have none of the bits `bits`, in a build.
pub(super) struct WithoutBits<'a> {
    pub queries: &'a [u64],
    pub bits: u64,
}

impl PerBuild for WithoutBits<'_> {
    type Out = Vec<u64>;
    #[inline(always)]
    fn run<S: Simd>(self, simd: S) -> Vec<u64> {
        let mut out = Vec::new();
        simd.keep_lacking(self.queries, self.bits, &mut out);
        out
    }
}

/// The bit of `candidates` that rules out the largest share of the (pattern, query) pairs,
/// `p_s * p_q` from samples of both sides of at most `FREQ_SAMPLE` (and under 256) each;
/// none if no candidate rules any out.
struct BestBit<'a> {
    s: &'a [u64],
    sample: &'a [u64],
    candidates: u64,
}

impl PerBuild for BestBit<'_> {
    type Out = Option<u32>;
    #[inline(always)]
    fn run<S: Simd>(self, _: S) -> Option<u32> {
        let candidates = self.candidates;
        let ((fs, ns), (fq, nq)) = (bit_counts(self.s), bit_counts(self.sample));
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
}

/// How many of the patterns picked from `v` (evenly spaced, `FREQ_SAMPLE` to 255 of them, or
/// all of a shorter `v`) have each bit, and how many were picked. Summed in the bytes of eight
/// words, word `j`'s byte `i` counting bit `8 i + j`: three operations per pattern in one
/// AVX-512 register (counted a bit position at a time, in portable code, they were 4.9% of an
/// N = 22 shard's time, the performance log).
#[inline(always)]
fn bit_counts(v: &[u64]) -> ([u32; 64], u32) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let step = (v.len() / FREQ_SAMPLE).max(1);
    let mut sums = [0u64; 8];
    let mut picked = 0;
    // (`len / step` is under 256 for any length: a byte holds every count.)
    for &p in v.iter().step_by(step).take(255) {
        for (j, sum) in sums.iter_mut().enumerate() {
            *sum += p >> j & ONES;
        }
        picked += 1;
    }
    let mut f = [0u32; 64];
    for (j, sum) in sums.iter().enumerate() {
        for i in 0..8 {
            f[8 * i + j] = (sum >> (8 * i) & 0xFF) as u32;
        }
    }
    (f, picked)
}

thread_local! {
    /// The buffer of the last sieve this thread built, for its next shaper's copy of the
    /// stored patterns: a row set's copy is as large as its stored side (hundreds of MB at
    /// N = 28), which glibc maps on its own and unmaps when it is freed, so that every row set
    /// faulted it in again. The memory estimate counts the copy
    /// already (`Sizes::bytes_per_key`); a worker's buffers go with its thread.
    static PATTERNS: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps `patterns` (a built sieve's copy, no longer read) as the thread's buffer for the
/// next shaper's copy, unless the buffer held is larger.
pub(super) fn keep_patterns(patterns: Vec<u64>) {
    // A thread that is exiting has no buffer to keep it in: it is freed.
    let _ = PATTERNS.try_with(|p| {
        let mut held = p.borrow_mut();
        if patterns.capacity() > held.capacity() {
            *held = patterns;
        }
    });
}

/// A sieve shaped ([`super::sieve::Sieve::shape`]): its leaves chosen, their matchers not yet built.
pub struct Shaped {
    pub(super) build: SimdBuild,
    /// The patterns' bits.
    pub(super) bits: u32,
    /// The stored patterns, partitioned: a leaf is a range of them.
    pub(super) patterns: Vec<u64>,
    /// The nodes, in preorder.
    pub(super) shapes: Vec<Shape>,
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
}

/// The patterns `stored` split into leaves for `expected` queries like the sample `queries`,
/// their matchers not yet built ([`Shaped::table_bytes`] says what they will hold).
pub fn shape(
    build: SimdBuild,
    stored: &[u64],
    queries: &[u64],
    expected: usize,
    bits: u32,
) -> Shaped {
    let mut s = PATTERNS.with(|p| p.take());
    s.clear();
    s.extend_from_slice(stored);
    let step = (queries.len() / sample_size(expected)).max(1);
    let sample: Vec<u64> = queries.iter().copied().step_by(step).collect();
    let mut shaper = Shaper {
        build,
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

#[cfg(test)]
mod tests {
    use super::super::testing::Sparse;
    use super::*;

    /// The bits' counts in bytes are the counts of the picked patterns' bits one at a time,
    /// for lengths that pick every pattern, up to 255 of them, and every `len / 128`-th.
    #[test]
    fn bit_counts_are_the_picked_patterns_counts() {
        let mut next = Sparse::new();
        for len in [0usize, 1, 127, 128, 255, 256, 383, 384, 1000, 65_537] {
            let v: Vec<u64> = (0..len).map(|_| next.bits(64) | next.bits(64)).collect();
            let step = (len / FREQ_SAMPLE).max(1);
            let picked: Vec<u64> = v.iter().step_by(step).copied().collect();
            assert!(picked.len() <= 255, "len {len}");
            let want: Vec<u32> = (0..64)
                .map(|b| picked.iter().filter(|&&p| p >> b & 1 == 1).count() as u32)
                .collect();
            let (got, n) = bit_counts(&v);
            assert_eq!(n as usize, picked.len(), "len {len}");
            assert_eq!(got.to_vec(), want, "len {len}");
        }
    }

    /// The patterns of the largest leaf of a shaped sieve.
    fn largest_leaf(shaped: &Shaped) -> usize {
        let leaves = shaped.shapes.iter().filter_map(|s| match s {
            Shape::Leaf { range, .. } => Some(range.len()),
            _ => None,
        });
        leaves.max().unwrap_or(0)
    }

    /// A large stored side expecting many queries is split until its leaves are small: its
    /// sample grows with the queries expected, so the nodes deep in the sieve still have
    /// sampled queries to steer them (with 2,048 sampled queries, as before, the deepest
    /// nodes had too few and stayed leaves of many blocks).
    #[test]
    fn many_queries_expected_split_large_sides_deep() {
        let mut next = Sparse::new();
        let bits = 54;
        let stored: Vec<u64> = (0..1 << 20).map(|_| next.bits(bits)).collect();
        let queries: Vec<u64> = (0..1 << 20).map(|_| next.bits(bits)).collect();
        let build = crate::quadrants::builds()[0];
        let shaped = shape(build, &stored, &queries, 64 * queries.len(), bits);
        // (A sample of 2,048 left a leaf of 24,657 patterns, 97 blocks.)
        let largest = largest_leaf(&shaped);
        assert!(largest <= 32 * BLOCK, "a leaf of {largest} patterns");
    }
}
