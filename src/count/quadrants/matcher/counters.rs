//! The carry-save (Harley–Seal) sums of the two-block loop: each query's results against two
//! blocks are added bit by bit into counters of weight 1, 2, 4 and 8, and only what carries
//! past 8 is popcounted.

use super::{CHUNK, COMBOS};
use crate::count::quadrants::arch::Simd;

/// One block's lanes: bit `i` of word `w` stands for pattern `64 w + i` of the block.
pub(super) type Lanes = [u64; 4];

#[inline(always)]
pub(super) fn and(acc: &mut Lanes, x: &Lanes) {
    for w in 0..4 {
        acc[w] &= x[w];
    }
}

#[inline(always)]
pub(super) fn add_popcounts(sums: &mut [u64; 4], x: &Lanes) {
    for w in 0..4 {
        sums[w] += x[w].count_ones() as u64;
    }
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
    fn add_four<const C: usize, S: Simd>(
        &mut self,
        (simd, live): (S, u64),
        t: &[Lanes],
        u: &[Lanes],
        valid: (Lanes, Lanes),
        qs: &[u64],
    ) -> Lanes {
        let (a0, b0) = pair::<C, S>((simd, live), t, u, valid, qs[0]);
        let (a1, b1) = pair::<C, S>((simd, live), t, u, valid, qs[1]);
        let (c0, s) = csa(&self.ones, &a0, &b0);
        let (c1, s) = csa(&s, &a1, &b1);
        let (t0, tw) = csa(&self.twos, &c0, &c1);
        let (a2, b2) = pair::<C, S>((simd, live), t, u, valid, qs[2]);
        let (a3, b3) = pair::<C, S>((simd, live), t, u, valid, qs[3]);
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

/// One query against two blocks (tables without their valid lanes, and those lanes).
#[inline(always)]
fn pair<const C: usize, S: Simd>(
    (simd, live): (S, u64),
    t: &[Lanes],
    u: &[Lanes],
    valid: (Lanes, Lanes),
    q: u64,
) -> (Lanes, Lanes) {
    let q = simd.extract(q, live);
    let (mut a, mut b) = valid;
    for c in 0..C {
        let at = c * COMBOS + ((q >> (c * CHUNK)) as usize & (COMBOS - 1));
        and(&mut a, &t[at]);
        and(&mut b, &u[at]);
    }
    (a, b)
}

/// Two blocks against every query, with `C` chunks: each query's table offsets serve both.
/// The two results per query are added up bit-wise in carry-save counters (a Harley–Seal
/// sum), so the lanes are popcounted once per 8 queries instead of twice per query.
#[inline(always)]
pub(super) fn count_blocks<const C: usize, S: Simd>(
    simd: S,
    live: u64,
    t: &[Lanes],
    u: &[Lanes],
    queries: &[u64],
) -> u64 {
    let valid = (t[C * COMBOS], u[C * COMBOS]);
    let (t, u) = (&t[..C * COMBOS], &u[..C * COMBOS]);
    let mut k = Counters::default();
    let mut sixteens = [0u64; 4];
    let mut groups = queries.chunks_exact(8);
    for g in &mut groups {
        let f0 = k.add_four::<C, S>((simd, live), t, u, valid, &g[..4]);
        let f1 = k.add_four::<C, S>((simd, live), t, u, valid, &g[4..]);
        let (e, s) = csa(&k.eights, &f0, &f1);
        k.eights = s;
        add_popcounts(&mut sixteens, &e);
    }
    let mut sums = sixteens.map(|x| 16 * x);
    k.sums(&mut sums);
    for &q in groups.remainder() {
        let (a, b) = pair::<C, S>((simd, live), t, u, valid, q);
        add_popcounts(&mut sums, &a);
        add_popcounts(&mut sums, &b);
    }
    sums.iter().sum()
}
