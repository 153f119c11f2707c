//! Building half-boards: for one side of a row set (east or west of the middle), every pair of
//! a north and a south quarter whose columns split the side's free columns, filtered against
//! the middle queens ([`super::join`], or kept filtered per middle configuration in
//! [`super::memo`]) and joined into the half-boards' match keys. Compiled once per
//! [`SimdBuild`]; a worker's buffers ([`JoinBuffers`]) are kept from one row set to the next.

use super::geometry::{ColumnSets, Geometry, Middle};
use super::join::{keep_fitting, Diagonal, Projection, QuarterList};
use super::memo::{Memo, Owner};
use super::quarter::{rows, Quarter, QuarterSlices};
use super::transposes::{slots, Halves, Marked, SlotTarget, Targets};
use crate::arch::{Candidates, PerBuild, Simd, SimdBuild, Top};

/// One side of a row set, to be built into half-boards ([`HalfBoards::make`]).
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
    /// The middle configuration's index when the workers keep its filtered quarters
    /// ([`HalfBoards::memo`]).
    pub memo: Option<u32>,
    /// The column sets (in [`ColumnSets::get`]'s order) at and past this index are not built:
    /// where a part of a row set ends ([`super::plan::Part`]); `None`: all are built.
    pub upto: Option<usize>,
    /// The one north quarter placement (its local diagonals `[d1, d2]`) to join with the
    /// south ones, instead of every placement on the column set: a slice's
    /// ([`super::slice`]). Never with `memo` (the memo keeps whole lists).
    pub north: Option<[u32; 2]>,
    /// The row set's key where its solutions are paired with their transposes'
    /// ([`super::transposes`]): the half-boards go to their slots, marked, by the key of
    /// their north columns, and the west ones that weigh nothing are not built. `None`: the
    /// east ones to slot 0, the west ones to slot `k`.
    pub turn: Option<[u32; 2]>,
}

impl Side<'_> {
    /// Where the half-boards whose north quarter takes the local columns `cols` go, by their
    /// queens on a long diagonal `k` (all in `k = 0` without a split): their slot in
    /// [`Halves`] and marks, and their copy's slot ([`super::transposes::slots`]); none with
    /// `k = 0` where `long_only`.
    fn targets(&self, g: &Geometry, cols: u32) -> Targets {
        let mut t = slots(g.h, g.key_bits(), self.east, self.split, cols, self.turn);
        if self.long_only {
            t[0] = SlotTarget::NONE;
        }
        t
    }

    /// The side's free columns (local, `0..h`).
    pub fn free(&self) -> u32 {
        if self.east {
            self.mid.east
        } else {
            self.mid.west
        }
    }
}

/// A worker's buffers for joining, kept from one row set to the next (no allocation, no
/// zero-filling per row set): the quarters kept for a join, and those kept filtered for the
/// current middle configuration.
#[derive(Debug, Default)]
pub(super) struct JoinBuffers {
    north: [QuarterList; 2],
    south: [QuarterList; 2],
    memo: Memo,
}

/// What building a plan's half-boards reads, shared by its workers.
#[derive(Debug, Clone, Copy)]
pub(super) struct HalfBoards<'a> {
    /// The board.
    pub geometry: Geometry,
    /// The column sets of its halves.
    pub column_sets: &'a ColumnSets,
    /// The whole quarter table, or `None`: each worker's slices of the row set it counts.
    pub table: Option<&'a Quarter>,
    /// When the workers keep their filtered quarters ([`Side::memo`]): whose and how many.
    pub memo: Option<MemoUse>,
}

/// How the workers keep their filtered quarters.
#[derive(Debug, Clone, Copy)]
pub struct MemoUse {
    /// The plan's unique id: what a worker's memo checks before reusing its entries.
    pub plan: u64,
    /// The memo's cap.
    pub cap: usize,
}

/// The kept quarters of one quadrant for a join, by their queens on a long diagonal (none,
/// one; without a split all are in the first).
type ByLongDiagonal<'a> = [Candidates<'a>; 2];

/// How far a quadrant's quarters move their local diagonals to the board's.
#[derive(Debug, Clone, Copy)]
struct Shifts {
    d1: u32,
    d2: u32,
}

/// Where a side's quarters land and what they must miss: the parts of a [`Projection`]
/// common to its north and south quadrants, their shifts, and the split of the long
/// diagonals.
struct Frame {
    base: Projection,
    /// Shifts of the north quarters' diagonals, and of the south ones'.
    north: Shifts,
    south: Shifts,
    /// With a split: the south quarters by their queen on the anti-diagonal (of `D1`), the
    /// north ones by theirs on the main diagonal (of `D2`).
    on_south: Option<Diagonal>,
    on_north: Option<Diagonal>,
}

