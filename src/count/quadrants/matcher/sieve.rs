//! The sieve in front of the matcher: stored patterns bucketed by a few cut bits (a query
//! visits only the buckets it cannot conflict with on them), and the key bits that can never
//! make a conflict squeezed out before matching.

use super::{chunks_for, Matcher, BLOCK, CHUNK};
use crate::count::quadrants::arch::Build;

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
        let chunks = chunks_for;
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
    /// Stores `stored` (patterns of `bits` bits) for matching in `build`, cutting on the bits
    /// set most often in both it and `queries` (the queries to come, or a sample of them).
    pub fn new(build: Build, stored: &[u64], queries: &[u64], bits: u32) -> Sieve {
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
            .map(|v| (!v.is_empty()).then(|| Matcher::new(build, v, left)))
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

/// The number of (stored, query) pairs with no bit in common, through a [`Sieve`] in `build`.
pub fn count_disjoint(build: Build, stored: &[u64], queries: &[u64], bits: u32) -> u64 {
    Sieve::new(build, stored, queries, bits).count(queries)
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
    use super::super::testing::{plain, Sparse};
    use super::*;

    /// Sieved counts (cuts, squeezed bits) in every build against a plain count.
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
            // Bits no stored pattern has (squeezed out when that saves a chunk), set in queries.
            for (len, dead) in [
                (40usize, 0x0003_0000_0F00u64),
                (3000, 0x0000_0404_0000),
                (600, 0x3F),
            ] {
                let p: Vec<u64> = (0..len).map(|_| next.bits(38) & !dead).collect();
                let q: Vec<u64> = (0..300)
                    .map(|_| next.bits(38) | (next.bits(38) & dead))
                    .collect();
                let (squeeze, left) = Squeeze::new(p.iter().fold(0, |a, &x| a | x), 38, len);
                assert!(left <= 38 && squeeze.dead.len() as u32 == 38 - left);
                assert_eq!(
                    count_disjoint(build, &p, &q, 38),
                    plain(&p, &q),
                    "{}: dead {dead:x}",
                    build.name()
                );
            }
        }
        let (s, left) = Squeeze::new(!0b1010 & ((1 << 38) - 1), 38, 100 * BLOCK);
        assert_eq!((s.dead.as_slice(), left), (&[3u32, 1][..], 36));
        assert_eq!(s.apply(0b1111_0101), 0b11_1111);
        assert_eq!(s.apply(0b1010), 0);
    }
}
