//! Counting one row set: its east and west half-boards built, the smaller side stored in a
//! [`Sieve`] and the other matched against it; on an even board the west half-boards are
//! weighted by their queens on the long diagonals (see [`super::Quadrants`]).

use super::halves::{Scratch, Side};
use super::matcher::sieve::{cost, count_disjoint, Sieve};
use super::plan::{Part, RowSet};
use super::Quadrants;

/// A row set's east half-boards, stored for matching, kept by a worker while it counts the
/// row set's parts ([`Part`]): built once for all of them.
#[derive(Debug)]
pub(super) struct Stored {
    /// The plan ([`Quadrants::uid`]), middle configuration and east rows of the row set.
    key: (u64, u16, u32),
    sieve: Sieve,
    /// How many east half-boards it holds.
    halves: u64,
}

/// Stored pieces built again smaller ([`Quadrants::store_piece`]): how the tests know they
/// reached that path.
#[cfg(test)]
pub(super) static REBUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The bytes the west half-boards `b` hold, with the sieve's lists of them as it counts
/// (about three times the queries, [`Quadrants::bytes_per_key`]).
fn held(b: &[Vec<u64>; 3]) -> u64 {
    b.iter()
        .map(|v| v.capacity() * 8 + v.len() * 24)
        .sum::<usize>() as u64
}

impl Quadrants {
    /// The weighted count of the solutions of part `part` of row set `r` (its weight
    /// included), and the half-boards built (the east ones with its first part).
    pub(super) fn count_rowset(&self, r: &RowSet, part: Part, s: &mut Scratch) -> (u128, u64) {
        let mid = &self.layout.middles[r.middle as usize];
        let even = self.layout.n.is_multiple_of(2);
        let mut east_side = *mid;
        if even {
            // East keeps no queen on a long diagonal (see below): they are barred while
            // its quarters are joined.
            east_side.d1 |= 1 << (self.layout.n - 1);
            east_side.d2 |= 1 << (self.layout.n - 1);
        }
        self.prepare_slices(r, s);
        let (mut a, mut b) = (std::mem::take(&mut s.east), std::mem::take(&mut s.west));
        a.iter_mut().chain(b.iter_mut()).for_each(Vec::clear);
        let east = Side {
            mid: &east_side,
            rows: r.east,
            east: true,
            split: false,
            long_only: false,
            memo: self.memo_used().then_some(u32::from(r.middle)),
            upto: usize::MAX,
        };
        // Even board: the west side split by its queens on the long diagonals (see below).
        let mut west = Side {
            mid,
            rows: mid.rows & !r.east,
            east: false,
            split: even,
            long_only: even && r.open == 0,
            ..east
        };
        let run = part.range(self.column_set_count(&west));
        west.upto = run.end;
        if part.of > 1 && self.piece == usize::MAX {
            (s.east, s.west) = (a, b);
            return self.count_part(r, [east, west], run.start, part, s);
        }
        s.stored = None;
        let east_left = self.halves(self.build, east, s, &mut a, 0, self.piece);
        let west_left = self.halves(self.build, west, s, &mut b, run.start, self.piece);
        let (found, built) = if east_left.is_none() && west_left.is_none() {
            let found = if even {
                self.match_even(&a[0], &b, r.open)
            } else {
                self.match_odd(&a[0], &b[0])
            };
            let east_built = if part.index == 0 { a[0].len() } else { 0 };
            (
                found,
                (east_built + b.iter().map(Vec::len).sum::<usize>()) as u64,
            )
        } else {
            let from = [0, run.start];
            let east_counted = part.index == 0;
            self.count_in_pieces(
                [east, west],
                from,
                east_counted,
                s,
                [&mut a, &mut b],
                r.open,
            )
        };
        (s.east, s.west) = (a, b);
        (found * r.weight as u128, built)
    }

    /// Makes sure the worker holds the quarter slices row set `r` reads (on boards counted
    /// without a whole table).
    fn prepare_slices(&self, r: &RowSet, s: &mut Scratch) {
        if self.slices {
            let west = self.layout.middles[r.middle as usize].rows & !r.east;
            let [ne, se] = self.quarter_rows(r.east);
            let [nw, sw] = self.quarter_rows(west);
            s.slices.prepare(self.layout.h, [ne, se, nw, sw]);
        }
    }

