//! Building half-boards: for one side of a row set (east or west of the middle), every pair of
//! a north and a south quarter whose columns split the side's free columns, filtered against
//! the middle queens ([`super::join`], or kept filtered per middle configuration in
//! [`super::memo`]) and joined into the half-boards' match keys. Compiled once per
//! [`Build`]; a worker's buffers ([`Scratch`]) are kept from one row set to the next.

use super::arch::{Build, Simd, Work};
use super::join::{keep_fitting, Kept, Lens, Parts};
use super::memo::Memo;
use super::plan::Middle;
use super::quarter::Slice;
use super::Quadrants;

/// One side of a row set, to be built into half-boards ([`Quadrants::halves`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Side<'a> {
    /// The middle configuration.
    pub mid: &'a Middle,
    /// The side's rows (global).
    pub rows: u32,
    /// East of the middle, or west.
    pub east: bool,
    /// Sort the half-boards by their queens on a long diagonal (an even board's west side).
    pub split: bool,
    /// With `split`, build only those with a queen on a long diagonal.
    pub long_only: bool,
    /// The middle configuration's index when its filtered quarters are kept
    /// ([`Quadrants::memo_used`]).
    pub memo: Option<u32>,
    /// The column sets (in [`ColumnSets::get`]'s order) at and past this index are not built:
    /// where a part of a row set ends ([`super::plan::Part`]); `usize::MAX` for none.
    pub upto: usize,
}

impl Side<'_> {
    /// The side's free columns (local, `0..h`).
    pub fn free(&self) -> u32 {
        if self.east {
            self.mid.east
        } else {
            self.mid.west
        }
    }
}

/// A worker's buffers, kept from one row set to the next (no allocation, no zero-filling
/// per row set): the quarters kept for a join, and the half-boards of both sides.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    north: [Parts; 2],
    south: [Parts; 2],
    /// The east half-boards (in `east[0]`).
    pub east: [Vec<u64>; 3],
    /// The west half-boards, by queens on a long diagonal on an even board, else in `west[0]`.
    pub west: [Vec<u64>; 3],
    /// The quarters filtered for the current middle configuration.
    memo: Memo,
    /// The quarter slices of the current row set (boards without a whole table).
    pub slices: SliceSet,
    /// The east half-boards of the row set whose parts the worker counts.
    pub stored: Option<super::rowset::Stored>,
}

/// The quarter slices a worker holds: those of the row set it counts (its four quadrants'
/// rows masks), a slice kept while the next row set reads the same rows (the south masks
/// change slowly in the row sets' order).
#[derive(Debug, Default)]
pub(super) struct SliceSet {
    /// The quarters' width the slices are for (a worker may count several boards).
    h: u32,
    slices: Vec<Slice>,
}

impl SliceSet {
    /// Makes sure the slices of every mask in `masks` are held, rebuilding others' buffers.
    pub fn prepare(&mut self, h: u32, masks: [u32; 4]) {
        if self.h != h {
            self.h = h;
            self.slices.clear();
        }
        if self.slices.len() < 4 {
            self.slices.resize_with(4, Slice::default);
            for (s, &m) in self.slices.iter_mut().zip(&masks) {
                s.build(h, m);
            }
            return;
        }
        let mut keep = [false; 4];
        let mut missing = Vec::new();
        for &m in &masks {
            match self.slices.iter().position(|s| s.rows() == m) {
                Some(i) => keep[i] = true,
                None if !missing.contains(&m) => missing.push(m),
                None => {}
            }
        }
        for m in missing {
            let Some(i) = keep.iter().position(|&k| !k) else {
                break;
            };
            keep[i] = true;
            self.slices[i].build(h, m);
        }
    }

    /// The slice of `rows` (prepared).
    pub fn get(&self, rows: u32) -> &Slice {
        self.slices
            .iter()
            .find(|s| s.rows() == rows)
            .expect("the row set's slices were prepared")
    }

    /// Memory the slices hold, in bytes.
    pub fn bytes(&self) -> usize {
        self.slices.iter().map(Slice::bytes).sum()
    }
}

