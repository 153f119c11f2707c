//! Counting disjoint pairs: for stored bit patterns and a stream of queries, how many
//! (pattern, query) pairs share no bit. The hot loop of the quadrant method.
//!
//! The patterns are stored bit-sliced, [`BLOCK`] to a block: for every bit position, one bit per
//! pattern saying "this pattern does not have the bit". A query's count in a block is the
//! popcount of the AND of the slices of its set bits. To do fewer ANDs, the slices are
//! pre-combined in chunks of [`CHUNK`] bit positions: for each chunk, all 2^CHUNK ANDs of its
//! slices, so a query does one AND per chunk, looked up by the query's bits in that chunk.
//! Blocks are stored and matched in pairs, each table entry the two blocks' lanes side by side
//! in one cache line (one register in the AVX-512 build): a query's lookup offsets, computed
//! once, serve both. A pair's tables (12–25 KiB with 3 to 6 chunks) stay in L1 while every
//! query passes over them, and the queries' results are added up bit-wise in carry-save
//! counters ([`counters`]), so the lanes are popcounted once per 16 queries rather than once
//! per query. A last, odd block is stored alone and summed the same way.
//!
//! [`sieve`] puts a [`Matcher`] at each leaf of a recursive split of the patterns in front of
//! it; a leaf's patterns and queries are packed to the bits that can still conflict there. The
//! loops are plain Rust, compiled once per [`SimdBuild`] (AVX2 makes a block's lanes one register,
//! AVX-512 per pair's).

mod counters;
pub mod leaves;
#[cfg(feature = "probe")]
pub mod probe;
mod shape;
mod sharing;
#[cfg(test)]
pub(crate) use sharing::share_small_sieves;
pub mod sieve;

use self::counters::{add_popcounts, and, count_lanes, LaneSet, Lanes, Pair};
use crate::arch::{PerBuild, Simd, SimdBuild, CHUNK, COMBOS};

/// Patterns per block: four 64-bit words, one AVX2 register.
pub const BLOCK: usize = 256;

/// The chunks of lookups per pattern of `bits` bits takes (at least one).
fn chunks_for(bits: u32) -> usize {
    (bits as usize).div_ceil(CHUNK).max(1)
}

/// Stored patterns of `bits` significant bits, ready to be matched.
#[derive(Debug, Clone)]
pub struct Matcher {
    chunks: usize,
    /// Per pair of blocks: `chunks * COMBOS` entries, then the pair's valid-pattern lanes.
    pairs: Vec<Pair>,
    /// The last block, if the blocks are odd: its entries, laid out the same way.
    single: Vec<Lanes>,
    /// The build its loops run in.
    build: SimdBuild,
}

/// The most bytes of dropped matchers' pair tables per thread keeps for the next ones it builds.
pub const SPARE_BYTES: usize = 32 << 20;

thread_local! {
    /// Pair tables of dropped matchers, kept (up to [`SPARE_BYTES`]) for the next ones this
    /// thread builds: a row set's sieve builds hundreds of small matchers, and fresh memory for
    /// each (page faults, zeroed pages) cost more than building their tables.
    static SPARE: std::cell::RefCell<(Vec<Vec<Pair>>, usize)> =
        const { std::cell::RefCell::new((Vec::new(), 0)) };
}

/// An empty vector of room for `len` pair entries, from the thread's spare tables when it has
/// some (not zeroed: the tables are pushed in order).
fn spare_pairs(len: usize) -> Vec<Pair> {
    let mut v = SPARE
        .with(|s| {
            let (spare, bytes) = &mut *s.borrow_mut();
            let v = spare.pop()?;
            *bytes -= v.capacity() * std::mem::size_of::<Pair>();
            Some(v)
        })
        .unwrap_or_default();
    v.clear();
    v.reserve_exact(len);
    v
}

impl Drop for Matcher {
    fn drop(&mut self) {
        let tables = std::mem::take(&mut self.pairs);
        let size = tables.capacity() * std::mem::size_of::<Pair>();
        if size == 0 {
            return;
        }
        // A thread that is exiting has no spare tables to keep them in: they are freed.
        let _ = SPARE.try_with(|s| {
            let (spare, bytes) = &mut *s.borrow_mut();
            if *bytes + size <= SPARE_BYTES {
                *bytes += size;
                spare.push(tables);
            }
        });
    }
}

