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
//! row sets and their symmetry), [`rowset`] (counting one row set), [`budget`] (memory and
//! work estimates), and this file (the [`Quadrants`] counter that ties them).

mod arch;
mod budget;
mod halves;
mod join;
mod matcher;
mod memo;
mod plan;
mod quarter;
mod rowset;

use self::arch::Build;
use self::halves::{ColumnSets, SCRATCH};
use self::plan::{Layout, QTask};
use self::quarter::Quarter;
use super::engine::Counter;
use super::plan::{Algorithm, Fnv, PlanId};
use super::rotational;
use super::tally::{Classes, Tally};
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The largest board the method counts: quarters up to [`quarter::MAX_H`] wide.
pub const MAX_N: u32 = 2 * quarter::MAX_H + 1;

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
    quarter: Arc<Quarter>,
    column_sets: ColumnSets,
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
        let mut q = Quadrants::planned(n)?;
        q.fill();
        Ok(q)
    }

    /// Plans the count of an `n` board with the quarter table's index only: enough for its
    /// memory estimate and work estimates; [`Quadrants::fill`] stores the placements.
    fn planned(n: u32) -> Result<Quadrants> {
        applies(n).map_err(Error::Usage)?;
        static PLANS: AtomicU64 = AtomicU64::new(0);
        Ok(Quadrants {
            uid: PLANS.fetch_add(1, Ordering::Relaxed),
            layout: Layout::new(n),
            quarter: Arc::new(Quarter::index(n / 2)),
            column_sets: ColumnSets::new(n / 2),
            build: Build::best(),
        })
    }

    /// Stores the quarter table's placements (before counting).
    fn fill(&mut self) {
        Arc::make_mut(&mut self.quarter).fill();
    }

    /// What identifies this plan in checkpoint and shard files (split depth 0: the quadrant
    /// method has none).
    pub fn id(&self) -> PlanId {
        let mut h = Fnv::new();
        h.bytes(b"nqueens-quadrants-v4");
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

    /// The tally of the row sets `start..start + len`.
    fn count_rows(&self, start: u32, len: u32) -> Tally {
        let rows = &self.layout.rowsets[start as usize..(start + len) as usize];
        let (total, built) = SCRATCH.with_borrow_mut(|s| {
            rows.iter()
                .map(|r| self.count_rowset(r, s))
                .fold((0u128, 0u64), |(t, b), (t2, b2)| (t + t2, b + b2))
        });
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
        self.layout.tasks.len()
    }

    fn count(&self, ids: &[u32]) -> Vec<Tally> {
        ids.iter()
            .map(|&i| match self.layout.tasks[i as usize] {
                QTask::Rows { start, len } => self.count_rows(start, len),
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
        let rowsets = &self.layout.rowsets;
        self.layout
            .tasks
            .par_iter()
            .map(|t| match *t {
                QTask::Rows { start, len } => rowsets[start as usize..(start + len) as usize]
                    .iter()
                    .map(|r| self.pairs_bound(r))
                    .sum(),
                QTask::Rotational => 1,
            })
            .collect()
    }

    fn planned(&self) -> Tally {
        Tally::default()
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
}
