//! Joining quarters into half-boards without a branch per candidate: the filters that keep the
//! quarters fitting the middle queens, and the north-south join, write every candidate and
//! move their end on only past the ones kept (about half of them at N = 17, a third at
//! N = 18: a branch on the test would mispredict often). The join does four pairs at a time
//! with AVX2 where the CPU has it. On an odd board, a worker keeps the quarters filtered for
//! its current middle configuration ([`Memo`]).

/// Quarter placements kept for a join: what each can meet across the half's middle row
/// (`meets`) and its match key (`keys`), the first `len` of each valid.
#[derive(Debug, Default)]
pub struct Parts {
    pub meets: Vec<u64>,
    pub keys: Vec<u64>,
    pub len: usize,
}

impl Parts {
    /// Empties the parts and makes room for `n` candidates, and the padding [`join_avx2`]
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
    pub fn kept(&self) -> (&[u64], &[u64], usize) {
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

/// The quarters filtered for one middle configuration, kept while a worker counts its row
/// sets: a quarter list is read by many row sets of one configuration (34 times on average at
/// N = 17), and filtering it again each time cost more than joining. Odd boards use it, and
/// even boards whose whole filtered table fits under its cap (one configuration: the lists,
/// split by their queens on a long diagonal on the west side).
#[derive(Debug, Default)]
pub struct Memo {
    /// The configuration the entries are for.
    owner: Option<(u64, u32)>,
    /// Per slot (quadrant and quarter list): where its kept quarters start in the arena
    /// (`u32::MAX`: not filtered yet) and how many there are of each class (those without a
    /// queen on the split diagonal, then those with one; all in the first without a split).
    slots: Vec<[u32; 3]>,
    meets: Vec<u64>,
    keys: Vec<u64>,
    len: usize,
    /// The most quarters the arena holds: past it, it is emptied and filled again.
    cap: usize,
}

impl Memo {
    /// Bytes a memo of `slots` slots and `cap` quarters holds at most.
    pub fn bytes_for(slots: usize, cap: usize) -> usize {
        slots * 12 + (cap + 8) * 16
    }

    /// Keeps the entries if they are `owner`'s (a plan's unique id and a middle configuration
    /// of it), else empties the memo for `owner`.
    pub fn begin(&mut self, owner: (u64, u32), slots: usize, cap: usize) {
        if self.owner != Some(owner) || self.slots.len() != slots {
            self.owner = Some(owner);
            self.cap = cap;
            self.empty(slots);
        }
    }

    fn empty(&mut self, slots: usize) {
        self.slots.clear();
        self.slots.resize(slots, [u32::MAX, 0, 0]);
        self.len = 0;
    }

    /// Makes room for `n` more quarters filtered in `passes` passes (a split list is filtered
    /// once per class, each pass writing from where the last ended and needing room for the
    /// whole list): empties the memo first if the quarters kept would pass its cap. The
    /// ranges [`Memo::fit`] returned before are then stale: call it before taking any.
    pub fn room(&mut self, n: usize, passes: usize) {
        if self.len + n > self.cap {
            self.empty(self.slots.len());
        }
        let need = self.len + passes * n + 4;
        if self.meets.len() < need {
            let grow = need.max(self.meets.len() * 2).min(self.cap + 8).max(need);
            self.meets.resize(grow, 0);
            self.keys.resize(grow, 0);
        }
    }

    /// The ranges of the quarters of `slot` that fit, by class (see [`keep_fitting`]'s
    /// `split`), filtering `quarters` through `l` on first use (room for them made by
    /// [`Memo::room`]).
    #[inline(always)]
    pub fn fit(
        &mut self,
        slot: usize,
        quarters: &[[u32; 2]],
        l: Lens,
        split: Option<(bool, u32)>,
    ) -> [(usize, usize); 2] {
        let [start, k0, k1] = self.slots[slot];
        let (at, k0, k1) = if start != u32::MAX {
            (start as usize, k0 as usize, k1 as usize)
        } else {
            let at = self.len;
            let class = |on| split.map(|(in_d1, bit)| (in_d1, bit, on));
            let k0 = fit_into(
                quarters,
                l,
                class(false),
                &mut self.meets[at..],
                &mut self.keys[at..],
            );
            let k1 = match split {
                None => 0,
                Some(_) => {
                    let from = at + k0;
                    fit_into(
                        quarters,
                        l,
                        class(true),
                        &mut self.meets[from..],
                        &mut self.keys[from..],
                    )
                }
            };
            self.len += k0 + k1;
            self.slots[slot] = [at as u32, k0 as u32, k1 as u32];
            (at, k0, k1)
        };
        [(at, k0), (at + k0, k1)]
    }

    /// The meets and keys of a range [`Memo::fit`] returned, padded to a multiple of four as
    /// [`Parts::kept`], and how many they are.
    #[inline(always)]
    pub fn get(&self, (at, len): (usize, usize)) -> (&[u64], &[u64], usize) {
        // The arena had room for the whole list and 4 more when the range was filtered.
        let end = at + len.next_multiple_of(4);
        (&self.meets[at..end], &self.keys[at..end], len)
    }
}

/// Appends to `out` the key `top_key | keys[i]` of every `i` whose `meets[i]` has no bit in
/// common with `top_meet`: the half-boards one north quarter makes with the south ones. One
/// pair at a time, for any CPU ([`join_avx2`] does four).
#[inline(always)]
pub fn join_portable(
    top_meet: u64,
    top_key: u64,
    meets: &[u64],
    keys: &[u64],
    n: usize,
    out: &mut Vec<u64>,
) {
    let mut len = out.len();
    out.resize(len + n, 0);
    for (&m, &k) in meets[..n].iter().zip(&keys[..n]) {
        out[len] = top_key | k;
        len += usize::from(top_meet & m == 0);
    }
    out.truncate(len);
}

/// For each 4-bit mask of kept lanes, the 32-bit lane indices that move the kept 64-bit lanes
/// to the front, in order.
#[cfg(target_arch = "x86_64")]
static COMPRESS: [[u32; 8]; 16] = {
    let mut t = [[0u32; 8]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut lane, mut to) = (0, 0);
        while lane < 4 {
            if mask >> lane & 1 == 1 {
                t[mask][2 * to] = 2 * lane as u32;
                t[mask][2 * to + 1] = 2 * lane as u32 + 1;
                to += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    t
};

/// [`join_portable`] four pairs at a time: test four meets, OR the top key onto four keys, move the
/// kept ones to the front of the register (a permutation looked up by the test's mask) and
/// store all four; the end moves on by the number kept. The last group reads the padding past
/// `n` (so `meets` and `keys` hold at least `n` rounded up to four) and keeps none of it.
///
/// # Safety
/// The CPU must have AVX2 and popcnt.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
pub unsafe fn join_avx2(
    top_meet: u64,
    top_key: u64,
    meets: &[u64],
    keys: &[u64],
    n: usize,
    out: &mut Vec<u64>,
) {
    use std::arch::x86_64::*;
    let quads = n.div_ceil(4);
    assert!(meets.len() >= 4 * quads && keys.len() >= 4 * quads);
    // Each store writes four lanes, of which the ones past the kept are overwritten next.
    out.reserve(4 * quads);
    let mut len = out.len();
    let base = out.as_mut_ptr();
    let tm = _mm256_set1_epi64x(top_meet as i64);
    let tk = _mm256_set1_epi64x(top_key as i64);
    let zero = _mm256_setzero_si256();
    for q in 0..quads {
        // The last group's lanes past `n` are padding: never kept.
        let valid = if 4 * q + 4 <= n {
            15
        } else {
            (1 << (n - 4 * q)) - 1
        };
        // SAFETY: `4 q + 3 < 4 quads`, within both inputs (asserted); the store's four lanes
        // end at most at `len + 4 <= old len + 4 quads`, within the capacity reserved.
        unsafe {
            let m = _mm256_loadu_si256(meets.as_ptr().add(4 * q) as *const __m256i);
            let k = _mm256_loadu_si256(keys.as_ptr().add(4 * q) as *const __m256i);
            let hit = _mm256_cmpeq_epi64(_mm256_and_si256(m, tm), zero);
            let mask = _mm256_movemask_pd(_mm256_castsi256_pd(hit)) as usize & valid;
            let perm = _mm256_loadu_si256(COMPRESS[mask].as_ptr() as *const __m256i);
            let packed = _mm256_permutevar8x32_epi32(_mm256_or_si256(k, tk), perm);
            _mm256_storeu_si256(base.add(len) as *mut __m256i, packed);
            len += mask.count_ones() as usize;
        }
    }
    // SAFETY: the first `len` elements were written (the old ones, then the kept pairs).
    unsafe { out.set_len(len) };
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let mut a = vec![7];
            join_portable(tm, tk, &meets, &keys, n, &mut a);
            assert_eq!(a, want, "portable, n={n}");
            #[cfg(target_arch = "x86_64")]
            if crate::count::kernel::isa() >= crate::count::kernel::Isa::Avx2 {
                let mut b = vec![7];
                // SAFETY: the CPU has AVX2.
                unsafe { join_avx2(tm, tk, &meets, &keys, n, &mut b) };
                assert_eq!(b, want, "AVX2, n={n}");
            }
        }
    }
}
