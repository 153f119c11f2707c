//! Quarters made ready for a join: each seen where its quadrant lies on the board
//! ([`Projection`]), and filtered against the middle queens ([`keep_fitting`], [`fit_into`]).
//! The filters, like the joins of [`crate::arch`], write every candidate and move their
//! end on only past the ones kept (about half of them at N = 17, a third at N = 18: a branch
//! on the test would mispredict often).

use crate::arch::Candidates;

/// Quarter placements kept for a join: what each can meet across the half's middle row
/// (`meets`) and its match key (`keys`), the first `len` of each valid.
#[derive(Debug, Default)]
pub struct QuarterList {
    pub meets: Vec<u64>,
    pub keys: Vec<u64>,
    pub len: usize,
}

impl QuarterList {
    /// Empties the parts and makes room for `n` candidates, and the padding the AVX2 join
    /// reads past them.
    #[inline]
    pub fn start(&mut self, n: usize) {
        self.len = 0;
        if self.meets.len() < n + 3 {
            self.meets.resize(n + 3, 0);
            self.keys.resize(n + 3, 0);
        }
    }

    /// The kept quarters as candidates for a join: their meets and keys, padded to a
    /// multiple of four (the padding is not theirs).
    #[inline(always)]
    pub fn candidates(&self) -> Candidates<'_> {
        let padded = self.len.next_multiple_of(4);
        Candidates {
            meets: &self.meets[..padded],
            keys: &self.keys[..padded],
            len: self.len,
        }
    }
}

/// Where one quadrant's quarters land on the board, and what they must miss: a quarter's
/// local diagonals (`d1 = r + c`, `d2 = r - c + h - 1`) shifted to the board's, and the two
/// windows of them the method reads.
///
/// - The *meet*: the diagonals a north and a south quarter of one side can both reach, from
///   `meet_d1` (of `D1`) and `meet_d2` (of `D2`) on, `meet_width` of each. Two quarters join
///   into a half-board only if their meets share no bit.
/// - The *key*: the diagonals an east and a west half-board can both reach, from `key_from` on,
///   `key_width` of each family. Two half-boards make a solution only if their keys share no
///   bit.
#[derive(Debug, Clone, Copy)]
pub struct Projection {
    /// Shift of a quarter's local `d1` to the board's `D1`.
    pub shift_d1: u32,
    /// Shift of a quarter's local `d2` to the board's `D2`.
    pub shift_d2: u32,
    /// First `D1` diagonal of the meet.
    pub meet_d1: u32,
    /// First `D2` diagonal of the meet.
    pub meet_d2: u32,
    /// Diagonals of each family in the meet.
    pub meet_width: u32,
    /// `meet_width` low bits.
    pub meet_mask: u64,
    /// First diagonal of either family in the key.
    pub key_from: u32,
    /// Diagonals of each family in the key.
    pub key_width: u32,
    /// `key_width` low bits.
    pub key_mask: u64,
    /// The middle queens' `D1` diagonals, which a quarter must miss.
    pub middle_d1: u64,
    /// The middle queens' `D2` diagonals, which a quarter must miss.
    pub middle_d2: u64,
}

impl Projection {
    /// A quarter's board diagonals, its meet and its key, and whether it misses the middle
    /// queens' diagonals.
    #[inline(always)]
    fn project(&self, [x1, x2]: [u32; 2]) -> ([u64; 2], u64, u64, bool) {
        let (m1, m2) = ((x1 as u64) << self.shift_d1, (x2 as u64) << self.shift_d2);
        let meet = (m1 >> self.meet_d1 & self.meet_mask)
            | (m2 >> self.meet_d2 & self.meet_mask) << self.meet_width;
        let key = (m1 >> self.key_from & self.key_mask)
            | (m2 >> self.key_from & self.key_mask) << self.key_width;
        let fits = m1 & self.middle_d1 | m2 & self.middle_d2 == 0;
        ([m1, m2], meet, key, fits)
    }
}

/// A global diagonal: diagonal `bit` of `D1` (`r + c`) if `in_d1`, else of `D2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Diagonal {
    /// Whether it is of `D1`.
    pub in_d1: bool,
    /// Its index in its family.
    pub bit: u32,
}

impl Diagonal {
    /// Whether a quarter whose diagonals are `[m1, m2]` has a queen on it.
    #[inline(always)]
    fn taken(self, [m1, m2]: [u64; 2]) -> bool {
        (if self.in_d1 { m1 } else { m2 }) >> self.bit & 1 == 1
    }
}