thread_local! {
    /// This worker's buffers.
    pub(super) static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// The sets of `k` columns of a half's free columns, by which column (if any) the middle row's
/// queen takes from it.
#[derive(Debug, Clone)]
pub(super) struct ColumnSets {
    h: u32,
    /// `sets[v][k]`: the sets of `k` columns of the free columns of variant `v` (all but
    /// column `v`, or all `h` for `v = h`).
    sets: Vec<Vec<Vec<u32>>>,
}

impl ColumnSets {
    /// The column sets of an `h`-wide half.
    pub fn new(h: u32) -> ColumnSets {
        let full = (1u32 << h) - 1;
        let sets = (0..=h)
            .map(|v| {
                let free = full & !(1u32.checked_shl(v).unwrap_or(0) & full);
                let mut by_k = vec![Vec::new(); h as usize + 1];
                for c in 0..1u32 << h {
                    if c & !free == 0 {
                        by_k[c.count_ones() as usize].push(c);
                    }
                }
                by_k
            })
            .collect();
        ColumnSets { h, sets }
    }

    /// The sets of `k` columns within `free` (the half's free columns: all `h`, or all but
    /// the middle row's queen's).
    pub fn get(&self, free: u32, k: u32) -> &[u32] {
        let full = (1u32 << self.h) - 1;
        let variant = if free == full {
            self.h as usize
        } else {
            (full & !free).trailing_zeros() as usize
        };
        &self.sets[variant][k as usize]
    }
}

/// The kept quarters of one quadrant for a join, by class.
type Classes<'a> = [Kept<'a>; 2];

/// Where a side's quarters land and what they must miss: the parts of [`Lens`] common to its
/// north and south quadrants, their shifts, and the split of the long diagonals.
struct Frame {
    base: Lens,
    /// Shifts of the north quarters' `d1` and `d2`, and of the south ones'.
    north: (u32, u32),
    south: (u32, u32),
    /// With a split: the south quarters by their queen on the anti-diagonal (of `d1`), the
    /// north ones by theirs on the main diagonal (of `d2`).
    on_south: Option<(bool, u32)>,
    on_north: Option<(bool, u32)>,
}

/// [`Quadrants::halves`] in one build.
struct Halves<'a, 'b> {
    q: &'a Quadrants,
    side: Side<'b>,
    s: &'a mut Scratch,
    out: &'a mut [Vec<u64>; 3],
    from: usize,
    cap: usize,
}

impl Work for Halves<'_, '_> {
    type Out = Option<usize>;
    #[inline(always)]
    fn run<S: Simd>(self, simd: S) -> Option<usize> {
        let Halves {
            q,
            side,
            s,
            out,
            from,
            cap,
        } = self;
        q.halves_with(simd, side, s, out, from..cap)
    }
}

impl Quadrants {
    /// How many column sets `side` has: the half-boards built are those of column sets
    /// `0..` this (fewer with [`Side::upto`]).
    pub(super) fn column_set_count(&self, side: &Side) -> usize {
        let [north, _] = self.quarter_rows(side.rows);
        let free = side.free();
        self.column_sets.get(free, north.count_ones()).len()
    }

    /// The match keys of the half-boards of `side` (its middle configuration, on its rows,
    /// east of the middle or west), appended to `out[0]`, built in `build`: from the side's
    /// column set `from` on (in [`ColumnSets::get`]'s order), until `out` holds `cap` or more
    /// keys. Returns the next column set to build from, or `None` when the side is done: a
    /// side too large for a worker's memory is built in pieces ([`Quadrants::count_rowset`]).
    ///
    /// With `side.split` (an even board's west side), the half-boards go to `out[k]` by the
    /// number `k` of their queens on a long diagonal: the main one (`r = c`) crosses only the
    /// north-west quarter, the anti-diagonal only the south-west. With `side.long_only`, those
    /// with none are not built.
    pub(super) fn halves(
        &self,
        build: Build,
        side: Side,
        s: &mut Scratch,
        out: &mut [Vec<u64>; 3],
        from: usize,
        cap: usize,
    ) -> Option<usize> {
        build.run(Halves {
            q: self,
            side,
            s,
            out,
            from,
            cap,
        })
    }

    /// Where `side`'s quarters land on the board.
    #[inline(always)]
    fn frame(&self, side: &Side) -> Frame {
        let (n, h, far) = (self.layout.n, self.layout.h, self.layout.far);
        let c0 = if side.east { far } else { 0 };
        // Match key: both families' diagonals from n - h on, 2h - 1 of each.
        let kw = 2 * h - 1;
        // North-south test: the diagonals both quarters can reach, `w` of each family.
        let w = 2 * h - 1 - far;
        // A quarter with top-left (r0, c0) shifts d1 by r0 + c0 and d2 by r0 + n - h - c0.
        let (b1, b2) = (far + c0, far + n - h - c0);
        let long = n - 1;
        Frame {
            base: Lens {
                s1: 0,
                s2: 0,
                b1,
                b2,
                lo: n - h,
                kw,
                kmask: (1u64 << kw) - 1,
                w,
                wmask: (1u64 << w) - 1,
                f1: side.mid.d1,
                f2: side.mid.d2,
            },
            north: (c0, n - h - c0),
            south: (b1, b2),
            on_south: side.split.then_some((true, long)),
            on_north: side.split.then_some((false, long)),
        }
    }

