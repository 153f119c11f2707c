//! Matching a row set's two sides: the (east, west) pairs of half-boards with no square in
//! common (their keys disjoint) are its solutions. One side is stored in a [`Sieve`] and the
//! other's half-boards are its queries; which side is stored, the sieve's cost model decides.
//! On an even board the west half-boards come in three groups, by their queens on the long
//! diagonals, each weighed by [`west_weights`].

use super::matcher::sieve::{cost, count_disjoint, Sieve};
use super::plan::west_weights;
use crate::count::arch::Build;

/// The west half-boards `b` (by their queens on a long diagonal, on an even board) matched
/// against `sieve`, weighed by [`west_weights`].
pub(super) fn weighed(sieve: &Sieve, b: &[Vec<u64>; 3], even: bool, open: u32) -> u128 {
    let weights = west_weights(even, open);
    (0..3)
        .filter(|&k| weights[k] != 0 && !b[k].is_empty())
        .map(|k| weights[k] * sieve.count(&b[k]) as u128)
        .sum()
}

/// An odd board's (east, west) pairs that make solutions, keys of `bits` bits, matched in
/// `build`.
pub(super) fn match_odd(build: Build, bits: u32, east: &[u64], west: &[u64]) -> u128 {
    // Store the side the sieve's cost model prefers (the larger, once both are large).
    let (stored, queries) = if cost(west.len(), east.len()) < cost(east.len(), west.len()) {
        (west, east)
    } else {
        (east, west)
    };
    count_disjoint(build, stored, queries, bits) as u128
}

/// An even board's solutions from its east half-boards and its west ones split by their
/// queens on the long diagonals, key bits `h - 1` (anti-diagonal, `r + c = N - 1`) and
/// `3h - 2` (main diagonal, `r = c`), weighed by [`west_weights`].
///
/// The east side is stored and the west's three groups matched against it, or, when the
/// sieve's cost model says so (large west groups), each west group stored and the east side
/// matched against each.
pub(super) fn match_even(
    build: Build,
    bits: u32,
    east: &[u64],
    west: &[Vec<u64>; 3],
    open: u32,
) -> u128 {
    let weights = west_weights(true, open);
    let groups = (0..3).filter(|&k| weights[k] != 0 && !west[k].is_empty());
    let queries: usize = groups.clone().map(|k| west[k].len()).sum();
    let west_stored: f64 = groups.map(|k| cost(west[k].len(), east.len())).sum();
    let store_west = west_stored < cost(east.len(), queries);
    match_even_storing(build, bits, (east, west), open, store_west)
}

/// [`match_even`] with the west groups stored (`store_west`) or the east side.
fn match_even_storing(
    build: Build,
    bits: u32,
    (east, west): (&[u64], &[Vec<u64>; 3]),
    open: u32,
    store_west: bool,
) -> u128 {
    let weights = west_weights(true, open);
    let groups: Vec<usize> = (0..3)
        .filter(|&k| weights[k] != 0 && !west[k].is_empty())
        .collect();
    let queries: usize = groups.iter().map(|&k| west[k].len()).sum();
    if store_west {
        return groups
            .iter()
            .map(|&k| weights[k] * count_disjoint(build, &west[k], east, bits) as u128)
            .sum();
    }
    let sieve = Sieve::expecting(build, east, &west[1], queries, bits);
    weighed(&sieve, west, true, open)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::quadrants::geometry::Geometry;

    /// Both ways of matching an even board's sides (east stored, or each west group) give the
    /// weighted count of disjoint pairs, on sides large enough to be split by the sieve, in
    /// every build.
    #[test]
    fn either_side_stored_counts_the_same() {
        let bits = Geometry::new(16).key_bits();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & (x >> 1) & ((1 << bits) - 1)
        };
        let east: Vec<u64> = (0..9000).map(|_| next()).collect();
        let west: [Vec<u64>; 3] = [3000, 12_000, 0].map(|n| (0..n).map(|_| next()).collect());
        let plain = |v: &[u64]| -> u128 {
            v.iter()
                .map(|w| east.iter().filter(|&&e| e & w == 0).count() as u128)
                .sum()
        };
        for build in Build::all() {
            for open in [0, 1, 2] {
                let want = open as u128 * plain(&west[0]) + 2 * plain(&west[1]);
                for store_west in [false, true] {
                    let got = match_even_storing(build, bits, (&east, &west), open, store_west);
                    let name = build.name();
                    assert_eq!(got, want, "{name}: open {open}, west stored {store_west}");
                }
                assert_eq!(match_even(build, bits, &east, &west, open), want);
            }
        }
    }
}
