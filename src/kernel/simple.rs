//! The plain recursive bitboard counter.

use crate::bits::{full_mask, Bits, Masks};

/// Counts the completions of a board whose first `row` rows are placed and whose attacks are
/// `masks`. Nodes are the queens placed below the root.
pub fn count(n: u32, row: u32, masks: Masks) -> Counts {
    let _ = row; // the masks alone say when the board is full
    let full = full_mask(n);
    let mut nodes = 0;
    let solutions = rec(masks, full, &mut nodes);
    Counts { solutions, nodes }
}

pub use super::Counts;

fn rec(m: Masks, full: u64, nodes: &mut u64) -> u64 {
    if m.cols == full {
        return 1;
    }
    let free = m.free(full);
    *nodes += free.count_ones() as u64;
    let mut s = 0;
    for bit in Bits(free) {
        s += rec(m.place(bit, full), full, nodes);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_boards() {
        let expect = [1u64, 0, 0, 2, 10, 4, 40, 92, 352, 724];
        for (i, &e) in expect.iter().enumerate() {
            let n = i as u32 + 1;
            assert_eq!(count(n, 0, Masks::EMPTY).solutions, e, "n={n}");
        }
    }

    #[test]
    fn nodes_of_four() {
        // 4-queens tree: 4 + 6 + 4 + 2 queens placed (A319284 row 4 without the root).
        assert_eq!(count(4, 0, Masks::EMPTY).nodes, 16);
    }
}
