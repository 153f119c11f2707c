//! The quadrant method: a count that joins half-boards instead of backtracking row by row.
//!
//! Every row holds one queen, east or west of the middle; every column one queen, north or
//! south. A task chooses the set `E` of rows whose queen is east (`|E| = N/2`). For that
//! choice, the east half-boards are joined from placements of the north-east and south-east
//! quarters (both read from one [`quarter::Quarter`] table, enumerated once): a north and a
//! south quarter fit when their columns split the half's columns and their diagonals do not
//! meet. The west half-boards are joined the same way. An east and a west half-board make a
//! solution exactly when their diagonals are disjoint, so the task's count is the number of
//! (east, west) pairs whose diagonal sets do not meet ([`matcher::Matcher`]).
//!
//! An odd board places the queens of its middle row and middle column first (one middle
//! configuration per class under the board's symmetries); the quadrants then hold the rest.
//! Symmetry reduces the row sets ([`plan`]); the unique count follows by Burnside's lemma from
//! the half- and quarter-turn symmetric counts of the rotational task, as in the symmetric
//! backtracker.
//!
//! Coordinates: global diagonals `D1 = r + c` and `D2 = r - c + N - 1`. A quadrant whose
//! top-left square is `(R0, C0)` shifts a quarter's local `d1` by `R0 + C0` and its `d2` by
//! `R0 - C0 + N - h`. East and west half-boards can meet only on the `2h - 1` diagonals of
//! each family from `N - h` on: the match key holds those bits of both families.
//!
//! The method applies to every board from 4 to [`MAX_N`] (odd and even); `nodes` counts the
//! half-boards it built (east and west), a measure of its work, not queens placed.
//!
//! The rooms, from the bottom: [`quarter`] (the table of quarter placements), [`arch`] (the
//! one way into vector code: a token that proves the CPU's features), [`join`] and [`memo`]
//! (quarters filtered and joined), [`halves`] (a side's half-boards), [`matcher`] (counting
//! disjoint pairs, with its sieve and carry-save counters), [`plan`] (middle configurations,
//! row sets and their symmetry), [`rowset`] (counting one row set), [`recount`] (the same by
//! backtracking, for audits), [`budget`] (memory and work estimates), and this file (the [`Quadrants`] counter that ties them).

mod arch;
mod budget;
mod halves;
mod join;
mod matcher;
mod memo;
mod plan;
mod quarter;
mod recount;
mod rowset;

use self::arch::Build;
use self::halves::{ColumnSets, SliceSet, SCRATCH};
use self::plan::{Layout, Part, QTask};
use self::quarter::{Quarter, Rows};
pub use self::recount::Backtracked;
use super::engine::Counter;
use super::plan::{Algorithm, Fnv, PlanId};
use super::rotational;
use super::tally::{Classes, Tally};
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The largest board the method counts with a whole quarter table ([`quarter::MAX_H`] wide);
/// larger boards build the slices of the table each row set reads ([`quarter::Slice`]).
pub const TABLE_MAX_N: u32 = 2 * quarter::MAX_H + 1;

/// The largest board the method counts: quarters of 14 (slices of at most `2^14` column
/// sets; a(28) has never been counted).
pub const MAX_N: u32 = 28;

/// The smallest board the method counts.
pub const MIN_N: u32 = 4;

