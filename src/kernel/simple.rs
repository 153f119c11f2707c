//! The plain recursive bitboard counter: the yardstick.

use super::{Counts, Spec};

/// Counts the completions of `spec` by plain recursion over its free rows.
pub fn count(spec: &Spec) -> Counts {
    let mut c = Counts::default();
    if spec.k == 0 {
        c.solutions = 1;
    } else {
        rec(spec, 0, 0, 0, 0, &mut c);
    }
    c
}

fn rec(s: &Spec, i: usize, cols: u64, d1: u64, d2: u64, c: &mut Counts) {
    let mut free = s.full & !(cols | d1 | d2 | s.forbid[i]);
    c.nodes += free.count_ones() as u64;
    if i + 1 == s.k {
        c.solutions += free.count_ones() as u64;
        return;
    }
    let g = s.gap[i];
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        rec(s, i + 1, cols | bit, (d1 | bit) << g, (d2 | bit) >> g, c);
    }
}
