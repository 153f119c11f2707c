//! The lanes the tables are made of, and the carry-save (Harley–Seal) sums of the loop over a
//! pair of blocks or a block: each query's result is added bit by bit into counters of
//! weight 1, 2, 4 and 8, and only what carries past 8 is popcounted.

use crate::arch::{Simd, COMBOS};

/// One block's lanes: bit `i` of word `w` stands for pattern `64 w + i` of the block.
/// Aligned to its size, so that no load of one spans two cache lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub(super) struct Lanes(pub [u64; 4]);

/// Two blocks' lanes side by side (words 0–3 the first block's, 4–7 the second's): one
/// register in the AVX-512 build, two in the AVX2 build, one cache line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub(super) struct Pair(pub [u64; 8]);

/// What the tables are made of: one block's lanes or a pair's, combined word by word.
pub(super) trait LaneSet: Copy + Default {
    /// The words.
    fn words(&self) -> &[u64];
    /// The words, to change.
    fn words_mut(&mut self) -> &mut [u64];
}

/// Both lane types are their words.
macro_rules! lane_set {
    ($($t:ty),*) => {$(
        impl LaneSet for $t {
            #[inline(always)]
            fn words(&self) -> &[u64] {
                &self.0
            }
            #[inline(always)]
            fn words_mut(&mut self) -> &mut [u64] {
                &mut self.0
            }
        }
    )*};
}

lane_set!(Lanes, Pair);

#[inline(always)]
pub(super) fn and<L: LaneSet>(acc: &mut L, x: &L) {
    for (a, x) in acc.words_mut().iter_mut().zip(x.words()) {
        *a &= x;
    }
}

/// Adds each word's popcount to the per-word sums.
#[inline(always)]
pub(super) fn add_popcounts<L: LaneSet>(sums: &mut [u64; 8], x: &L) {
    for (s, x) in sums.iter_mut().zip(x.words()) {
        *s += x.count_ones() as u64;
    }
}

/// A carry-save adder on lanes: `(carry, sum)` of `a + b + c`, bit by bit.
#[inline(always)]
fn csa<L: LaneSet>(a: &L, b: &L, c: &L) -> (L, L) {
    let (mut carry, mut sum) = (L::default(), L::default());
    let words = carry.words_mut().iter_mut().zip(sum.words_mut());
    for (((k, s), a), (b, c)) in words.zip(a.words()).zip(b.words().iter().zip(c.words())) {
        let u = a ^ b;
        *k = (a & b) | (u & c);
        *s = u ^ c;
    }
    (carry, sum)
}

/// A build and the live bits a leaf's queries are packed to (`Simd::extract`).
#[derive(Debug, Clone, Copy)]
struct Extract<S> {
    simd: S,
    live: u64,
}

/// Carry-save counters of lanes: bit `i` of word `w` counts, in binary across them, the
/// results so far with that bit set.
#[derive(Clone, Copy, Default)]
struct Counters<L> {
    ones: L,
    twos: L,
    fours: L,
    eights: L,
}

impl<L: LaneSet> Counters<L> {
    /// Adds eight queries' results against a block or a pair of blocks; returns the carry
    /// out of `fours` (weight 8).
    #[inline(always)]
    fn add_eight<const C: usize, S: Simd>(
        &mut self,
        x: Extract<S>,
        t: &[L],
        valid: L,
        qs: &[u64],
    ) -> L {
        let r = |i: usize| lanes::<C, S, L>(x, t, valid, qs[i]);
        let (c0, s) = csa(&self.ones, &r(0), &r(1));
        let (c1, s) = csa(&s, &r(2), &r(3));
        let (t0, tw) = csa(&self.twos, &c0, &c1);
        let (c2, s) = csa(&s, &r(4), &r(5));
        let (c3, s) = csa(&s, &r(6), &r(7));
        let (t1, tw) = csa(&tw, &c2, &c3);
        let (f, fo) = csa(&self.fours, &t0, &t1);
        (self.ones, self.twos, self.fours) = (s, tw, fo);
        f
    }

    /// The per-word sums the counters hold.
    #[inline(always)]
    fn sums(&self, sums: &mut [u64; 8]) {
        for (weight, lanes) in [
            (1, &self.ones),
            (2, &self.twos),
            (4, &self.fours),
            (8, &self.eights),
        ] {
            let mut p = [0u64; 8];
            add_popcounts(&mut p, lanes);
            for (s, p) in sums.iter_mut().zip(p) {
                *s += weight * p;
            }
        }
    }
}

/// One query against a block or a pair of blocks (its tables without the valid lanes, and
/// those lanes).
#[inline(always)]
fn lanes<const C: usize, S: Simd, L: LaneSet>(
    Extract { simd, live }: Extract<S>,
    t: &[L],
    valid: L,
    q: u64,
) -> L {
    let q = simd.extract(q, live);
    let mut a = valid;
    for c in 0..C {
        and(&mut a, simd.entry(t, c, q));
    }
    a
}

/// A pair of blocks (or one block) against every query, with `C` chunks: each query's table
/// offsets serve both blocks. The results are added up bit-wise in carry-save counters (a
/// Harley–Seal sum), so the lanes are popcounted once per 16 queries instead of once per
/// query.
#[inline(always)]
pub(super) fn count_lanes<const C: usize, S: Simd, L: LaneSet>(
    simd: S,
    live: u64,
    t: &[L],
    queries: &[u64],
) -> u64 {
    let x = Extract { simd, live };
    let valid = t[C * COMBOS];
    let t = &t[..C * COMBOS];
    let mut k = Counters::<L>::default();
    let mut sixteens = [0u64; 8];
    let mut groups = queries.chunks_exact(16);
    for g in &mut groups {
        let f0 = k.add_eight::<C, S>(x, t, valid, &g[..8]);
        let f1 = k.add_eight::<C, S>(x, t, valid, &g[8..]);
        let (e, s) = csa(&k.eights, &f0, &f1);
        k.eights = s;
        add_popcounts(&mut sixteens, &e);
    }
    let mut sums = sixteens.map(|x| 16 * x);
    k.sums(&mut sums);
    for &q in groups.remainder() {
        add_popcounts(&mut sums, &lanes::<C, S, L>(x, t, valid, q));
    }
    sums.iter().sum()
}