/// A plan of the quadrant method and its task counter.
#[derive(Debug, Clone)]
pub struct Quadrants {
    /// Unique in the process: what a worker's memo of filtered quarters checks before reusing
    /// its entries (a thread may count several boards, whose plans have the same middle
    /// indexes).
    uid: u64,
    /// The middle configurations, row sets and tasks.
    layout: Layout,
    /// The quarter table up to [`TABLE_MAX_N`] (its index alone when `slices`): what the
    /// work estimates are made from, so that they, and so the shards' tasks, are the same
    /// whichever path counts.
    table: Option<Arc<Quarter>>,
    /// Quarter placements from slices built per row set, not from the table (always past
    /// [`TABLE_MAX_N`]).
    slices: bool,
    column_sets: ColumnSets,
    /// The most half-boards of a side a worker holds at once in one piece ([`Quadrants::within`]
    /// sets it from the memory limit): a row set with a larger side is counted in pieces, its
    /// west side built in pieces of this many, its stored east side in pieces sized by their
    /// tables within `room` (the first of this many). It changes no count, no task and
    /// nothing a file records.
    piece: usize,
    /// The bytes a worker's half-boards, sieve and lists may hold when a row set is counted
    /// in pieces ([`Quadrants::within`] sets it; unlimited in the tests' plans). Like
    /// `piece`, it changes no count and nothing a file records.
    room: u64,
    /// The memory the count is estimated to need ([`Quadrants::within`]).
    memory: u64,
    /// The build the vector code runs in (the richest this CPU has).
    build: Build,
}

/// Whether the quadrant method counts an `n` board, and if not, why.
pub fn applies(n: u32) -> std::result::Result<(), String> {
    if !(MIN_N..=MAX_N).contains(&n) {
        return Err(format!(
            "the quadrant method counts boards from {MIN_N} to {MAX_N} (N = {n})"
        ));
    }
    Ok(())
}

impl Quadrants {
    /// Plans the count of an `n` board ([`MIN_N`]..=[`MAX_N`]) and builds its quarter table
    /// (the tests' way in; counts go through [`Quadrants::within`], which checks memory first).
    #[cfg(test)]
    pub fn new(n: u32) -> Result<Quadrants> {
        let mut q = Quadrants::planned(n, false)?;
        q.fill();
        Ok(q)
    }

    /// Plans the count of an `n` board with the quarter table's index only (up to
    /// [`TABLE_MAX_N`]; none past it, or with `slices`): enough for its memory estimate and
    /// work estimates; [`Quadrants::fill`] stores the placements. `NQUEENS_QUARTER_PARTS`
    /// forces a striped plan in parts ([`budget::forced_parts`]).
    fn planned(n: u32, slices: bool) -> Result<Quadrants> {
        applies(n).map_err(Error::Usage)?;
        static PLANS: AtomicU64 = AtomicU64::new(0);
        let table = (n <= TABLE_MAX_N).then(|| Arc::new(Quarter::index(n / 2)));
        let parts = budget::forced_parts()?;
        Ok(Quadrants {
            uid: PLANS.fetch_add(1, Ordering::Relaxed),
            layout: parts.map_or_else(|| Layout::new(n), |p| Layout::striped(n, p)),
            slices: slices || table.is_none() || parts.is_some(),
            table,
            column_sets: ColumnSets::new(n / 2),
            piece: usize::MAX,
            room: u64::MAX,
            memory: 0,
            build: Build::best().map_err(Error::Usage)?,
        })
    }

    /// Plans the count of an `n` board that builds its quarter slices per row set whatever
    /// its size: the path of boards past [`TABLE_MAX_N`], taken at small sizes to check it.
    #[cfg(test)]
    pub fn with_slices(n: u32) -> Result<Quadrants> {
        Quadrants::planned(n, true)
    }

    /// [`Quadrants::with_slices`] with a striped plan of `parts` parts per combination: the
    /// path of the largest boards, taken at small sizes to check it.
    #[cfg(test)]
    pub fn with_parts(n: u32, parts: u32) -> Result<Quadrants> {
        let mut q = Quadrants::planned(n, true)?;
        q.layout = Layout::striped(n, parts);
        Ok(q)
    }

    /// Stores the quarter table's placements (before counting).
    fn fill(&mut self) {
        if let Some(t) = self.table.as_mut().filter(|_| !self.slices) {
            Arc::make_mut(t).fill();
        }
    }