    /// Part of a row set ([`Part`]), in one piece: its west half-boards (those of the column
    /// sets from `from` to `west.upto`) matched against all the east ones, which the worker
    /// builds and stores once for the row set's parts ([`Stored`], shaped for the queries of
    /// all of them: this part's times their number). The east half-boards are counted as
    /// built with the first part only.
    fn count_part(
        &self,
        r: &RowSet,
        [east, west]: [Side; 2],
        from: usize,
        part: Part,
        s: &mut Scratch,
    ) -> (u128, u64) {
        let first = part.index == 0;
        let key = (self.uid, r.middle, r.east);
        if s.stored.as_ref().is_some_and(|x| x.key != key) {
            // Dropped before this row set's sides are built: never two stored at once.
            s.stored = None;
        }
        let mut b = std::mem::take(&mut s.west);
        b.iter_mut().for_each(Vec::clear);
        self.halves(self.build, west, s, &mut b, from, usize::MAX);
        let queries: usize = b.iter().map(Vec::len).sum();
        if queries == 0 && !first {
            s.west = b;
            return (0, 0);
        }
        if s.stored.is_none() {
            let mut a = std::mem::take(&mut s.east);
            a.iter_mut().for_each(Vec::clear);
            self.halves(self.build, east, s, &mut a, 0, usize::MAX);
            let even = self.layout.n.is_multiple_of(2);
            let sample = &b[usize::from(even)];
            s.stored = Some(Stored {
                key,
                sieve: Sieve::expecting(
                    self.build,
                    &a[0],
                    sample,
                    queries * part.of as usize,
                    self.key_bits(),
                ),
                halves: a[0].len() as u64,
            });
            s.east = a;
        }
        let stored = s.stored.as_ref().expect("stored above");
        let weights = self.weights(r.open);
        let found: u128 = (0..3)
            .filter(|&k| weights[k] != 0 && !b[k].is_empty())
            .map(|k| weights[k] * stored.sieve.count(&b[k]) as u128)
            .sum();
        let built = queries as u64 + if first { stored.halves } else { 0 };
        s.west = b;
        (found * r.weight as u128, built)
    }

    /// The weights of an even board's west half-boards with 0, 1 and 2 queens on a long
    /// diagonal (the first `open`, see [`Quadrants::match_even`]); an odd board's all in the
    /// first.
    pub(super) fn weights(&self, open: u32) -> [u128; 3] {
        if self.layout.n.is_multiple_of(2) {
            [open as u128, 2, 4]
        } else {
            [1, 0, 0]
        }
    }

    /// A row set too large for a worker's memory: its east half-boards built in pieces,
    /// each stored ([`Quadrants::store_piece`]) and matched against the west half-boards
    /// built in pieces of [`Quadrants::piece`] (again for each east piece). The same count and
    /// the same half-boards built (each counted once; the east ones only if `east_counted`)
    /// as in one piece. The sides are built from column sets `from`.
    fn count_in_pieces(
        &self,
        [east, west]: [Side; 2],
        from: [usize; 2],
        east_counted: bool,
        s: &mut Scratch,
        [a, b]: [&mut [Vec<u64>; 3]; 2],
        open: u32,
    ) -> (u128, u64) {
        let weights = self.weights(open);
        let (mut found, mut built) = (0u128, 0u64);
        let mut first = true;
        let mut stored_from = Some(from[0]);
        let mut target = self.piece;
        while let Some(at) = stored_from {
            // The first piece of queries: the sieve is cut on its bits.
            b.iter_mut().for_each(Vec::clear);
            let mut query_from = self.halves(self.build, west, s, b, from[1], self.piece);
            let sieve;
            (stored_from, sieve) = self.store_piece(east, s, a, at, &mut target, b);
            if east_counted {
                built += a[0].len() as u64;
            }
            loop {
                if first {
                    built += b.iter().map(Vec::len).sum::<usize>() as u64;
                }
                found += (0..3)
                    .filter(|&k| weights[k] != 0 && !b[k].is_empty())
                    .map(|k| weights[k] * sieve.count(&b[k]) as u128)
                    .sum::<u128>();
                let Some(at) = query_from else { break };
                b.iter_mut().for_each(Vec::clear);
                query_from = self.halves(self.build, west, s, b, at, self.piece);
            }
            first = false;
        }
        (found, built)
    }

