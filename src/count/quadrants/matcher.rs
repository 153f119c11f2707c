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
//! offsets, computed once, serve both.
//! There the queries' results are added up bit-wise in carry-save counters (a Harley–Seal
//! sum), so the lanes are popcounted once per 8 queries rather than twice per query; a last,
//! single block is popcounted per query (carry-save sums made N = 18 slower there).

/// Patterns per block: four 64-bit words, one AVX2 register.
pub const BLOCK: usize = 256;

/// Bit positions combined per chunk.
pub const CHUNK: usize = 6;

const COMBOS: usize = 1 << CHUNK;

/// One block's lanes: bit `i` of word `w` stands for pattern `64 w + i` of the block.
type Lanes = [u64; 4];

/// Stored patterns of `bits` significant bits, ready to be matched.
#[derive(Debug, Clone)]
pub struct Matcher {
    chunks: usize,
    /// Per block: `chunks * COMBOS` lane sets, then the block's valid-pattern lanes.
    tables: Vec<Lanes>,
    blocks: usize,
}

impl Matcher {
    /// Stores `patterns`, each with bits only below `bits` (at most 64).
    pub fn new(patterns: &[u64], bits: u32) -> Matcher {
        #[cfg(target_arch = "x86_64")]
        if crate::count::kernel::isa() >= crate::count::kernel::Isa::Avx2 {
            // SAFETY: the CPU has AVX2, popcnt, bmi1 and bmi2.
            return unsafe { Matcher::new_avx2(patterns, bits) };
        }
        Matcher::new_portable(patterns, bits)
    }