    /// The placements of the quarter rows `rows` (a mask of `0..h`): the table's, or the
    /// slice built for them in `slices`.
    #[inline]
    fn rows<'a>(&'a self, slices: &'a SliceSet, rows: u32) -> Rows<'a> {
        match &self.table {
            Some(t) if !self.slices => Rows::Table(t, rows),
            _ => Rows::Slice(slices.get(rows)),
        }
    }

    /// What identifies this plan in checkpoint and shard files (split depth 0: the quadrant
    /// method has none).
    pub fn id(&self) -> PlanId {
        let mut h = Fnv::new();
        h.bytes(b"nqueens-quadrants-v5");
        h.bytes(&self.layout.n.to_le_bytes());
        self.layout.fingerprint(&mut h);
        PlanId {
            n: self.layout.n,
            algorithm: Algorithm::Quadrants,
            split_depth: 0,
            placed: Vec::new(),
            fingerprint: h.hex(),
        }
    }

    /// The tally of part `part` of the row sets of combinations `start..start + len` of
    /// middle configuration `middle`.
    fn count_rows(&self, middle: u16, start: u64, len: u64, part: Part) -> Tally {
        let (total, built) = SCRATCH.with_borrow_mut(|s| {
            self.layout
                .rowsets(middle, start, len)
                .map(|r| self.count_rowset(&r, part, s))
                .fold((0u128, 0u64), |(t, b), (t2, b2)| (t + t2, b + b2))
        });
        Quadrants::rows_tally(total, built)
    }

    /// The tally of row sets that make `total` solutions, `built` half-boards.
    fn rows_tally(total: u128, built: u64) -> Tally {
        Tally {
            total,
            // Burnside: unique = (total + 2 sym90 + sym180) / 8, as the orbit split of
            // `Classes` computes it from quarters = total / 2 (weights are 2 or 4, so it is
            // whole).
            classes: Some(Classes {
                quarters: total / 2,
                ..Classes::default()
            }),
            nodes: built as u128,
        }
    }
}

impl Counter for Quadrants {
    fn tasks(&self) -> usize {
        self.layout.tasks()
    }

    fn count(&self, ids: &[u32]) -> Vec<Tally> {
        ids.iter()
            .map(|&i| match self.layout.task(i.into()) {
                QTask::Rows {
                    middle,
                    start,
                    len,
                    part,
                } => self.count_rows(middle, start, len, part),
                // Its nodes are queens placed, not half-boards: left out of this method's work.
                QTask::Rotational => Tally {
                    nodes: 0,
                    ..rotational::tally(self.layout.n)
                },
            })
            .collect()
    }

    fn estimates(&self) -> Vec<u64> {
        use rayon::prelude::*;
        (0..self.layout.tasks() as u64)
            .into_par_iter()
            .map(|t| self.task_estimate(self.layout.task(t)))
            .collect()
    }

    fn planned(&self) -> Tally {
        Tally::default()
    }

    fn stripe(&self) -> Option<u64> {
        self.layout.stripe()
    }