    /// One piece of east half-boards, from column set `at`, about `target` of them, stored in
    /// a sieve shaped on the first piece of `queries` (an even board's with one queen on a
    /// long diagonal); returns where the next piece starts, and the sieve. Its tables are
    /// known before they are built ([`table_bytes`]): when they and the keys would pass the
    /// worker's room ([`Quadrants::room`]) beside the queries ([`held`]), the piece is built
    /// again smaller. `target` learns from each piece what a key
    /// costs (within a limit; unlimited, it stays: how the tests force small pieces).
    ///
    /// [`table_bytes`]: super::matcher::sieve::Shaped::table_bytes
    fn store_piece(
        &self,
        east: Side,
        s: &mut Scratch,
        a: &mut [Vec<u64>; 3],
        at: usize,
        target: &mut usize,
        queries: &[Vec<u64>; 3],
    ) -> (Option<usize>, Sieve) {
        let sample = &queries[usize::from(self.layout.n.is_multiple_of(2))];
        let held = held(queries);
        let mut before = None;
        loop {
            a.iter_mut().for_each(Vec::clear);
            let next = self.halves(self.build, east, s, a, at, *target);
            let keys = a[0].len();
            let shaped = Sieve::shape(self.build, &a[0], sample, sample.len(), self.key_bits());
            let tables = shaped.table_bytes() as u64;
            // The keys (as their vectors hold them) and the sieve's copy of them.
            let own = (a.iter().map(Vec::capacity).sum::<usize>() + keys) as u64 * 8;
            if self.room != u64::MAX && keys > 0 {
                // A key's tables as this piece's, a tenth more, and its share of the keys'
                // vectors (up to twice the keys as they grow) and copy.
                let per_key = tables as f64 / keys as f64 * 1.1 + 24.0;
                let avail = self.room.saturating_sub(held) as f64;
                *target = ((avail / per_key) as usize).max(1);
            }
            // Passing, a piece is built again smaller, unless that built no fewer (one
            // column set's half-boards are never split).
            if held + own + tables <= self.room || before == Some(keys) {
                return (next, shaped.build());
            }
            before = Some(keys);
            *target = (*target).min(keys.saturating_sub(1)).max(1);
            #[cfg(test)]
            REBUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// The local rows (masks of `0..h`) of the north and the south quadrant of a side on
    /// the global rows `rows`.
    pub(super) fn quarter_rows(&self, rows: u32) -> [u32; 2] {
        let full = (1u32 << self.layout.h) - 1;
        [rows & full, rows >> self.layout.far & full]
    }

    /// The bits of a match key: `2h - 1` diagonals of each family.
    fn key_bits(&self) -> u32 {
        2 * (2 * self.layout.h - 1)
    }

    /// An odd board's (east, west) pairs that make solutions.
    fn match_odd(&self, east: &[u64], west: &[u64]) -> u128 {
        // Store the side the sieve's cost model prefers (the larger, once both are large).
        let (stored, queries) = if cost(west.len(), east.len()) < cost(east.len(), west.len()) {
            (west, east)
        } else {
            (east, west)
        };
        count_disjoint(self.build, stored, queries, self.key_bits()) as u128
    }

    /// An even board's solutions from its east half-boards and its west ones split by their
    /// queens on the long diagonals, key bits `h - 1` (anti-diagonal, `r + c = N - 1`) and
    /// `3h - 2` (main diagonal, `r = c`). East keeps no queen on either (on the main diagonal
    /// in the south-east, the anti-diagonal in the north-east); each west queen on one stands
    /// for 2 solutions (half turn, transposes); with none, `open` says.
    ///
    /// The east side is stored and the west's three groups matched against it, or, when the
    /// sieve's cost model says so (large west groups), each west group stored and the east
    /// side matched against each.
    fn match_even(&self, east: &[u64], west: &[Vec<u64>; 3], open: u32) -> u128 {
        let weights = self.weights(open);
        let groups = (0..3).filter(|&k| weights[k] != 0 && !west[k].is_empty());
        let queries: usize = groups.clone().map(|k| west[k].len()).sum();
        let west_stored: f64 = groups.map(|k| cost(west[k].len(), east.len())).sum();
        self.match_even_storing(east, west, open, west_stored < cost(east.len(), queries))
    }

    /// [`Quadrants::match_even`] with the west groups stored (`store_west`) or the east side.
    fn match_even_storing(
        &self,
        east: &[u64],
        west: &[Vec<u64>; 3],
        open: u32,
        store_west: bool,
    ) -> u128 {
        let weights = self.weights(open);
        let groups: Vec<usize> = (0..3)
            .filter(|&k| weights[k] != 0 && !west[k].is_empty())
            .collect();
        let queries: usize = groups.iter().map(|&k| west[k].len()).sum();
        if store_west {
            return groups
                .iter()
                .map(|&k| {
                    weights[k] * count_disjoint(self.build, &west[k], east, self.key_bits()) as u128
                })
                .sum();
        }
        let sieve = Sieve::expecting(self.build, east, &west[1], queries, self.key_bits());
        groups
            .iter()
            .map(|&k| weights[k] * sieve.count(&west[k]) as u128)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::oeis::Sequence;

    /// Both ways of matching an even board's sides (east stored, or each west group) give the
    /// weighted count of disjoint pairs, on sides large enough to be split by the sieve.
    #[test]
    fn either_side_stored_counts_the_same() {
        let q = Quadrants::new(16).unwrap();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & (x >> 1) & ((1 << q.key_bits()) - 1)
        };
        let east: Vec<u64> = (0..9000).map(|_| next()).collect();
        let west: [Vec<u64>; 3] = [3000, 12_000, 0].map(|n| (0..n).map(|_| next()).collect());
        let plain = |v: &[u64]| -> u128 {
            v.iter()
                .map(|w| east.iter().filter(|&&e| e & w == 0).count() as u128)
                .sum()
        };
        for open in [0, 1, 2] {
            let want = open as u128 * plain(&west[0]) + 2 * plain(&west[1]);
            for store_west in [false, true] {
                let got = q.match_even_storing(&east, &west, open, store_west);
                assert_eq!(got, want, "open {open}, west stored {store_west}");
            }
            assert_eq!(q.match_even(&east, &west, open), want);
        }
    }

    /// Each task's count against the solutions themselves (enumerated by backtracking): a
    /// task counts, times its weight, the solutions with its middle queens and its east rows
    /// (on an even board, weighted by their long-diagonal queens as the module says).
    #[test]
    fn every_task_counts_what_the_solutions_say() {
        for n in 6..=11u32 {
            let q = Quadrants::new(n).unwrap();
            let (h, far, m) = (q.layout.h, q.layout.far, n - 1);
            let mut want = std::collections::HashMap::new();
            for s in crate::solve::enumerate::Solutions::new(n).unwrap() {
                let s: Vec<u32> = s.iter().map(|&c| c as u32).collect();
                let east = (0..n)
                    .filter(|&r| s[r as usize] >= far && !(n % 2 == 1 && r == h))
                    .fold(0u32, |a, r| a | 1 << r);
                let queens: Vec<(u32, u32)> = if n % 2 == 0 {
                    Vec::new()
                } else if s[h as usize] == h {
                    vec![(h, h)]
                } else {
                    let rm = (0..n).find(|&r| s[r as usize] == h).unwrap();
                    vec![(h, s[h as usize]), (rm, h)]
                };
                // Long diagonals of an even board: main (r = c), anti (r + c = n - 1).
                let on = |r: u32| (s[r as usize] == r, s[r as usize] + r == m);
                let weight = if n % 2 == 1 {
                    1
                } else {
                    let (mut nw, mut sw, mut barred) = (false, false, false);
                    for r in 0..n {
                        let (main, anti) = on(r);
                        nw |= main && r < h;
                        barred |= (main && r >= h) || (anti && r < h);
                        sw |= anti && r >= h;
                    }
                    match (barred, nw, sw) {
                        (true, _, _) => 0,
                        (false, false, false) => u32::MAX, // the task's open weight
                        (false, a, b) => (1 + a as u32) * (1 + b as u32),
                    }
                };
                *want.entry((queens, east, weight)).or_insert(0u128) += 1;
            }
            let mut sum = 0;
            for t in &q.layout.all_rowsets() {
                let RowSet {
                    middle,
                    east,
                    weight,
                    open,
                } = *t;
                let mid = q.layout.middles[middle as usize];
                let queens = mid.queens[..mid.len as usize].to_vec();
                let expected: u128 = want
                    .iter()
                    .filter(|((qs, e, _), _)| *qs == queens && *e == east)
                    .map(|((_, _, w), c)| c * if *w == u32::MAX { open } else { *w } as u128)
                    .sum::<u128>()
                    * weight as u128;
                let (got, _) = q.count_rowset(t, Part::WHOLE, &mut Scratch::default());
                assert_eq!(got, expected, "n={n} {t:?}");
                sum += got;
            }
            assert_eq!(Some(sum), Sequence::A000170.known(n), "n={n}");
        }
    }
}
