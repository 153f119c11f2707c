//! Counting one row set: its east and west half-boards built into their slots ([`Halves`]),
//! one side stored in sieves and the other matched against them ([`super::pairs`]), each pair
//! of slots weighed as [`super::transposes::weights`] says (on an even board by the west
//! half-boards' queens on the long diagonals, and their north columns against the row set's
//! key). A row set too large for a worker's memory is counted in pieces ([`Pieces`]), and a
//! part of one ([`Part`]) against the east side the worker stores once for all the row set's
//! parts ([`StoredEast`]).

use super::geometry::Middle;
use super::halves::{HalfBoards, Side};
use super::pairs::{self, Shapes, Sides, Sieves};
use super::plan::{Layout, Part, RowSet};
use super::quarter::QuarterSlices;
use super::scratch::{held, total, Pieces, Scratch, SliceNorth, StoredEast, StoredKey, Weighed};
use super::transposes::{joined, weights, Halves, Weights, MARKS};
use crate::arch::SimdBuild;

/// What counting a plan's row sets reads, shared by its workers.
#[derive(Debug, Clone, Copy)]
pub(super) struct RowSets<'a> {
    /// The plan.
    pub layout: &'a Layout,
    /// How its half-boards are built.
    pub halves: HalfBoards<'a>,
    /// The build its vector code runs in.
    pub build: SimdBuild,
    /// How much of a row set a worker holds at once.
    pub pieces: Pieces,
    /// The plan's unique id in the process: what a worker checks before counting a part
    /// against the east side it stored (a thread may count several plans).
    pub plan: u64,
}

