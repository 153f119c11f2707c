//! The explicit-stack counter: no calls, and the last free row is counted with one popcount
//! instead of being visited.

use super::builds::portable_and_bmi;
use super::found::Found;
use nqueens_board::spec::Spec;

portable_and_bmi!(batch);

#[inline(always)]
fn batch(specs: &[Spec], out: &mut [Found]) {
    for (s, o) in specs.iter().zip(out) {
        *o = count(s);
    }
}

/// Counts the completions of `s` with an explicit stack (inlined into each caller's build).
#[inline(always)]
pub(super) fn count(s: &Spec) -> Found {
    let mut c = Found::default();
    let k = s.k;
    if k == 0 {
        c.solutions = 1;
        return c;
    }
    let first = s.full & !s.forbid[0];
    c.nodes = first.count_ones() as u64;
    if k == 1 {
        c.solutions = c.nodes;
        return c;
    }
    let last = k - 1;
    let mut cols = [0u64; 64];
    let mut d1 = [0u64; 64];
    let mut d2 = [0u64; 64];
    let mut avail = [0u64; 64];
    avail[0] = first;
    let mut i = 0usize;
    let mut nodes = c.nodes;
    let mut solutions = 0u64;
    loop {
        let a = avail[i];
        if a == 0 {
            if i == 0 {
                break;
            }
            i -= 1;
            continue;
        }
        let bit = a & a.wrapping_neg();
        avail[i] = a ^ bit;
        let g = s.gap[i];
        let nc = cols[i] | bit;
        let n1 = (d1[i] | bit) << g;
        let n2 = (d2[i] | bit) >> g;
        let free = s.full & !(nc | n1 | n2 | s.forbid[i + 1]);
        let pop = free.count_ones() as u64;
        nodes += pop;
        if i + 1 == last {
            solutions += pop;
        } else if free != 0 {
            i += 1;
            cols[i] = nc;
            d1[i] = n1;
            d2[i] = n2;
            avail[i] = free;
        }
    }
    c.nodes = nodes;
    c.solutions = solutions;
    c
}