    /// With the memo: a middle configuration's quarters are filtered once for a worker's run
    /// of its tasks; with parts, a row set's east side is built once for its parts.
    fn warms(&self) -> bool {
        self.memo_used() || self.layout.stripe().is_some_and(|s| s > 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::oeis::Sequence;

    #[test]
    fn counts_every_board_it_accepts_up_to_13() {
        for n in MIN_N..=13u32 {
            let q = Quadrants::new(n).unwrap();
            let all: Vec<u32> = (0..q.tasks() as u32).collect();
            let t: Tally = q.count(&all).into_iter().sum();
            assert_eq!(Some(t.total), Sequence::A000170.known(n), "total n={n}");
            assert_eq!(t.unique(), Sequence::A002562.known(n), "unique n={n}");
        }
        assert!(Quadrants::new(MIN_N - 1).is_err());
        assert!(Quadrants::new(MAX_N + 1).is_err());
    }

    /// Row sets counted in pieces (as a worker does when its half-boards would not fit its
    /// share of the memory limit), down to a piece per column set, and with a room that makes
    /// stored pieces be built again smaller (none: down to one column set) and learn their
    /// size: the same totals, unique counts and half-boards built, on both paths.
    #[test]
    fn pieces_count_what_one_piece_counts() {
        for n in MIN_N..=12u32 {
            for slices in [false, true] {
                let mut q = Quadrants::planned(n, slices).unwrap();
                q.fill();
                let all: Vec<u32> = (0..q.tasks() as u32).collect();
                let whole: Tally = q.count(&all).into_iter().sum();
                for (piece, room) in [(1, u64::MAX), (5, u64::MAX), (60, u64::MAX), (60, 0)]
                    .into_iter()
                    .chain([(60, 20_000), (500, 60_000)])
                {
                    (q.piece, q.room) = (piece, room);
                    let rebuilt = rowset::REBUILT.load(Ordering::Relaxed);
                    let t: Tally = q.count(&all).into_iter().sum();
                    if room == 0 && n == 12 {
                        assert!(rowset::REBUILT.load(Ordering::Relaxed) > rebuilt, "n={n}");
                    }
                    assert_eq!(
                        (t.total, t.unique(), t.nodes),
                        (whole.total, whole.unique(), whole.nodes),
                        "n={n} slices={slices} piece={piece} room={room}"
                    );
                }
                assert_eq!(Some(whole.total), Sequence::A000170.known(n), "n={n}");
            }
        }
    }

    /// Striped plans whose row sets are counted in parts (the path of the largest boards),
    /// forced at small sizes: the same totals, unique counts and half-boards built as the
    /// plain slice path, whatever order the tasks come in (a worker's stored east side is
    /// then rebuilt), with and without the memory pieces; the stripes are a combination's
    /// parts.
    #[test]
    fn parts_of_row_sets_count_every_board_up_to_13() {
        for n in MIN_N..=13u32 {
            let plain = Quadrants::with_slices(n).unwrap();
            let all: Vec<u32> = (0..plain.tasks() as u32).collect();
            let want: Tally = plain.count(&all).into_iter().sum();
            for parts in [1u32, 2, 3, 7] {
                let mut q = Quadrants::with_parts(n, parts).unwrap();
                assert_eq!(q.stripe(), Some(u64::from(parts)));
                assert_eq!(q.warms(), parts > 1);
                let mut ids: Vec<u32> = (0..q.tasks() as u32).collect();
                let forward: Tally = q.count(&ids).into_iter().sum();
                ids.reverse();
                let backward: Tally = ids.iter().map(|&i| q.count(&[i])[0]).sum();
                q.piece = 3;
                let pieces: Tally = q.count(&ids).into_iter().sum();
                for (how, t) in [
                    ("forward", forward),
                    ("backward", backward),
                    ("pieces", pieces),
                ] {
                    assert_eq!(
                        (t.total, t.unique(), t.nodes),
                        (want.total, want.unique(), want.nodes),
                        "n={n} parts={parts} {how}"
                    );
                }
            }
        }
    }

    /// The path of the boards past the table (quarter slices built per row set, no memo),
    /// forced at small sizes: the same totals and unique counts.
    #[test]
    fn the_slice_path_counts_every_board_up_to_13() {
        for n in MIN_N..=13u32 {
            let q = Quadrants::with_slices(n).unwrap();
            assert!(q.slices && !q.memo_used());
            // The same work estimates, so the same tasks in every shard, whichever path.
            assert_eq!(
                q.estimates(),
                Quadrants::new(n).unwrap().estimates(),
                "n={n}"
            );
            let all: Vec<u32> = (0..q.tasks() as u32).collect();
            let t: Tally = q.count(&all).into_iter().sum();
            assert_eq!(Some(t.total), Sequence::A000170.known(n), "total n={n}");
            assert_eq!(t.unique(), Sequence::A002562.known(n), "unique n={n}");
        }
    }
}
