//! [`Simd::partition`]: patterns moved in place, those lacking some bits to the front. The
//! portable build swaps one pattern a step; the vector builds place a register's worth a step
//! through [`in_place`], which their primitives call with how they split one register.
//!
//! [`Simd::partition`]: super::Simd::partition

/// [`super::Simd::partition`] one pattern at a time: every step swaps, whether the pattern
/// stays or not, so there is no branch to mispredict (the ones from `front` to `i` all have
/// the bits).
#[inline(always)]
pub fn partition_portable(s: &mut [u64], m: u64) -> usize {
    let mut front = 0;
    for i in 0..s.len() {
        let lacks = s[i] & m == 0;
        s.swap(front, i);
        front += usize::from(lacks);
    }
    front
}

/// The most lanes a build's register holds ([`in_place`]'s `V`).
const MOST_LANES: usize = 8;

/// [`super::Simd::partition`] `V` patterns a step, in place, as vectorised sorts partition:
/// the first and last `V` are put aside, which frees `V` places at each end; each step reads
/// the next `V` unread patterns from the end with fewer free places, and `place` writes those
/// lacking `m` at the front's free places and the others just below the back's (so that both
/// ends always have room for a whole register: the free places add up to `2 V` before each
/// read). The last unread patterns (fewer than `V`) and the ones put aside are placed one at a
/// time. Boards of fewer than `2 V` patterns are swapped as the portable build does.
///
/// `place(from, m, front, back)` reads `V` patterns at `from`, writes the `k` that lack `m`
/// at `front .. front + k` and the others at `back - (V - k) .. back`, and returns `k`; it
/// writes nothing else.
#[inline(always)]
pub fn in_place<const V: usize>(
    s: &mut [u64],
    m: u64,
    place: impl Fn(*const u64, u64, *mut u64, *mut u64) -> usize,
) -> usize {
    const { assert!(V <= MOST_LANES) };
    let n = s.len();
    if n < 2 * V {
        return partition_portable(s, m);
    }
    // Put aside: the first V, the last V, and later the unread rest.
    let mut aside = [0u64; 3 * MOST_LANES];
    aside[..V].copy_from_slice(&s[..V]);
    aside[V..2 * V].copy_from_slice(&s[n - V..]);
    let base = s.as_mut_ptr();
    // Written: lacking at [0, front), having at [back, n); unread: [read, unread_end).
    let (mut front, mut back, mut read, mut unread_end) = (0, n, V, n - V);
    while unread_end - read >= V {
        // A branch, not a select: the next read's address then waits on no count (a select
        // made every step wait on the last one's popcount: 1.4 times the time).
        let from = if read - front <= back - unread_end {
            read += V;
            read - V
        } else {
            unread_end -= V;
            unread_end
        };
        // SAFETY: `from .. from + V` is within `s` (it was unread); the free places
        // (`front .. read` and `unread_end .. back`) add up to `2 V` before the read, so after
        // it the end read from has at least `V` and the other its share as before, and
        // `place` writes `k` of them at the front and `V - k` at the back.
        let k = place(
            unsafe { base.add(from) },
            m,
            unsafe { base.add(front) },
            unsafe { base.add(back) },
        );
        front += k;
        back -= V - k;
    }
    let rest = unread_end - read;
    aside[2 * V..2 * V + rest].copy_from_slice(&s[read..unread_end]);
    for &p in &aside[..2 * V + rest] {
        // Written at both ends' next free place; only one of them is kept (the places left
        // are exactly the patterns left, so the other is overwritten or is the same place).
        s[front] = p;
        s[back - 1] = p;
        let lacks = p & m == 0;
        front += usize::from(lacks);
        back -= usize::from(!lacks);
    }
    debug_assert_eq!(front, back);
    front
}

#[cfg(test)]
mod tests {
    use super::super::{Build, PerBuild, Simd};

    struct Parted<'a>(&'a mut [u64], u64);
    impl PerBuild for Parted<'_> {
        type Out = usize;
        fn run<S: Simd>(self, simd: S) -> usize {
            simd.partition(self.0, self.1)
        }
    }

    /// Every build's partition keeps the same patterns (as a multiset), puts exactly those
    /// lacking the bits first, and says how many, for every length around the registers' and
    /// for masks that keep none, some and all.
    #[test]
    fn every_build_partitions_in_place() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for build in Build::all() {
            for n in (0..70).chain([255, 256, 1000, 4097]) {
                for m in [0u64, 1, 1 << 5 | 1 << 9, u64::MAX] {
                    let before: Vec<u64> = (0..n).map(|_| next() & next()).collect();
                    let mut s = before.clone();
                    let k = build.run(Parted(&mut s, m));
                    let lacking = before.iter().filter(|&&p| p & m == 0).count();
                    let what = format!("{}: n {n} m {m:x}", build.name());
                    assert_eq!(k, lacking, "{what}");
                    assert!(s[..k].iter().all(|&p| p & m == 0), "{what}");
                    assert!(s[k..].iter().all(|&p| p & m != 0), "{what}");
                    let (mut a, mut b) = (before, s);
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "{what}");
                }
            }
        }
    }
}