impl Frame {
    /// Where `side`'s quarters land on the board `g`.
    #[inline(always)]
    fn of(g: &Geometry, side: &Side) -> Frame {
        let (n, h, far) = (g.n, g.h, g.far);
        let c0 = if side.east { far } else { 0 };
        // Match key: both families' diagonals from n - h on, 2h - 1 of each.
        let key_width = 2 * h - 1;
        // North-south test: the diagonals both quarters can reach, `w` of each family.
        let w = 2 * h - 1 - far;
        // A quarter with top-left (r0, c0) shifts d1 by r0 + c0 and d2 by r0 + n - h - c0.
        let (b1, b2) = (far + c0, far + n - h - c0);
        let long = n - 1;
        Frame {
            base: Projection {
                shift_d1: 0,
                shift_d2: 0,
                meet_d1: b1,
                meet_d2: b2,
                key_from: n - h,
                key_width,
                key_mask: (1u64 << key_width) - 1,
                meet_width: w,
                meet_mask: (1u64 << w) - 1,
                middle_d1: side.mid.d1,
                middle_d2: side.mid.d2,
            },
            north: Shifts {
                d1: c0,
                d2: n - h - c0,
            },
            south: Shifts { d1: b1, d2: b2 },
            on_south: side.split.then_some(Diagonal {
                in_d1: true,
                bit: long,
            }),
            on_north: side.split.then_some(Diagonal {
                in_d1: false,
                bit: long,
            }),
        }
    }

    /// The projection of the quadrant whose quarters shift by `by`.
    #[inline(always)]
    fn at(&self, by: Shifts) -> Projection {
        Projection {
            shift_d1: by.d1,
            shift_d2: by.d2,
            ..self.base
        }
    }
}

/// [`HalfBoards::make`] in one build.
struct MakeHalves<'a, 'b> {
    halves: &'a HalfBoards<'a>,
    side: Side<'b>,
    buffers: &'a mut JoinBuffers,
    slices: &'a QuarterSlices,
    out: &'a mut Halves,
    from: usize,
    cap: Option<usize>,
}

impl PerBuild for MakeHalves<'_, '_> {
    type Out = Option<usize>;
    #[inline(always)]
    fn run<S: Simd>(self, simd: S) -> Option<usize> {
        let halves = self.halves;
        halves.make_in(simd, self)
    }
}

impl HalfBoards<'_> {
    /// How many column sets `side` has: the half-boards built are those of column sets
    /// `0..` this (fewer with [`Side::upto`]).
    pub fn column_set_count(&self, side: &Side) -> usize {
        let [north, _] = self.geometry.quarter_rows(side.rows);
        self.column_sets.get(side.free(), north.count_ones()).len()
    }

    /// The match keys of the half-boards of `side` (its middle configuration, on its rows,
    /// east of the middle or west), appended to `out` by their slots ([`Side::targets`]),
    /// built in `build` from the quarter table or the worker's `slices`: from the side's
    /// column set `from` on (in [`ColumnSets::get`]'s order), until `out` holds `cap` or more
    /// keys. Returns the next column set to build from, or `None` when the side is done: a
    /// side too large for a worker's memory is built in pieces ([`super::rowset`]).
    ///
    /// With `side.split` (an even board's west side), the half-boards are sorted by the
    /// number `k` of their queens on a long diagonal: the main one (`r = c`) crosses only the
    /// north-west quarter, the anti-diagonal only the south-west. With `side.long_only`, those
    /// with none are not built.
    #[allow(clippy::too_many_arguments)]
    pub fn make(
        &self,
        build: SimdBuild,
        side: Side,
        buffers: &mut JoinBuffers,
        slices: &QuarterSlices,
        out: &mut Halves,
        from: usize,
        cap: Option<usize>,
    ) -> Option<usize> {
        build.run(MakeHalves {
            halves: self,
            side,
            buffers,
            slices,
            out,
            from,
            cap,
        })
    }

    /// [`HalfBoards::make`] with the build `simd` (inlined into each build).
    #[inline(always)]
    fn make_in<S: Simd>(&self, simd: S, m: MakeHalves) -> Option<usize> {
        let MakeHalves {
            side,
            buffers: b,
            slices,
            out,
            from,
            cap: most,
            ..
        } = m;
        debug_assert!(side.north.is_none() || side.memo.is_none());
        let h = self.geometry.h;
        let [north, south] = self.geometry.quarter_rows(side.rows);
        let free = side.free();
        let frame = Frame::of(&self.geometry, &side);
        let sets = self.column_sets.get(free, north.count_ones());
        let sets = &sets[..side.upto.map_or(sets.len(), |u| u.min(sets.len()))];
        let (top_rows, bottom_rows) = (
            rows(self.table, slices, north),
            rows(self.table, slices, south),
        );
        for (i, &cols) in sets.iter().enumerate().skip(from) {
            if most.is_some_and(|c| out.iter().map(Vec::len).sum::<usize>() >= c) {
                return Some(i);
            }
            let top = match &side.north {
                Some(p) => std::slice::from_ref(p),
                None => top_rows.get(cols),
            };
            let bottom = bottom_rows.get(free & !cols);
            if top.is_empty() || bottom.is_empty() {
                continue;
            }
            let (upper, lower) = (frame.at(frame.north), frame.at(frame.south));
            let (north_kept, south_kept) = match (side.memo, self.memo) {
                (Some(middle), Some(MemoUse { plan, cap })) => {
                    // One list per side and quarter, filtered once per middle configuration.
                    let base = usize::from(side.east) << 1;
                    let slot =
                        |q: usize, r: u32, c: u32| (base + q) << (2 * h) | (r << h | c) as usize;
                    b.memo.begin(Owner { plan, middle }, 4 << (2 * h), cap);
                    b.memo
                        .room(top.len() + bottom.len(), if side.split { 2 } else { 1 });
                    let low =
                        b.memo
                            .fit(slot(1, south, free & !cols), bottom, lower, frame.on_south);
                    let up = b.memo.fit(slot(0, north, cols), top, upper, frame.on_north);
                    (up.map(|r| b.memo.get(r)), low.map(|r| b.memo.get(r)))
                }
                _ => {
                    keep_fitting(bottom, lower, frame.on_south, &mut b.south);
                    keep_fitting(top, upper, frame.on_north, &mut b.north);
                    (
                        [b.north[0].candidates(), b.north[1].candidates()],
                        [b.south[0].candidates(), b.south[1].candidates()],
                    )
                }
            };
            let targets = side.targets(&self.geometry, cols);
            join_by_class(simd, north_kept, south_kept, targets, out);
        }
        #[cfg(test)]
        if super::tests::faults::is(super::tests::faults::Fault::DropHalfBoard) {
            if let Some(v) = out.iter_mut().find(|v| !v.is_empty()) {
                v.remove(0);
            }
        }
        None
    }
}