impl RowSets<'_> {
    /// The weighted count of the solutions of part `part` of row set `r` (its weight
    /// included), and the half-boards built (the east ones with its first part).
    pub fn count(&self, r: &RowSet, part: Part, s: &mut Scratch) -> (u128, u64) {
        let g = self.layout.geometry;
        let east_mid = self.east_middle(r);
        let ([east, west], run) = self.sides(r, &east_mid, part);
        self.prepare_slices(r, &mut s.slices);
        if part.of > 1 {
            if let Some(counted) = self.count_part(r, [east, west], run.start, part, s) {
                return counted;
            }
        }
        let (mut a, mut b) = (std::mem::take(&mut s.east), std::mem::take(&mut s.west));
        a.iter_mut().chain(b.iter_mut()).for_each(Vec::clear);
        s.stored = None;
        let cap = self.pieces.halves;
        let east_left = self.make(east, s, &mut a, 0, cap);
        let west_left = self.make(west, s, &mut b, run.start, cap);
        let w = self.weights(r);
        let (found, built) = if east_left.is_none() && west_left.is_none() {
            let found = if g.even() {
                pairs::match_even(self.build, self.bits(), Sides { east: &a, west: &b }, &w)
            } else {
                pairs::match_odd(self.build, g.key_bits(), &a[0], &b[0])
            };
            let east_built = if part.index == 0 { joined(&a, true) } else { 0 };
            (found, (east_built + joined(&b, false)) as u64)
        } else {
            let from = [0, run.start];
            let east_counted = part.index == 0;
            let sides = [east, west];
            self.count_in_pieces(sides, from, east_counted, s, [&mut a, &mut b], &w)
        };
        (s.east, s.west) = (a, b);
        (found * r.weight as u128, built)
    }

    /// The bits of the half-boards as they are matched: the match key's, and the marks'
    /// where the transposes are used (an even board's plan: [`super::transposes`]).
    fn bits(&self) -> u32 {
        let g = self.layout.geometry;
        let marks = if self.layout.transposes && g.even() {
            MARKS
        } else {
            0
        };
        g.key_bits() + marks
    }

    /// What row set `r`'s slots' solutions weigh ([`super::transposes::weights`]).
    fn weights(&self, r: &RowSet) -> Weights {
        weights(self.layout.geometry.even(), r.open, r.turn.is_some())
    }

    /// Row set `r`'s middle configuration as its east side is joined: on an even board the
    /// east half keeps no queen on a long diagonal ([`super::transposes::west_weights`]), so
    /// they are barred there.
    fn east_middle(&self, r: &RowSet) -> Middle {
        let g = self.layout.geometry;
        let mut east = self.layout.middles[r.middle as usize];
        if g.even() {
            east.d1 |= 1 << (g.n - 1);
            east.d2 |= 1 << (g.n - 1);
        }
        east
    }

    /// Row set `r`'s east side (on `east_mid`, [`RowSets::east_middle`]) and the west side of
    /// its part `part` (on an even board split by its queens on the long diagonals), and the
    /// run of the west side's column sets the part holds.
    fn sides<'a>(
        &'a self,
        r: &RowSet,
        east_mid: &'a Middle,
        part: Part,
    ) -> ([Side<'a>; 2], std::ops::Range<usize>) {
        let g = self.layout.geometry;
        let mid = &self.layout.middles[r.middle as usize];
        let east = Side {
            mid: east_mid,
            rows: r.east,
            east: true,
            split: false,
            long_only: false,
            memo: self.halves.memo.map(|_| u32::from(r.middle)),
            upto: None,
            north: None,
            turn: r.turn,
        };
        let mut west = Side {
            mid,
            rows: mid.rows & !r.east,
            east: false,
            split: g.even(),
            long_only: g.even() && r.open == 0,
            ..east
        };
        let run = part.range(self.halves.column_set_count(&west));
        west.upto = Some(run.end);
        ([east, west], run)
    }

    /// `side`'s half-boards into `out` from column set `from` until `cap` are held
    /// ([`HalfBoards::make`] with the worker's buffers).
    fn make(
        &self,
        side: Side,
        s: &mut Scratch,
        out: &mut Halves,
        from: usize,
        cap: Option<usize>,
    ) -> Option<usize> {
        let (join, slices) = (&mut s.join, &s.slices);
        self.halves
            .make(self.build, side, join, slices, out, from, cap)
    }

    /// Makes sure the worker holds the quarter slices row set `r` reads (on boards counted
    /// without a whole table).
    fn prepare_slices(&self, r: &RowSet, slices: &mut QuarterSlices) {
        if self.halves.table.is_none() {
            let g = self.layout.geometry;
            let west = self.layout.middles[r.middle as usize].rows & !r.east;
            let [ne, se] = g.quarter_rows(r.east);
            let [nw, sw] = g.quarter_rows(west);
            slices.prepare(g.h, [ne, se, nw, sw]);
        }
    }

    /// Part of a row set ([`Part`]), in one piece: its west half-boards (those of the column
    /// sets from `from` to `west.upto`) matched against all the east ones, which the worker
    /// builds and stores once for the row set's parts ([`StoredEast`], shaped for the queries of
    /// all of them: this part's times their number). The east half-boards are counted as
    /// built with the first part only. `None` when either side passes per piece
    /// ([`Pieces::halves`]): the part is then counted in pieces, and so are the row set's
    /// other parts.
    fn count_part(
        &self,
        r: &RowSet,
        [east, west]: [Side; 2],
        from: usize,
        part: Part,
        s: &mut Scratch,
    ) -> Option<(u128, u64)> {
        let first = part.index == 0;
        let key = StoredKey {
            plan: self.plan,
            middle: r.middle,
            east_rows: r.east,
        };
        if s.unfit == Some(key) {
            return None;
        }
        if s.stored.as_ref().is_some_and(|x| x.key != key) {
            // Dropped before this row set's sides are built: never two stored at once.
            s.stored = None;
        }
        let cap = self.pieces.halves;
        let mut b = std::mem::take(&mut s.west);
        b.iter_mut().for_each(Vec::clear);
        let west_left = self.make(west, s, &mut b, from, cap);
        let queries = total(&b);
        if west_left.is_none() && queries == 0 && !first {
            s.west = b;
            return Some((0, 0));
        }
        let w = self.weights(r);
        let stored = if west_left.is_none() {
            self.store_east(
                key,
                east,
                Weighed {
                    queries: &b,
                    weights: &w,
                },
                part.of as usize,
                cap,
                s,
            )
        } else {
            None
        };
        let Some(stored) = stored else {
            (s.stored, s.unfit, s.west) = (None, Some(key), b);
            return None;
        };
        let found = stored.sieves.weighed(&b, &w);
        let built = joined(&b, false) as u64 + if first { stored.halves } else { 0 };
        s.west = b;
        Some((found * r.weight as u128, built))
    }

    /// The weighted count of one slice of part `part` of row set `r` (its weight included):
    /// the solutions whose west half's north quarter is the placement with local diagonals
    /// `north` on the west side's column set `at` (in [`super::geometry::ColumnSets::get`]'s
    /// order, within the part's run). Counted through the same code as the part: its east
    /// side joined whole and stored in a sieve shaped on the part's own west half-boards (in
    /// pieces where a worker's memory asks for them, as the part is), and the slice's west
    /// half-boards, that one north quarter joined with the south ones, matched against it.
    pub fn count_slice(
        &self,
        r: &RowSet,
        part: Part,
        SliceNorth { at, north }: SliceNorth,
        s: &mut Scratch,
    ) -> u128 {
        let east_mid = self.east_middle(r);
        let ([east, west], run) = self.sides(r, &east_mid, part);
        debug_assert!(
            run.contains(&at),
            "column set {at} outside the part's {run:?}"
        );
        self.prepare_slices(r, &mut s.slices);
        let key = StoredKey {
            plan: self.plan,
            middle: r.middle,
            east_rows: r.east,
        };
        if s.stored.as_ref().is_some_and(|x| x.key != key) {
            s.stored = None;
        }
        // The part's west half-boards (the first piece of them when it is counted in
        // pieces): what the sieve is shaped on.
        let mut b = std::mem::take(&mut s.west);
        b.iter_mut().for_each(Vec::clear);
        let cap = self.pieces.halves;
        self.make(west, s, &mut b, run.start, cap);
        let w = self.weights(r);
        let mut slice: Halves = Default::default();
        let one = Side {
            north: Some(north),
            memo: None,
            upto: Some(at + 1),
            ..west
        };
        self.make(one, s, &mut slice, at, None);
        let queries = Weighed {
            queries: &b,
            weights: &w,
        };
        let found = self.match_slice(key, east, queries, part, &slice, s);
        s.west = b;
        found * r.weight as u128
    }

    /// [`RowSets::count_slice`]'s match: the slice's west half-boards against the part's east
    /// side, stored whole, or piece by piece where the worker holds pieces.
    fn match_slice(
        &self,
        key: StoredKey,
        east: Side,
        queries: Weighed,
        part: Part,
        slice: &Halves,
        s: &mut Scratch,
    ) -> u128 {
        let w = queries.weights;
        let Some(cap) = self.pieces.halves else {
            let stored = self.store_east(key, east, queries, part.of as usize, None, s);
            let stored = stored.expect("no cap, one piece");
            return stored.sieves.weighed(slice, w);
        };
        let mut a = std::mem::take(&mut s.east);
        let (mut found, mut next, mut target) = (0, Some(0), cap);
        while let Some(from) = next {
            let sieves;
            (next, sieves) = self.store_piece(east, s, &mut a, from, &mut target, queries);
            found += sieves.weighed(slice, w);
        }
        s.east = a;
        found
    }

    /// The east half-boards of the row set `key` names ([`StoredEast::key`]), kept by the worker
    /// for the row set's parts: built and stored now if it does not hold them, in sieves
    /// shaped on `queries` (weighed by `w`) for `of` times as many queries ([`Shapes::new`]).
    /// `None` when they pass `cap` half-boards (one piece).
    fn store_east<'s>(
        &self,
        key: StoredKey,
        east: Side,
        Weighed {
            queries,
            weights: w,
        }: Weighed,
        of: usize,
        cap: Option<usize>,
        s: &'s mut Scratch,
    ) -> Option<&'s StoredEast> {
        if s.stored.is_none() {
            let mut a = std::mem::take(&mut s.east);
            a.iter_mut().for_each(Vec::clear);
            if self.make(east, s, &mut a, 0, cap).is_some() {
                s.east = a;
                return None;
            }
            let bits = self.bits();
            let shapes = Shapes::new(
                self.build,
                bits,
                Sides {
                    east: &a,
                    west: queries,
                },
                w,
                of,
            );
            s.stored = Some(StoredEast {
                key,
                sieves: shapes.build(),
                halves: joined(&a, true) as u64,
            });
            s.east = a;
        }
        s.stored.as_ref()
    }

    /// A row set too large for a worker's memory: its east half-boards built in pieces,
    /// each stored ([`RowSets::store_piece`]) and matched against the west half-boards built
    /// in pieces of [`Pieces::halves`] (again for each east piece). The same count and the
    /// same half-boards built (each counted once; the east ones only if `east_counted`) as in
    /// one piece. The sides are built from column sets `from`.
    fn count_in_pieces(
        &self,
        [east, west]: [Side; 2],
        from: [usize; 2],
        east_counted: bool,
        s: &mut Scratch,
        [a, b]: [&mut Halves; 2],
        w: &Weights,
    ) -> (u128, u64) {
        let (mut found, mut built) = (0u128, 0u64);
        let mut first = true;
        let mut stored_from = Some(from[0]);
        let cap = self.pieces.halves;
        let mut target = cap.unwrap_or(usize::MAX);
        while let Some(at) = stored_from {
            // The first piece of queries: the sieve is cut on its bits.
            b.iter_mut().for_each(Vec::clear);
            let mut query_from = self.make(west, s, b, from[1], cap);
            let sieves;
            (stored_from, sieves) = self.store_piece(
                east,
                s,
                a,
                at,
                &mut target,
                Weighed {
                    queries: b,
                    weights: w,
                },
            );
            if east_counted {
                built += joined(a, true) as u64;
            }
            loop {
                if first {
                    built += joined(b, false) as u64;
                }
                found += sieves.weighed(b, w);
                let Some(at) = query_from else { break };
                b.iter_mut().for_each(Vec::clear);
                query_from = self.make(west, s, b, at, cap);
            }
            first = false;
        }
        (found, built)
    }

    /// One piece of east half-boards, from column set `at`, about `target` of them, stored in
    /// sieves shaped on the first piece of `queries` (weighed by `w`: [`Shapes::new`]);
    /// returns where the next piece starts, and the sieves. Its tables are
    /// known before they are built (`Shaped::table_bytes`): when they and the keys would pass the
    /// worker's room ([`Pieces::room`]) beside the queries ([`held`]), the piece is built
    /// again smaller. `target` learns from each piece what a key costs (within a room;
    /// without one it stays: how the tests force small pieces).
    fn store_piece(
        &self,
        east: Side,
        s: &mut Scratch,
        a: &mut Halves,
        at: usize,
        target: &mut usize,
        Weighed {
            queries,
            weights: w,
        }: Weighed,
    ) -> (Option<usize>, Sieves) {
        let held = held(queries);
        let mut before = None;
        loop {
            a.iter_mut().for_each(Vec::clear);
            let next = self.make(east, s, a, at, Some(*target));
            let keys = total(a);
            let shaped = Shapes::new(
                self.build,
                self.bits(),
                Sides {
                    east: a,
                    west: queries,
                },
                w,
                1,
            );
            let tables = shaped.table_bytes() as u64;
            // The keys (as their vectors hold them) and the sieve's copy of them.
            let own = (a.iter().map(Vec::capacity).sum::<usize>() + keys) as u64 * 8;
            let Some(room) = self.pieces.room else {
                return (next, shaped.build());
            };
            if keys > 0 {
                // A key's tables as this piece's, a tenth more, and its share of the keys'
                // vectors (up to twice the keys as they grow) and copy.
                let per_key = tables as f64 / keys as f64 * 1.1 + 24.0;
                let avail = room.saturating_sub(held) as f64;
                *target = ((avail / per_key) as usize).max(1);
            }
            // Passing, a piece is built again smaller, unless that built no fewer (one
            // column set's half-boards are never split).
            if held + own + tables <= room || before == Some(keys) {
                return (next, shaped.build());
            }
            before = Some(keys);
            *target = (*target).min(keys.saturating_sub(1)).max(1);
            #[cfg(test)]
            super::scratch::REBUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}