/// [`Matcher::new`]'s tables, built in one build.
struct MatcherTables<'a> {
    patterns: &'a [u64],
    bits: u32,
    build: SimdBuild,
}

impl PerBuild for MatcherTables<'_> {
    type Out = Matcher;
    #[inline(always)]
    fn run<S: Simd>(self, _: S) -> Matcher {
        let chunks = chunks_for(self.bits);
        let per_block = chunks * COMBOS + 1;
        let blocks = self.patterns.len().div_ceil(BLOCK);
        let mut pairs = spare_pairs(blocks / 2 * per_block);
        // A last pair's second block may be short; a last, odd block is `single`.
        for two in self.patterns.chunks(2 * BLOCK).take(blocks / 2) {
            let (a, b) = two.split_at(BLOCK);
            let (sa, va) = slices(a);
            let (sb, vb) = slices(b);
            let join = |x: &Lanes, y: &Lanes| {
                let mut j = Pair::default();
                j.0[..4].copy_from_slice(&x.0);
                j.0[4..].copy_from_slice(&y.0);
                j
            };
            let slice: [Pair; 64 + CHUNK] = std::array::from_fn(|j| join(&sa[j], &sb[j]));
            fill(&slice, join(&va, &vb), chunks, &mut pairs);
        }
        let mut single = Vec::new();
        if blocks % 2 == 1 {
            let (slice, valid) = slices(&self.patterns[(blocks - 1) * BLOCK..]);
            single.reserve_exact(per_block);
            fill(&slice, valid, chunks, &mut single);
        }
        debug_assert_eq!(pairs.len(), blocks / 2 * per_block);
        Matcher {
            chunks,
            pairs,
            single,
            build: self.build,
        }
    }
}

/// [`Matcher::count`] in one build.
#[cfg(test)]
struct OneBuild<'a> {
    matcher: &'a Matcher,
    queries: &'a [u64],
}

#[cfg(test)]
impl PerBuild for OneBuild<'_> {
    type Out = u64;
    #[inline(always)]
    fn run<S: Simd>(self, simd: S) -> u64 {
        self.matcher.count_in_build(simd, self.queries, u64::MAX)
    }
}

impl Matcher {
    /// Stores `patterns`, each with bits only below `bits` (at most 64), to be matched in
    /// `build`.
    pub fn new(build: SimdBuild, patterns: &[u64], bits: u32) -> Matcher {
        build.run(MatcherTables {
            patterns,
            bits,
            build,
        })
    }

    /// The bytes a matcher of `patterns` patterns of `bits` bits holds.
    pub fn bytes_for(patterns: usize, bits: u32) -> usize {
        patterns.div_ceil(BLOCK) * (chunks_for(bits) * COMBOS + 1) * std::mem::size_of::<Lanes>()
    }

    /// The number of (pattern, query) pairs with no bit in common (the sieve counts through
    /// [`Matcher::count_in_build`] inside its own build).
    #[cfg(test)]
    pub fn count(&self, queries: &[u64]) -> u64 {
        self.build.run(OneBuild {
            matcher: self,
            queries,
        })
    }

    /// The blocks of patterns stored.
    #[cfg(test)]
    fn blocks(&self) -> usize {
        2 * self.pairs.len() / (self.chunks * COMBOS + 1) + usize::from(!self.single.is_empty())
    }

    /// The build the tables were made for.
    pub fn build(&self) -> SimdBuild {
        self.build
    }

    /// The number of (pattern, query) pairs with no bit in common, in the build `simd` (the
    /// matcher's own: its loops are inlined into the caller's build), each query's bits at
    /// the positions `live` packed first ([`Simd::extract`]; the patterns were stored packed
    /// the same way). `live` is `u64::MAX` unless the build [`SimdBuild::extracts`].
    #[inline(always)]
    fn count_in_build<S: Simd>(&self, simd: S, queries: &[u64], live: u64) -> u64 {
        let per_block = self.chunks * COMBOS + 1;
        let mut total = 0u64;
        for t in self.pairs.chunks_exact(per_block) {
            total += count_lanes_in(simd, live, t, self.chunks, queries);
        }
        if !self.single.is_empty() {
            total += count_lanes_in(simd, live, &self.single, self.chunks, queries);
        }
        #[cfg(test)]
        if super::tests::faults::is(super::tests::faults::Fault::MiscountBlock)
            && !queries.is_empty()
        {
            total += 1;
        }
        total
    }
}