    /// [`Matcher::new`] compiled for AVX2, popcnt and bmi.
    ///
    /// # Safety
    /// The CPU must have AVX2, popcnt, bmi1 and bmi2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    unsafe fn new_avx2(patterns: &[u64], bits: u32) -> Matcher {
        Matcher::new_portable(patterns, bits)
    }

    #[inline(always)]
    fn new_portable(patterns: &[u64], bits: u32) -> Matcher {
        let chunks = (bits as usize).div_ceil(CHUNK).max(1);
        let per_block = chunks * COMBOS + 1;
        let blocks = patterns.len().div_ceil(BLOCK);
        let mut tables = vec![[0u64; 4]; blocks * per_block];
        for (b, block) in patterns.chunks(BLOCK).enumerate() {
            let t = &mut tables[b * per_block..(b + 1) * per_block];
            build_block(block, chunks, t);
        }
        Matcher {
            chunks,
            tables,
            blocks,
        }
    }

    /// Memory the matcher holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.tables.len() * std::mem::size_of::<Lanes>()
    }

    /// The bytes a matcher of `patterns` patterns of `bits` bits holds.
    pub fn bytes_for(patterns: usize, bits: u32) -> usize {
        let chunks = (bits as usize).div_ceil(CHUNK).max(1);
        patterns.div_ceil(BLOCK) * (chunks * COMBOS + 1) * std::mem::size_of::<Lanes>()
    }

    /// The number of (pattern, query) pairs with no bit in common, with the richest build
    /// this CPU runs (AVX2 with popcnt where it has them).
    pub fn count(&self, queries: &[u64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if crate::count::kernel::isa() >= crate::count::kernel::Isa::Avx2 {
            // SAFETY: the CPU has AVX2, popcnt, bmi1 and bmi2.
            return unsafe { self.count_avx2(queries) };
        }
        self.count_portable(queries)
    }

    /// [`Matcher::count`] compiled for AVX2, popcnt and bmi.
    ///
    /// # Safety
    /// The CPU must have AVX2, popcnt, bmi1 and bmi2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    unsafe fn count_avx2(&self, queries: &[u64]) -> u64 {
        self.count_portable(queries)
    }

    /// [`Matcher::count`] for any CPU (inlined into each build).
    #[inline(always)]
    fn count_portable(&self, queries: &[u64]) -> u64 {
        let per_block = self.chunks * COMBOS + 1;
        let block = |b: usize| &self.tables[b * per_block..(b + 1) * per_block];
        let mut total = 0u64;
        // Two blocks at a time: a query's lookups are computed once for both.
        let pairs = self.blocks / 2;
        for p in 0..pairs {
            let (t, u) = (block(2 * p), block(2 * p + 1));
            total += match self.chunks {
                // The common sizes get a loop the compiler unrolls.
                5 => count_blocks::<5>(t, u, queries),
                6 => count_blocks::<6>(t, u, queries),
                7 => count_blocks::<7>(t, u, queries),
                8 => count_blocks::<8>(t, u, queries),
                _ => {
                    count_block_any(t, self.chunks, queries)
                        + count_block_any(u, self.chunks, queries)
                }
            };
        }
        if self.blocks % 2 == 1 {
            let t = block(self.blocks - 1);
            total += match self.chunks {
                5 => count_block::<5>(t, queries),
                6 => count_block::<6>(t, queries),
                7 => count_block::<7>(t, queries),
                8 => count_block::<8>(t, queries),
                _ => count_block_any(t, self.chunks, queries),
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

#[inline(always)]
fn and(acc: &mut Lanes, x: &Lanes) {
    for w in 0..4 {
        acc[w] &= x[w];
    }
}

#[inline(always)]
fn add_popcounts(sums: &mut [u64; 4], x: &Lanes) {
    for w in 0..4 {
        sums[w] += x[w].count_ones() as u64;
    }
}

/// One block against every query, with `C` chunks.
#[inline(always)]
fn count_block<const C: usize>(t: &[Lanes], queries: &[u64]) -> u64 {
    let valid = t[C * COMBOS];
    // Per-lane sums, added up once per block: no horizontal sum per query.
    let mut sums = [0u64; 4];
    for &q in queries {
        let mut acc = valid;
        for c in 0..C {
            let combo = (q >> (c * CHUNK)) as usize & (COMBOS - 1);
            and(&mut acc, &t[c * COMBOS + combo]);
        }
        add_popcounts(&mut sums, &acc);
    }
    sums.iter().sum()
}

/// A carry-save adder on lanes: `(carry, sum)` of `a + b + c`, bit by bit.
#[inline(always)]
fn csa(a: &Lanes, b: &Lanes, c: &Lanes) -> (Lanes, Lanes) {
    let mut carry = [0u64; 4];
    let mut sum = [0u64; 4];
    for w in 0..4 {
        let u = a[w] ^ b[w];
        carry[w] = (a[w] & b[w]) | (u & c[w]);
        sum[w] = u ^ c[w];
    }
    (carry, sum)
}

/// One query against two blocks (tables without their valid lanes, and those lanes).
#[inline(always)]
fn pair<const C: usize>(t: &[Lanes], u: &[Lanes], valid: (Lanes, Lanes), q: u64) -> (Lanes, Lanes) {
    let (mut a, mut b) = valid;
    for c in 0..C {
        let at = c * COMBOS + ((q >> (c * CHUNK)) as usize & (COMBOS - 1));
        and(&mut a, &t[at]);
        and(&mut b, &u[at]);
    }
    (a, b)
}

/// Carry-save counters of lanes: bit `i` of lane `w` counts, in binary across them, the
/// results so far with that bit set.
#[derive(Clone, Copy, Default)]
struct Counters {
    ones: Lanes,
    twos: Lanes,
    fours: Lanes,
    eights: Lanes,
}

impl Counters {
    /// Adds four queries' results against two blocks; returns the carry out of `fours`
    /// (weight 8).
    #[inline(always)]
    fn add_four<const C: usize>(
        &mut self,
        t: &[Lanes],
        u: &[Lanes],
        valid: (Lanes, Lanes),
        qs: &[u64],
    ) -> Lanes {
        let (a0, b0) = pair::<C>(t, u, valid, qs[0]);
        let (a1, b1) = pair::<C>(t, u, valid, qs[1]);
        let (c0, s) = csa(&self.ones, &a0, &b0);
        let (c1, s) = csa(&s, &a1, &b1);
        let (t0, tw) = csa(&self.twos, &c0, &c1);
        let (a2, b2) = pair::<C>(t, u, valid, qs[2]);
        let (a3, b3) = pair::<C>(t, u, valid, qs[3]);
        let (c2, s) = csa(&s, &a2, &b2);
        let (c3, s) = csa(&s, &a3, &b3);
        let (t1, tw) = csa(&tw, &c2, &c3);
        let (f, fo) = csa(&self.fours, &t0, &t1);
        (self.ones, self.twos, self.fours) = (s, tw, fo);
        f
    }

    /// The per-lane sums the counters hold.
    #[inline(always)]
    fn sums(&self, sums: &mut [u64; 4]) {
        for (weight, lanes) in [
            (1, &self.ones),
            (2, &self.twos),
            (4, &self.fours),
            (8, &self.eights),
        ] {
            let mut p = [0u64; 4];
            add_popcounts(&mut p, lanes);
            for w in 0..4 {
                sums[w] += weight * p[w];
            }
        }
    }
}

/// Two blocks against every query, with `C` chunks: each query's table offsets serve both.
/// The two results per query are added up bit-wise in carry-save counters (a Harley–Seal
/// sum), so the lanes are popcounted once per 8 queries instead of twice per query.
#[inline(always)]
fn count_blocks<const C: usize>(t: &[Lanes], u: &[Lanes], queries: &[u64]) -> u64 {
    let valid = (t[C * COMBOS], u[C * COMBOS]);
    let (t, u) = (&t[..C * COMBOS], &u[..C * COMBOS]);
    let mut k = Counters::default();
    let mut sixteens = [0u64; 4];
    let mut groups = queries.chunks_exact(8);
    for g in &mut groups {
        let f0 = k.add_four::<C>(t, u, valid, &g[..4]);
        let f1 = k.add_four::<C>(t, u, valid, &g[4..]);
        let (e, s) = csa(&k.eights, &f0, &f1);
        k.eights = s;
        add_popcounts(&mut sixteens, &e);
    }
    let mut sums = sixteens.map(|x| 16 * x);
    k.sums(&mut sums);
    for &q in groups.remainder() {
        let (a, b) = pair::<C>(t, u, valid, q);
        add_popcounts(&mut sums, &a);
        add_popcounts(&mut sums, &b);
    }
    sums.iter().sum()
}

fn count_block_any(t: &[Lanes], chunks: usize, queries: &[u64]) -> u64 {
    let valid = t[chunks * COMBOS];
    let mut sums = [0u64; 4];
    for &q in queries {
        let mut acc = valid;
        for c in 0..chunks {
            let combo = (q >> (c * CHUNK)) as usize & (COMBOS - 1);
            and(&mut acc, &t[c * COMBOS + combo]);
        }
        add_popcounts(&mut sums, &acc);
    }
    sums.iter().sum()
}

/// The most bits cut out for bucketing in [`count_disjoint`].
pub const MAX_CUTS: u32 = 6;

/// Stored patterns below which no cut is considered.
pub const CUT_MIN: usize = 16 * BLOCK;

/// Bit positions that can never make a conflict, dropped from patterns and queries before they
/// are matched when that saves a chunk: the bits no stored pattern has (an even board's east
/// side has no queen on a long diagonal, an odd board's sides none on the middle queens'
/// diagonals: 2 to 4 of the key's bits, one chunk of lookups less per query and block at
/// N = 19, 20 and 21), and the [`Sieve`]'s cut bits.
#[derive(Debug, Clone, Default)]
struct Squeeze {
    /// The dropped positions, highest first.
    dead: Vec<u32>,
}

impl Squeeze {
    /// The squeeze of `stored` patterns of `bits` bits whose union is `live`, and the bits
    /// left: as many dead bits dropped as lowers the cost per query (each chunk less saves
    /// about 4.5 instructions per block, each bit dropped costs about 4 once per query).
    fn new(live: u64, bits: u32, stored: usize) -> (Squeeze, u32) {
        let dead: Vec<u32> = (0..bits).rev().filter(|&b| live >> b & 1 == 0).collect();
        let chunks = |b: u32| (b as usize).div_ceil(CHUNK).max(1);
        let blocks = stored.div_ceil(BLOCK) as f64;
        let cost = |drop: usize| {
            let per_block = 4.5 * chunks(bits - drop as u32) as f64;
            blocks * per_block
                + if drop == 0 {
                    0.0
                } else {
                    3.0 + 4.0 * drop as f64
                }
        };
        // Candidates: the fewest drops that reach each smaller number of chunks.
        let best = (1..chunks(bits))
            .map(|c| bits as usize - c * CHUNK)
            .filter(|&d| d <= dead.len())
            .chain([0])
            .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
            .unwrap_or(0);
        let dead = dead[..best].to_vec();
        (Squeeze { dead }, bits - best as u32)
    }

    /// `x` without the dropped bits, the higher bits moved down over them.
    #[inline]
    fn apply(&self, mut x: u64) -> u64 {
        for &b in &self.dead {
            let low = (1u64 << b) - 1;
            x = (x & low) | (x >> 1 & !low);
        }
        x
    }
}

/// Stored patterns split into buckets by up to [`MAX_CUTS`] cut bits (the bits most often
/// set on both sides), each bucket a [`Matcher`]: a query visits only the buckets with none
/// of its cut bits, the others could only conflict. Few patterns: one bucket, no cut.
#[derive(Debug, Clone)]
pub struct Sieve {
    positions: Vec<u32>,
    squeeze: Squeeze,
    buckets: Vec<Option<Matcher>>,
}

impl Sieve {
    /// Stores `stored` (patterns of `bits` bits), cutting on the bits set most often in both
    /// it and `queries` (the queries to come, or a sample of them).
    pub fn new(stored: &[u64], queries: &[u64], bits: u32) -> Sieve {
        let positions = if stored.len() < CUT_MIN || queries.is_empty() {
            Vec::new()
        } else {
            cut_bits(stored, queries, bits)
        };
        // A cut bit never conflicts inside a bucket either: the bucket's patterns all lack it,
        // or the queries it meets all do. It can be dropped like the bits no pattern has.
        let cuts = positions.iter().fold(0u64, |a, &b| a | 1 << b);
        let live = stored.iter().fold(0, |a, &p| a | p) & !cuts;
        let (squeeze, left) = Squeeze::new(live, bits, stored.len());
        let mut by = vec![Vec::new(); 1 << positions.len()];
        for &p in stored {
            by[bucket(&positions, p)].push(squeeze.apply(p));
        }
        let buckets = by
            .iter()
            .map(|v| (!v.is_empty()).then(|| Matcher::new(v, left)))
            .collect();
        Sieve {
            positions,
            squeeze,
            buckets,
        }
    }

    /// The number of (stored, query) pairs with no bit in common.
    pub fn count(&self, queries: &[u64]) -> u64 {
        if self.positions.is_empty() {
            let Some(m) = self.buckets[0].as_ref() else {
                return 0;
            };
            if self.squeeze.dead.is_empty() {
                return m.count(queries);
            }
            let squeezed: Vec<u64> = queries.iter().map(|&q| self.squeeze.apply(q)).collect();
            return m.count(&squeezed);
        }
        let mut by = vec![Vec::new(); self.buckets.len()];
        for &q in queries {
            by[bucket(&self.positions, q)].push(self.squeeze.apply(q));
        }
        let mut total = 0;
        for (u, m) in self.buckets.iter().enumerate() {
            let Some(m) = m else { continue };
            for (v, qs) in by.iter().enumerate() {
                if u & v == 0 && !qs.is_empty() {
                    total += m.count(qs);
                }
            }
        }
        total
    }
}

/// The bucket of pattern `p`: its bits at `positions`, packed.
fn bucket(positions: &[u32], p: u64) -> usize {
    positions
        .iter()
        .enumerate()
        .fold(0usize, |a, (i, &b)| a | ((p >> b & 1) as usize) << i)
}

/// The number of (stored, query) pairs with no bit in common, through a [`Sieve`].
pub fn count_disjoint(stored: &[u64], queries: &[u64], bits: u32) -> u64 {
    Sieve::new(stored, queries, bits).count(queries)
}

/// The cut bits for `stored` against `queries`: bits taken in decreasing order of the share
/// of pairs they rule out (`p_s * p_q`, the two sides' frequencies), as many as lower the
/// expected block visits per query: `(|stored| / BLOCK) * prod(1 - p_s p_q)` for the blocks
/// left, plus for every extra bucket half a block (its last block is part-empty) and its
/// tables' building, shared by the queries.
fn cut_bits(stored: &[u64], queries: &[u64], bits: u32) -> Vec<u32> {
    // Frequencies from at most 256 patterns of each side: counting them all costs about as
    // much as the matching itself at N = 18.
    let freq = |v: &[u64]| {
        let mut f = [0u64; 64];
        let step = (v.len() / 256).max(1);
        let mut seen = 0;
        for &p in v.iter().step_by(step) {
            seen += 1;
            let mut x = p;
            while x != 0 {
                f[x.trailing_zeros() as usize] += 1;
                x &= x - 1;
            }
        }
        f.map(|c| c as f64 / seen as f64)
    };
    let (fs, fq) = (freq(stored), freq(queries));
    let (ns, nq) = (stored.len() as f64, queries.len() as f64);
    let share = |b: u32| fs[b as usize] * fq[b as usize];
    let mut order: Vec<u32> = (0..bits).collect();
    order.sort_by(|&a, &b| share(b).total_cmp(&share(a)));
    let blocks = ns / BLOCK as f64;
    // Building a block's tables costs about as much as this many queries visiting it.
    const BUILD: f64 = 100.0;
    let cost = |c: usize| {
        let left: f64 = order[..c].iter().map(|&b| 1.0 - share(b)).product();
        let extra = ((1usize << c) - 1) as f64;
        blocks * left + extra * (0.5 + BUILD / nq)
    };
    let best = (0..=MAX_CUTS as usize)
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
        .unwrap_or(0);
    order.truncate(best);
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(patterns: &[u64], queries: &[u64]) -> u64 {
        queries
            .iter()
            .map(|q| patterns.iter().filter(|&&p| p & q == 0).count() as u64)
            .sum()
    }

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

    #[test]
    fn matches_the_plain_count_on_random_patterns() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |bits: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse patterns, as half-boards are: about a third of the bits set.
            (x & (x >> 1) & (u64::MAX >> (64 - bits))) | (x >> 40 & 1)
        };
        for bits in [1u32, 5, 17, 34, 38, 42, 64] {
            for len in [0usize, 1, 255, 256, 257, 1000] {
                let p: Vec<u64> = (0..len).map(|_| next(bits)).collect();
                let q: Vec<u64> = (0..300).map(|_| next(bits)).collect();
                let m = Matcher::new(&p, bits);
                assert_eq!(m.count(&q), plain(&p, &q), "bits {bits} len {len}");
                assert_eq!(m.bytes(), Matcher::bytes_for(len, bits));
            }
        }
        // The carry-save sum takes queries 8 at a time: counts around multiples of 8, and
        // enough queries for every counter to carry (a sparse query matches most patterns).
        let p: Vec<u64> = (0..600).map(|_| next(34)).collect();
        let m = Matcher::new(&p, 34);
        for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 64, 2051] {
            let q: Vec<u64> = (0..len).map(|i| next(34) & next(34) & (i as u64)).collect();
            assert_eq!(m.count(&q), plain(&p, &q), "{len} queries");
        }
        for len in [0usize, 600, 3000, 9000, 40_000] {
            let p: Vec<u64> = (0..len).map(|_| next(34)).collect();
            let q: Vec<u64> = (0..300).map(|_| next(34)).collect();
            assert_eq!(
                count_disjoint(&p, &q, 34),
                plain(&p, &q),
                "sieved, len {len}"
            );
        }
        // Bits no stored pattern has (squeezed out when that saves a chunk), set in queries.
        for (len, dead) in [
            (40usize, 0x0003_0000_0F00u64),
            (3000, 0x0000_0404_0000),
            (600, 0x3F),
        ] {
            let p: Vec<u64> = (0..len).map(|_| next(38) & !dead).collect();
            let q: Vec<u64> = (0..300).map(|_| next(38) | (next(38) & dead)).collect();
            let (squeeze, left) = Squeeze::new(p.iter().fold(0, |a, &x| a | x), 38, len);
            assert!(left <= 38 && squeeze.dead.len() as u32 == 38 - left);
            assert_eq!(count_disjoint(&p, &q, 38), plain(&p, &q), "dead {dead:x}");
        }
        let (s, left) = Squeeze::new(!0b1010 & ((1 << 38) - 1), 38, 100 * BLOCK);
        assert_eq!((s.dead.as_slice(), left), (&[3u32, 1][..], 36));
        assert_eq!(s.apply(0b1111_0101), 0b11_1111);
        assert_eq!(s.apply(0b1010), 0);
        // The empty query matches every pattern; the full one none but the empty pattern.
        let m = Matcher::new(&[0, 1, 2, 3], 2);
        assert_eq!(m.count(&[0]), 4);
        assert_eq!(m.count(&[3]), 1);
    }
}
