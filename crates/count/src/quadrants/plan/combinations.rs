//! Combinations of `k` of the positions `0..64` as bit masks, in increasing order of their masks
//! (Gosper's order): counted ([`binomial`]), found by rank ([`unrank`], the combinatorial
//! number system) and stepped through ([`next_subset`]). A quadrant plan's task is a range of
//! ranks: its row sets are found this way, never stored.

/// `C(n, k)` (0 when `k > n`), exact for the sizes here (up to `C(64, 32)`).
pub(in crate::quadrants) fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u128, |c, i| c * (n - i) as u128 / (i + 1) as u128) as u64
}

/// The combination of rank `rank` among the `k`-subsets of `0..64` in increasing order of
/// their masks (Gosper's order: the combinatorial number system).
pub(in crate::quadrants) fn unrank(mut rank: u64, k: u32) -> u64 {
    let mut pick = 0u64;
    for i in (1..=k as u64).rev() {
        // The largest c with C(c, i) <= rank.
        let mut c = i - 1;
        while binomial(c + 1, i) <= rank {
            c += 1;
        }
        rank -= binomial(c, i);
        pick |= 1 << c;
    }
    pick
}

/// The next larger number with as many bits set as `x` (Gosper's hack; `x` not 0).
pub(in crate::quadrants) fn next_subset(x: u64) -> u64 {
    let low = x & x.wrapping_neg();
    let ripple = x + low;
    (((ripple ^ x) >> 2) / low) | ripple
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gosper_steps_through_every_subset_of_a_size_in_order() {
        let mut x = 0b111u64;
        let mut seen = Vec::new();
        while x < 1 << 6 {
            seen.push(x);
            x = next_subset(x);
        }
        let want: Vec<u64> = (0..64u64).filter(|v| v.count_ones() == 3).collect();
        assert_eq!(seen, want);
        // Unranking gives the same order, from any rank.
        for (r, &x) in seen.iter().enumerate() {
            assert_eq!(unrank(r as u64, 3), x, "rank {r}");
        }
        assert_eq!(binomial(28, 14), 40_116_600);
        assert_eq!(binomial(3, 5), 0);
    }
}