/// Transposes a 64×64 bit matrix in place: bit `j` of row `i` becomes bit `i` of row `j`
/// (six rounds of swapping ever smaller blocks).
#[inline(always)]
fn transpose(a: &mut [u64; 64]) {
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            // Rows k and k + width swap the high `width` bits of one with the low of the other.
            let t = ((a[k] >> width) ^ a[k + width]) & mask;
            a[k] ^= t << width;
            a[k + width] ^= t;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

/// One block's slices (per bit position, the patterns lacking it; positions past 64, when 64
/// is not a whole number of chunks, are lacked by all) and its valid-pattern lanes, from its
/// patterns (at most [`BLOCK`]).
#[inline(always)]
fn slices(block: &[u64]) -> ([Lanes; 64 + CHUNK], Lanes) {
    let mut slice = [Lanes([u64::MAX; 4]); 64 + CHUNK];
    let mut valid = Lanes::default();
    for (w, group) in block.chunks(64).enumerate() {
        // Row i: the bits pattern i lacks; transposed, row j: the patterns lacking bit j.
        let mut m = [0u64; 64];
        for (row, &p) in m.iter_mut().zip(group) {
            *row = !p;
        }
        transpose(&mut m);
        for (s, &col) in slice.iter_mut().zip(&m) {
            s.0[w] = col;
        }
        valid.0[w] = u64::MAX >> (64 - group.len());
    }
    (slice, valid)
}

/// Appends to `t` the tables of one block or pair, from its slices and valid lanes.
#[inline(always)]
fn fill<L: LaneSet>(slice: &[L; 64 + CHUNK], valid: L, chunks: usize, t: &mut Vec<L>) {
    for c in 0..chunks {
        let base = t.len();
        for combo in 0..COMBOS {
            // Each combination is one more slice ANDed onto a smaller combination.
            let entry = if combo == 0 {
                valid
            } else {
                let low = combo.trailing_zeros() as usize;
                let mut acc = t[base + (combo & (combo - 1))];
                and(&mut acc, &slice[c * CHUNK + low]);
                acc
            };
            t.push(entry);
        }
    }
    t.push(valid);
}

/// One block, or a pair (its tables `t`), against every query, with `chunks` chunks: the
/// common sizes get a loop the compiler unrolls, with carry-save sums.
///
/// Not in the portable build on x86-64, which runs only on CPUs without AVX2 (made before
/// 2013) and in an audit's recount by another build on a CPU without AVX-512: its unrolled
/// loops, scalar code the compiler vectorises itself, were some 40% of the count layer's
/// build time, for counts about 1.5 times faster in that build (the performance log says
/// how this was measured). Elsewhere (ARM) the portable build is the only one, and keeps
/// them.
#[inline(always)]
fn count_lanes_in<S: Simd, L: LaneSet>(
    simd: S,
    live: u64,
    t: &[L],
    chunks: usize,
    queries: &[u64],
) -> u64 {
    if S::PORTABLE && cfg!(target_arch = "x86_64") {
        return count_block(simd, live, t, chunks, queries);
    }
    match chunks {
        4 => count_lanes::<4, S, L>(simd, live, t, queries),
        5 => count_lanes::<5, S, L>(simd, live, t, queries),
        6 => count_lanes::<6, S, L>(simd, live, t, queries),
        7 => count_lanes::<7, S, L>(simd, live, t, queries),
        8 => count_lanes::<8, S, L>(simd, live, t, queries),
        // Keys of 49 to 54 bits: N = 26 to 28 (h = 13, 14).
        9 => count_lanes::<9, S, L>(simd, live, t, queries),
        // 55 and 56: N = 28's keys with the transposes' two marks.
        10 => count_lanes::<10, S, L>(simd, live, t, queries),
        c => count_block(simd, live, t, c, queries),
    }
}

/// One block, or a pair, against every query, with `chunks` chunks, each query's lanes
/// popcounted: the sizes [`count_lanes_in`] has no loop for.
#[inline(always)]
fn count_block<S: Simd, L: LaneSet>(
    simd: S,
    live: u64,
    t: &[L],
    chunks: usize,
    queries: &[u64],
) -> u64 {
    let valid = t[chunks * COMBOS];
    let t = &t[..chunks * COMBOS];
    // Per-word sums, added up once per block: no horizontal sum per query.
    let mut sums = [0u64; 8];
    for &q in queries {
        let q = simd.extract(q, live);
        let mut acc = valid;
        for c in 0..chunks {
            and(&mut acc, simd.entry(t, c, q));
        }
        add_popcounts(&mut sums, &acc);
    }
    sums.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::testing::{plain, Sparse};
    use super::*;

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let mut m = [0u64; 64];
        let mut x = 12345u64;
        for row in m.iter_mut() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *row = x;
        }
        let before = m;
        transpose(&mut m);
        for (i, row) in before.iter().enumerate() {
            for (j, col) in m.iter().enumerate() {
                assert_eq!(col >> i & 1, row >> j & 1, "row {i} bit {j}");
            }
        }
    }

    /// Every build this CPU runs, on the same patterns and queries, against a plain count.
    #[test]
    fn every_build_matches_the_plain_count_on_random_patterns() {
        for build in crate::quadrants::builds() {
            let name = build.name();
            let mut next = Sparse::new();
            for bits in [1u32, 5, 17, 34, 38, 42, 48, 50, 54, 56, 64] {
                for len in [0usize, 1, 255, 256, 257, 1000] {
                    let p: Vec<u64> = (0..len).map(|_| next.bits(bits)).collect();
                    let q: Vec<u64> = (0..300).map(|_| next.bits(bits)).collect();
                    let m = Matcher::new(build, &p, bits);
                    assert_eq!(m.count(&q), plain(&p, &q), "{name}: bits {bits} len {len}");
                    let bytes = m.pairs.len() * std::mem::size_of::<Pair>()
                        + m.single.len() * std::mem::size_of::<Lanes>();
                    assert_eq!(bytes, Matcher::bytes_for(len, bits));
                }
            }
            // The carry-save sum takes queries 8 at a time: counts around multiples of 8, and
            // enough queries for every counter to carry (a sparse query matches most patterns).
            let p: Vec<u64> = (0..600).map(|_| next.bits(34)).collect();
            let m = Matcher::new(build, &p, 34);
            for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 64, 2051] {
                let q: Vec<u64> = (0..len)
                    .map(|i| next.bits(34) & next.bits(34) & (i as u64))
                    .collect();
                assert_eq!(m.count(&q), plain(&p, &q), "{name}: {len} queries");
            }
            // The empty query matches every pattern; the full one none but the empty pattern.
            let m = Matcher::new(build, &[0, 1, 2, 3], 2);
            assert_eq!(m.count(&[0]), 4, "{name}");
            assert_eq!(m.count(&[3]), 1, "{name}");
        }
    }
}

/// What the matcher's and the sieve's tests share: a plain count and sparse random patterns.
#[cfg(test)]
pub(crate) mod testing {
    /// The number of (pattern, query) pairs with no bit in common, one pair at a time.
    pub fn plain(patterns: &[u64], queries: &[u64]) -> u64 {
        queries
            .iter()
            .map(|q| patterns.iter().filter(|&&p| p & q == 0).count() as u64)
            .sum()
    }

    /// Sparse random patterns, as half-boards are: about a third of the bits set.
    pub struct Sparse(u64);

    impl Sparse {
        pub fn new() -> Sparse {
            Sparse(0x9E37_79B9_7F4A_7C15)
        }

        /// The next pattern of `bits` bits.
        pub fn bits(&mut self, bits: u32) -> u64 {
            let x = &mut self.0;
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            (*x & (*x >> 1) & (u64::MAX >> (64 - bits))) | (*x >> 40 & 1)
        }
    }
}
