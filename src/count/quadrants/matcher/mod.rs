//! Counting disjoint pairs: for stored bit patterns and a stream of queries, how many
//! (pattern, query) pairs share no bit. The hot loop of the quadrant method.
//!
//! The patterns are stored bit-sliced, [`BLOCK`] to a block: for every bit position, one bit per
//! pattern saying "this pattern does not have the bit". A query's count in a block is the
//! popcount of the AND of the slices of its set bits. To do fewer ANDs, the slices are
//! pre-combined in chunks of [`CHUNK`] bit positions: for each chunk, all 2^CHUNK ANDs of its
//! slices, so a query does one AND per chunk, looked up by the query's bits in that chunk.
//! Blocks are the outer loop, two at a time: their tables (12–14 KiB each with 6-bit chunks
//! and 34–42 bits) stay in L1 while every query passes over them, and each query's lookup
//! offsets, computed once, serve both. There the queries' results are added up bit-wise in
//! carry-save counters ([`counters`]), so the lanes are popcounted once per 8 queries rather
//! than twice per query; a last, single block is popcounted per query (carry-save sums made
//! N = 18 slower there).
//!
//! [`sieve`] puts a [`Matcher`] at each leaf of a recursive split of the patterns in front of
//! it; a leaf's patterns and queries are packed to the bits that can still conflict there. The
//! loops are plain Rust, compiled once per [`Build`] (AVX2 makes each lane set one register).

mod counters;
pub mod sieve;

use self::counters::{add_popcounts, and, count_blocks, Lanes};
use super::arch::{Build, Simd, Work};

/// Patterns per block: four 64-bit words, one AVX2 register.
pub const BLOCK: usize = 256;

/// Bit positions combined per chunk.
pub const CHUNK: usize = 6;

const COMBOS: usize = 1 << CHUNK;

/// The chunks of lookups a pattern of `bits` bits takes (at least one).
fn chunks_for(bits: u32) -> usize {
    (bits as usize).div_ceil(CHUNK).max(1)
}

/// Stored patterns of `bits` significant bits, ready to be matched.
#[derive(Debug, Clone)]
pub struct Matcher {
    chunks: usize,
    /// Per block: `chunks * COMBOS` lane sets, then the block's valid-pattern lanes.
    tables: Vec<Lanes>,
    blocks: usize,
    /// The build its loops run in.
    build: Build,
}

/// The most bytes of dropped matchers' tables a thread keeps for the next ones it builds.
pub const SPARE_BYTES: usize = 32 << 20;

thread_local! {
    /// Tables of dropped matchers, kept (up to [`SPARE_BYTES`]) for the next ones this thread
    /// builds: a row set's sieve builds hundreds of small matchers, and fresh memory for each
    /// (page faults, zeroed pages) cost more than building their tables.
    static SPARE: std::cell::RefCell<(Vec<Vec<Lanes>>, usize)> =
        const { std::cell::RefCell::new((Vec::new(), 0)) };
}

/// `len` zeroed lane sets, from the thread's spare tables when it has some.
fn spare_tables(len: usize) -> Vec<Lanes> {
    let mut v = SPARE
        .with(|s| {
            let (spare, bytes) = &mut *s.borrow_mut();
            let v = spare.pop()?;
            *bytes -= v.capacity() * std::mem::size_of::<Lanes>();
            Some(v)
        })
        .unwrap_or_default();
    v.clear();
    v.resize(len, [0; 4]);
    v
}

impl Drop for Matcher {
    fn drop(&mut self) {
        let tables = std::mem::take(&mut self.tables);
        let size = tables.capacity() * std::mem::size_of::<Lanes>();
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
struct Fill<'a> {
    patterns: &'a [u64],
    bits: u32,
    build: Build,
}

impl Work for Fill<'_> {
    type Out = Matcher;
    #[inline(always)]
    fn run<S: Simd>(self, _: S) -> Matcher {
        let chunks = chunks_for(self.bits);
        let per_block = chunks * COMBOS + 1;
        let blocks = self.patterns.len().div_ceil(BLOCK);
        let mut tables = spare_tables(blocks * per_block);
        for (b, block) in self.patterns.chunks(BLOCK).enumerate() {
            build_block(
                block,
                chunks,
                &mut tables[b * per_block..(b + 1) * per_block],
            );
        }
        Matcher {
            chunks,
            tables,
            blocks,
            build: self.build,
        }
    }
}

/// [`Matcher::count`] in one build.
#[cfg(test)]
struct Count<'a> {
    matcher: &'a Matcher,
    queries: &'a [u64],
}

#[cfg(test)]
impl Work for Count<'_> {
    type Out = u64;
    #[inline(always)]
    fn run<S: Simd>(self, simd: S) -> u64 {
        self.matcher.count_in_build(simd, self.queries, u64::MAX)
    }
}

