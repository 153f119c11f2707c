//! Joining quarters into half-boards without a branch per candidate: the filters that keep the
//! quarters fitting the middle queens ([`keep_fitting`], [`fit_into`]), and the north-south
//! join ([`join_portable`]; its AVX2 twin does four pairs at a time in `arch/x86.rs`), write
//! every candidate and move their end on only past the ones kept (about half of them at
//! N = 17, a third at N = 18: a branch on the test would mispredict often).

/// Kept quarters ready for a join: their meets and their keys, padded to a multiple of four,
/// and how many are real.
pub type Kept<'a> = (&'a [u64], &'a [u64], usize);

/// Quarter placements kept for a join: what each can meet across the half's middle row
/// (`meets`) and its match key (`keys`), the first `len` of each valid.
#[derive(Debug, Default)]
pub struct Parts {
    pub meets: Vec<u64>,
    pub keys: Vec<u64>,
    pub len: usize,
}

impl Parts {
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

    /// The kept candidates' meets and keys, padded to a multiple of four (the padding is
    /// not theirs), and how many they are.
    #[inline(always)]
    pub fn kept(&self) -> Kept<'_> {
        let padded = self.len.next_multiple_of(4);
        (&self.meets[..padded], &self.keys[..padded], self.len)
    }
}

/// Where one quadrant's quarters land on the board, and what they must miss.
#[derive(Debug, Clone, Copy)]
pub struct Lens {
    /// Shifts of the quarter's local `d1` and `d2` to global diagonals.
    pub s1: u32,
    pub s2: u32,
    /// The north-south test's window: global diagonals from `b1` (`d1`) and `b2` (`d2`) on,
    /// `w` of each (`wmask`).
    pub b1: u32,
    pub b2: u32,
    pub w: u32,
    pub wmask: u64,
    /// The match key's window: global diagonals from `lo` on, `kw` of each (`kmask`).
    pub lo: u32,
    pub kw: u32,
    pub kmask: u64,
    /// The middle queens' global diagonals, which the quarter must miss.
    pub f1: u64,
    pub f2: u64,
}

impl Lens {
    /// A quarter's global diagonals, its meet and its key, and whether it misses the middle
    /// queens' diagonals.
    #[inline(always)]
    fn see(&self, [x1, x2]: [u32; 2]) -> ([u64; 2], u64, u64, bool) {
        let (m1, m2) = ((x1 as u64) << self.s1, (x2 as u64) << self.s2);
        let meet = (m1 >> self.b1 & self.wmask) | (m2 >> self.b2 & self.wmask) << self.w;
        let key = (m1 >> self.lo & self.kmask) | (m2 >> self.lo & self.kmask) << self.kw;
        ([m1, m2], meet, key, m1 & self.f1 | m2 & self.f2 == 0)
    }
}

/// Offers every quarter of `quarters` seen through `l` to `parts` (emptied first), kept
/// when it misses the middle queens' diagonals; with `split = Some((in_d1, bit))`, those with
/// a queen on global diagonal `bit` (of `d1` if `in_d1`, else of `d2`) go to `parts[1]`, the
/// others to `parts[0]`.
#[inline(always)]
pub fn keep_fitting(
    quarters: &[[u32; 2]],
    l: Lens,
    split: Option<(bool, u32)>,
    parts: &mut [Parts; 2],
) {
    let n = quarters.len();
    let [a, b] = parts;
    a.start(n);
    b.len = 0;
    let Some((in_d1, bit)) = split else {
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
        let ([m1, m2], meet, key, ok) = l.see(x);
        let on = (if in_d1 { m1 } else { m2 }) >> bit & 1 == 1;
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
/// With `class = Some((in_d1, bit, on))`, only those whose queen on global diagonal `bit` (of
/// `d1` if `in_d1`, else `d2`) is there if `on`, absent if not.
#[inline(always)]
pub fn fit_into(
    quarters: &[[u32; 2]],
    l: Lens,
    class: Option<(bool, u32, bool)>,
    meets: &mut [u64],
    keys: &mut [u64],
) -> usize {
    let n = quarters.len();
    let (meets, keys) = (&mut meets[..n], &mut keys[..n]);
    let mut len = 0;
    for &x in quarters {
        let ([m1, m2], meet, key, ok) = l.see(x);
        let fits = match class {
            None => ok,
            Some((in_d1, bit, on)) => ok && ((if in_d1 { m1 } else { m2 }) >> bit & 1 == 1) == on,
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

/// Appends to `out` the key `top_key | keys[i]` of every `i` whose `meets[i]` has no bit in
/// common with `top_meet`: the half-boards one north quarter makes with the south ones. One
/// pair at a time, for any CPU (the AVX2 build does four: [`super::arch::Simd::join`]).
#[inline(always)]
pub fn join_portable((top_meet, top_key): (u64, u64), (meets, keys, n): Kept, out: &mut Vec<u64>) {
    let mut len = out.len();
    out.resize(len + n, 0);
    for (&m, &k) in meets[..n].iter().zip(&keys[..n]) {
        out[len] = top_key | k;
        len += usize::from(top_meet & m == 0);
    }
    out.truncate(len);
}

#[cfg(test)]
mod tests {
    use super::super::arch::{Build, Simd, Work};

    /// One north quarter joined with south ones, through a build.
    struct Join<'a> {
        top: (u64, u64),
        meets: &'a [u64],
        keys: &'a [u64],
        n: usize,
        out: &'a mut Vec<u64>,
    }

    impl Work for Join<'_> {
        type Out = ();
        fn run<S: Simd>(self, simd: S) {
            simd.join(self.top, (self.meets, self.keys, self.n), self.out);
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
        for n in [0usize, 1, 3, 4, 5, 8, 31, 100] {
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
            for build in Build::all() {
                let mut a = vec![7];
                build.run(Join {
                    top: (tm, tk),
                    meets: &meets,
                    keys: &keys,
                    n,
                    out: &mut a,
                });
                assert_eq!(a, want, "{}, n={n}", build.name());
            }
        }
    }
}