    /// [`Quadrants::halves`] with the build `simd` (inlined into each build), from column
    /// set `piece.start` until `piece.end` keys are held.
    #[inline(always)]
    fn halves_with<S: Simd>(
        &self,
        simd: S,
        side: Side,
        s: &mut Scratch,
        out: &mut [Vec<u64>; 3],
        piece: std::ops::Range<usize>,
    ) -> Option<usize> {
        let h = self.layout.h;
        let [north, south] = self.quarter_rows(side.rows);
        let free = side.free();
        let frame = self.frame(&side);
        let lens = |(s1, s2)| Lens {
            s1,
            s2,
            ..frame.base
        };
        let sets = self.column_sets.get(free, north.count_ones());
        let sets = &sets[..side.upto.min(sets.len())];
        for (i, &cols) in sets.iter().enumerate().skip(piece.start) {
            if out.iter().map(Vec::len).sum::<usize>() >= piece.end {
                return Some(i);
            }
            let top = self.rows(&s.slices, north).get(cols);
            let bottom = self.rows(&s.slices, south).get(free & !cols);
            if top.is_empty() || bottom.is_empty() {
                continue;
            }
            let (upper, lower) = (lens(frame.north), lens(frame.south));
            let (north_parts, south_parts) = if let Some(owner) = side.memo {
                // One list per side and quarter, filtered once per middle configuration.
                let base = usize::from(side.east) << 1;
                let slot = |q: usize, r: u32, c: u32| (base + q) << (2 * h) | (r << h | c) as usize;
                s.memo
                    .begin((self.uid, owner), 4 << (2 * h), self.memo_cap());
                s.memo
                    .room(top.len() + bottom.len(), if side.split { 2 } else { 1 });
                let low = s
                    .memo
                    .fit(slot(1, south, free & !cols), bottom, lower, frame.on_south);
                let up = s.memo.fit(slot(0, north, cols), top, upper, frame.on_north);
                (up.map(|r| s.memo.get(r)), low.map(|r| s.memo.get(r)))
            } else {
                keep_fitting(bottom, lower, frame.on_south, &mut s.south);
                keep_fitting(top, upper, frame.on_north, &mut s.north);
                (
                    [s.north[0].kept(), s.north[1].kept()],
                    [s.south[0].kept(), s.south[1].kept()],
                )
            };
            join_parts(simd, north_parts, south_parts, side.long_only, out);
        }
        None
    }
}

/// Joins every kept north quarter with the kept south ones, class by class: the half-boards
/// with `i + j` queens on a long diagonal go to `out[i + j]` (with `long_only`, none to
/// `out[0]`).
#[inline(always)]
fn join_parts<S: Simd>(
    simd: S,
    north: Classes,
    south: Classes,
    long_only: bool,
    out: &mut [Vec<u64>; 3],
) {
    for (i, &(tops, top_keys, tops_len)) in north.iter().enumerate() {
        for (j, &kept) in south.iter().enumerate() {
            if (long_only && i + j == 0) || kept.2 == 0 {
                continue;
            }
            let o = &mut out[i + j];
            for (&mt, &kt) in tops[..tops_len].iter().zip(top_keys) {
                simd.join((mt, kt), kept, o);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every build's half-boards (the portable one is what a CPU without AVX2 runs) against
    /// the portable build's, on every row set and side of small boards, with and without the
    /// memo.
    #[test]
    fn every_build_makes_the_same_half_boards() {
        let builds = Build::all();
        assert_eq!(builds[0], Build::Portable);
        for n in [10u32, 11, 12] {
            let q = Quadrants::new(n).unwrap();
            let mut scratch: Vec<Scratch> = builds.iter().map(|_| Scratch::default()).collect();
            for r in &q.layout.all_rowsets() {
                let mid = &q.layout.middles[r.middle as usize];
                for memo in [None, Some(u32::from(r.middle))] {
                    for (rows, east, split) in [
                        (r.east, true, false),
                        (mid.rows & !r.east, false, n % 2 == 0),
                    ] {
                        for long_only in [false, split] {
                            let side = Side {
                                mid,
                                rows,
                                east,
                                split,
                                long_only,
                                memo,
                                upto: usize::MAX,
                            };
                            // Each build keeps its own scratch across the row sets, as a
                            // worker does (the memo's entries are reused).
                            let mut got = Vec::new();
                            for (&build, s) in builds.iter().zip(&mut scratch) {
                                let mut out: [Vec<u64>; 3] = Default::default();
                                q.halves(build, side, s, &mut out, 0, usize::MAX);
                                out.iter_mut().for_each(|v| v.sort_unstable());
                                got.push(out);
                            }
                            for (build, out) in builds.iter().zip(&got) {
                                assert_eq!(
                                    out,
                                    &got[0],
                                    "{} against portable: n={n} {r:?} east={east} \
                                     long_only={long_only} {memo:?}",
                                    build.name()
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