impl Matcher {
    /// Stores `patterns`, each with bits only below `bits` (at most 64), to be matched in
    /// `build`.
    pub fn new(build: Build, patterns: &[u64], bits: u32) -> Matcher {
        build.run(Fill {
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
        self.build.run(Count {
            matcher: self,
            queries,
        })
    }

    /// The build the tables were made for.
    pub fn build(&self) -> Build {
        self.build
    }

    /// The number of (pattern, query) pairs with no bit in common, in the build `simd` (the
    /// matcher's own: its loops are inlined into the caller's build), each query's bits at
    /// the positions `live` packed first ([`Simd::extract`]; the patterns were stored packed
    /// the same way). `live` is `u64::MAX` unless the build [`Build::extracts`].
    #[inline(always)]
    fn count_in_build<S: Simd>(&self, simd: S, queries: &[u64], live: u64) -> u64 {
        let per_block = self.chunks * COMBOS + 1;
        let block = |b: usize| &self.tables[b * per_block..(b + 1) * per_block];
        let mut total = 0u64;
        // Two blocks at a time: a query's lookups are computed once for both.
        for p in 0..self.blocks / 2 {
            let (t, u) = (block(2 * p), block(2 * p + 1));
            total += match self.chunks {
                // The common sizes get a loop the compiler unrolls.
                5 => count_blocks::<5, S>(simd, live, t, u, queries),
                6 => count_blocks::<6, S>(simd, live, t, u, queries),
                7 => count_blocks::<7, S>(simd, live, t, u, queries),
                8 => count_blocks::<8, S>(simd, live, t, u, queries),
                // Keys of 49 to 54 bits: N = 26 to 28 (h = 13, 14).
                9 => count_blocks::<9, S>(simd, live, t, u, queries),
                c => {
                    count_block(simd, live, t, c, queries) + count_block(simd, live, u, c, queries)
                }
            };
        }
        if self.blocks % 2 == 1 {
            let t = block(self.blocks - 1);
            total += match self.chunks {
                5 => count_block(simd, live, t, 5, queries),
                6 => count_block(simd, live, t, 6, queries),
                7 => count_block(simd, live, t, 7, queries),
                8 => count_block(simd, live, t, 8, queries),
                9 => count_block(simd, live, t, 9, queries),
                c => count_block(simd, live, t, c, queries),
            };
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

/// Fills one block's tables from its patterns (at most [`BLOCK`]).
#[inline(always)]
fn build_block(block: &[u64], chunks: usize, t: &mut [Lanes]) {
    // Bit positions past 64 (when 64 is not a whole number of chunks): no pattern has them.
    let mut slice = [[u64::MAX; 4]; 64 + CHUNK];
    let mut valid = [0u64; 4];
    for (w, group) in block.chunks(64).enumerate() {
        // Row i: the bits pattern i lacks; transposed, row j: the patterns lacking bit j.
        let mut m = [0u64; 64];
        for (row, &p) in m.iter_mut().zip(group) {
            *row = !p;
        }
        transpose(&mut m);
        for (s, &col) in slice.iter_mut().zip(&m) {
            s[w] = col;
        }
        valid[w] = u64::MAX >> (64 - group.len());
    }
    for c in 0..chunks {
        for combo in 0..COMBOS {
            // Each combination is one more slice ANDed onto a smaller combination.
            t[c * COMBOS + combo] = if combo == 0 {
                valid
            } else {
                let low = combo.trailing_zeros() as usize;
                let mut acc = t[c * COMBOS + (combo & (combo - 1))];
                and(&mut acc, &slice[c * CHUNK + low]);
                acc
            };
        }
    }
    t[chunks * COMBOS] = valid;
}

/// One block against every query, with `chunks` chunks (a constant where inlined with one,
/// so the compiler unrolls the lookups).
#[inline(always)]
fn count_block<S: Simd>(simd: S, live: u64, t: &[Lanes], chunks: usize, queries: &[u64]) -> u64 {
    let valid = t[chunks * COMBOS];
    // Per-lane sums, added up once per block: no horizontal sum per query.
    let mut sums = [0u64; 4];
    for &q in queries {
        let q = simd.extract(q, live);
        let mut acc = valid;
        for c in 0..chunks {
            let combo = (q >> (c * CHUNK)) as usize & (COMBOS - 1);
            and(&mut acc, &t[c * COMBOS + combo]);
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
        for build in Build::all() {
            let name = build.name();
            let mut next = Sparse::new();
            for bits in [1u32, 5, 17, 34, 38, 42, 48, 50, 54, 64] {
                for len in [0usize, 1, 255, 256, 257, 1000] {
                    let p: Vec<u64> = (0..len).map(|_| next.bits(bits)).collect();
                    let q: Vec<u64> = (0..300).map(|_| next.bits(bits)).collect();
                    let m = Matcher::new(build, &p, bits);
                    assert_eq!(m.count(&q), plain(&p, &q), "{name}: bits {bits} len {len}");
                    let bytes = m.tables.len() * std::mem::size_of::<Lanes>();
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
mod testing {
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
