//! The build for any CPU: plain Rust, one element at a time, without a branch per element.

use super::simd::{Candidates, Simd, Top, CHUNK, COMBOS};

/// The build for any CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Portable;

impl Simd for Portable {
    const PORTABLE: bool = true;

    #[inline(always)]
    fn join(self, top: Top, south: Candidates, out: &mut Vec<u64>) {
        join_portable(top, south, out);
    }

    #[inline(always)]
    fn extract(self, x: u64, mask: u64) -> u64 {
        // Never asked for a real extract (it would cost a loop over the mask's bits).
        debug_assert_eq!(mask, u64::MAX);
        x
    }

    #[inline(always)]
    fn keep_lacking(self, queries: &[u64], m: u64, out: &mut Vec<u64>) {
        keep_lacking_portable(queries, m, out);
    }

    #[inline(always)]
    fn entry<L>(self, table: &[L], c: usize, key: u64) -> &L {
        entry_portable(table, c, key)
    }
}

/// [`Simd::join`] one pair at a time: every candidate is written, and the end moves on only
/// past the ones kept (a branch on the test would mispredict often).
#[inline(always)]
pub fn join_portable(top: Top, south: Candidates, out: &mut Vec<u64>) {
    let n = south.len;
    let mut len = out.len();
    out.resize(len + n, 0);
    for (&m, &k) in south.meets[..n].iter().zip(&south.keys[..n]) {
        out[len] = top.key | k;
        len += usize::from(top.meet & m == 0);
    }
    out.truncate(len);
}

/// [`Simd::entry`] by a shift and a mask.
#[inline(always)]
pub fn entry_portable<L>(table: &[L], c: usize, key: u64) -> &L {
    &table[c * COMBOS + ((key >> (c * CHUNK)) as usize & (COMBOS - 1))]
}

/// [`Simd::keep_lacking`] one query at a time, without a branch per query.
#[inline(always)]
pub fn keep_lacking_portable(queries: &[u64], m: u64, out: &mut Vec<u64>) {
    out.clear();
    out.resize(queries.len(), 0);
    let mut n = 0;
    for &q in queries {
        out[n] = q;
        n += usize::from(q & m == 0);
    }
    out.truncate(n);
}