/// Joins every kept north quarter with the kept south ones, class by class: the half-boards
/// with `i + j` queens on a long diagonal go where `targets[i + j]` says (not built where it
/// says `None`): to a slot with their marks, and copied unmarked to another.
#[inline(always)]
fn join_by_class<S: Simd>(
    simd: S,
    north: ByLongDiagonal,
    south: ByLongDiagonal,
    targets: Targets,
    out: &mut Halves,
) {
    for (i, tops) in north.iter().enumerate() {
        for (j, &kept) in south.iter().enumerate() {
            let SlotTarget {
                to: Some(Marked { slot, marks }),
                copy,
            } = targets[i + j]
            else {
                continue;
            };
            if kept.len == 0 {
                continue;
            }
            let start = out[slot].len();
            let o = &mut out[slot];
            for (&mt, &kt) in tops.meets[..tops.len].iter().zip(tops.keys) {
                simd.join(Top { meet: mt, key: kt }, kept, o);
            }
            if let Some(copy) = copy {
                // A copy's slot always follows the main ones.
                let (main, copies) = out.split_at_mut(copy);
                copies[0].extend_from_slice(&main[slot][start..]);
            }
            if marks != 0 {
                out[slot][start..].iter_mut().for_each(|k| *k |= marks);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::plan::Layout;
    use super::super::quarter::Quarter;
    use super::*;
    use crate::arch::testing::each_build;

    /// Every build's half-boards (the portable one is what a CPU without AVX2 runs) against
    /// the portable build's, on every row set and side of small boards, with and without the
    /// memo, in slots with their marks where the transposes are used.
    #[test]
    fn every_build_makes_the_same_half_boards() {
        let builds = super::super::builds();
        for n in [10u32, 11, 12] {
            let layout = Layout::new(n);
            let g = layout.geometry;
            let (table, column_sets) = (Quarter::new(g.h), ColumnSets::new(g.h));
            let slices = QuarterSlices::default();
            // Each build keeps its own buffers across the row sets, as a worker does (the
            // memo's entries are reused).
            let mut buffers: Vec<JoinBuffers> = builds.iter().map(|_| Default::default()).collect();
            for r in &layout.all_rowsets() {
                let mid = &layout.middles[r.middle as usize];
                for memo in [None, Some(u32::from(r.middle))] {
                    let halves = HalfBoards {
                        geometry: g,
                        column_sets: &column_sets,
                        table: Some(&table),
                        memo: memo.map(|_| MemoUse {
                            plan: 7,
                            cap: 1 << 20,
                        }),
                    };
                    for (rows, east, split) in
                        [(r.east, true, false), (mid.rows & !r.east, false, g.even())]
                    {
                        for (long_only, turn) in [(false, None), (split, None), (split, r.turn)] {
                            let side = Side {
                                mid,
                                rows,
                                east,
                                split,
                                long_only,
                                memo,
                                upto: None,
                                north: None,
                                turn,
                            };
                            let what =
                                format!("n={n} {r:?} east={east} {long_only} {memo:?} {turn:?}");
                            each_build(&what, &builds, |build| {
                                let at = builds.iter().position(|&b| b == build).unwrap();
                                let mut out: Halves = Default::default();
                                let b = &mut buffers[at];
                                halves.make(build, side, b, &slices, &mut out, 0, None);
                                out.iter_mut().for_each(|v| v.sort_unstable());
                                out
                            });
                        }
                    }
                }
            }
        }
    }
}