/// The quarters with a queen on `diagonal` (`on`), or those without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiagonalClass {
    /// The diagonal.
    pub diagonal: Diagonal,
    /// Whether the class is of the quarters with a queen on it.
    pub on: bool,
}

/// Offers every quarter of `quarters` seen through `l` to `parts` (emptied first), kept
/// when it misses the middle queens' diagonals; with a `split` diagonal, those with a queen
/// on it go to `parts[1]`, the others to `parts[0]`.
#[inline(always)]
pub fn keep_fitting(
    quarters: &[[u32; 2]],
    l: Projection,
    split: Option<Diagonal>,
    parts: &mut [QuarterList; 2],
) {
    let n = quarters.len();
    let [a, b] = parts;
    a.start(n);
    b.len = 0;
    let Some(split) = split else {
        a.len = fit_into(quarters, l, None, &mut a.meets, &mut a.keys);
        return;
    };
    b.start(n);
    let (am, ak, bm, bk) = (
        &mut a.meets[..n],
        &mut a.keys[..n],
        &mut b.meets[..n],
        &mut b.keys[..n],
    );
    let (mut la, mut lb) = (0, 0);
    for &x in quarters {
        let (diagonals, meet, key, ok) = l.project(x);
        let on = split.taken(diagonals);
        // SAFETY: `la` and `lb` count kept quarters among the ones before this: both are
        // below `n`, the length of all four slices.
        unsafe {
            *am.get_unchecked_mut(la) = meet;
            *ak.get_unchecked_mut(la) = key;
            *bm.get_unchecked_mut(lb) = meet;
            *bk.get_unchecked_mut(lb) = key;
        }
        la += usize::from(ok && !on);
        lb += usize::from(ok && on);
    }
    (a.len, b.len) = (la, lb);
}

/// The quarters of `quarters` seen through `l` that miss the middle queens' diagonals, written
/// to the front of `meets` and `keys` (at least as long as `quarters`); returns how many.
/// With a `class`, only those of it (with a queen on its diagonal, or without).
#[inline(always)]
pub fn fit_into(
    quarters: &[[u32; 2]],
    l: Projection,
    class: Option<DiagonalClass>,
    meets: &mut [u64],
    keys: &mut [u64],
) -> usize {
    let n = quarters.len();
    let (meets, keys) = (&mut meets[..n], &mut keys[..n]);
    let mut len = 0;
    for &x in quarters {
        let (diagonals, meet, key, ok) = l.project(x);
        let fits = match class {
            None => ok,
            Some(c) => ok && c.diagonal.taken(diagonals) == c.on,
        };
        // SAFETY: `len` counts the kept quarters before this one: below `n`, the slices'
        // length.
        unsafe {
            *meets.get_unchecked_mut(len) = meet;
            *keys.get_unchecked_mut(len) = key;
        }
        len += usize::from(fits);
    }
    len
}

#[cfg(test)]
mod tests {
    use crate::arch::{testing::each_build, Candidates, PerBuild, Simd, Top};

    /// One north quarter joined with south ones, through a build.
    struct Join<'a> {
        top: Top,
        south: Candidates<'a>,
        out: Vec<u64>,
    }

    impl PerBuild for Join<'_> {
        type Out = Vec<u64>;
        fn run<S: Simd>(mut self, simd: S) -> Vec<u64> {
            simd.join(self.top, self.south, &mut self.out);
            self.out
        }
    }

    #[test]
    fn the_joins_keep_exactly_the_disjoint_pairs_in_order() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [0usize, 1, 3, 4, 5, 8, 9, 12, 15, 16, 17, 31, 100] {
            let meets: Vec<u64> = (0..n).map(|_| next() & next() & 0xFF).collect();
            let keys: Vec<u64> = (0..n).map(|_| next()).collect();
            let (tm, tk) = (next() & 0xFF, next() & 0xF0F0);
            let want: Vec<u64> = std::iter::once(7)
                .chain(
                    meets
                        .iter()
                        .zip(&keys)
                        .filter(|(&m, _)| m & tm == 0)
                        .map(|(_, &k)| k | tk),
                )
                .collect();
            // Padded as the callers' are, with values that would match.
            let pad = |v: &Vec<u64>| {
                let mut p = v.clone();
                p.resize(n.next_multiple_of(4), 0);
                p
            };
            let (meets, keys) = (pad(&meets), pad(&keys));
            let got = each_build("join", &super::super::builds(), |build| {
                build.run(Join {
                    top: Top { meet: tm, key: tk },
                    south: Candidates {
                        meets: &meets,
                        keys: &keys,
                        len: n,
                    },
                    out: vec![7],
                })
            });
            assert_eq!(got, want, "n={n}");
        }
    }
}
