//! Recounting the quadrant method's tasks by backtracking, for `audit`: a check that shares
//! nothing with the method's counting (no quarter table or slice, no join, no matcher, no
//! vector code), only the plan that says which row sets a task holds.
//!
//! A row set is a backtracking search with one allowed set of columns per row: the east half
//! for its east rows, the west half for the others, the one square of a middle queen on an odd
//! board. On an even board the east half's squares on a long diagonal are barred, and each
//! solution is weighted by its queens on the west half's long-diagonal squares (none: the row
//! set's `open` weight, one: 2, two: 4), as [`crate::quadrants::rowset`] counts; where the plan pairs
//! solutions with their transposes', one with fewer than two such queens weighs 2, 1 or 0 times
//! that by the key of its north half's columns against the row set's ([`crate::quadrants::transposes`]),
//! read off the search's own columns, not the method's slots. The search is split by the
//! placements of its first rows, into independent pieces that run in parallel.

use crate::backtracking::rotational;
use crate::engine::Counter;
use crate::quadrants::counter::{rows_tally, Quadrants, Settings};
use crate::quadrants::geometry::ColumnSets;
use crate::quadrants::plan::{Layout, Part, QTask, RowSet};
use crate::quadrants::transposes::{key, west_weights};
use crate::tally::Tally;
use nqueens_board::error::Result;
use rayon::prelude::*;

/// One piece of a row set's search: the columns each row may take, and per row the squares
/// that weigh a solution (an even board's west squares on a long diagonal).
#[derive(Clone)]
struct RowSearch {
    n: usize,
    allowed: [u64; 32],
    weighs: [u64; 32],
    /// Where solutions are paired with their transposes': the row set's key.
    turn: Option<[u32; 2]>,
}

/// Where a search stands.
#[derive(Debug, Clone, Copy)]
struct SearchPoint {
    /// The row to go on from.
    row: usize,
    /// The columns and both diagonals taken.
    masks: [u64; 3],
    /// The weighing queens placed so far.
    weighing: usize,
    /// Once past the north half, its columns.
    north: u64,
}

/// The smallest board whose row set searches are spread over the pool's threads. Below it a
/// search takes well under a millisecond (a slice of N = 16 about 20 microseconds by
/// backtracking, of N = 20 about 0.4 ms), about what waking another thread costs, and an audit
/// makes thousands of them: they run on the caller's thread.
const SPREAD_FROM_N: u32 = 20;

/// The pieces a search is split into, at least: the placements of its first rows, searched
/// on in parallel.
const PIECES: usize = 64;

impl RowSearch {
    /// The search split into at least [`PIECES`] independent pieces where it can be: every
    /// placement of its first rows, as the row to go on from, the masks and the weighing
    /// queens so far.
    fn pieces(&self) -> Vec<SearchPoint> {
        let start = SearchPoint {
            row: 0,
            masks: [0; 3],
            weighing: 0,
            north: 0,
        };
        let mut frontier = vec![start];
        let mut row = 0;
        while frontier.len() < PIECES && row + 2 < self.n {
            frontier = frontier
                .into_iter()
                .flat_map(|at| {
                    let [cols, left, right] = at.masks;
                    let north = self.north(row, cols, at.north);
                    let mut free = self.allowed[row] & !(cols | left | right);
                    std::iter::from_fn(move || {
                        (free != 0).then(|| {
                            let bit = free & free.wrapping_neg();
                            free ^= bit;
                            let masks = [cols | bit, (left | bit) << 1, (right | bit) >> 1];
                            SearchPoint {
                                row: row + 1,
                                masks,
                                weighing: at.weighing + usize::from(self.weighs[row] & bit != 0),
                                north,
                            }
                        })
                    })
                })
                .collect();
            row += 1;
        }
        frontier
    }

    /// The columns of the north half: those taken when the search reaches the south half's
    /// first row, `north` until then and after.
    fn north(&self, row: usize, cols: u64, north: u64) -> u64 {
        if row == self.n / 2 {
            cols
        } else {
            north
        }
    }

    /// Adds to `found[k][t]` the solutions below `row` with `k` weighing queens so far and
    /// their north columns' key below the row set's (`t = 0`), at it (1, or where there is
    /// none) or above it (2).
    fn run(&self, at: SearchPoint, found: &mut [[u64; 3]; 3]) {
        let SearchPoint {
            row,
            masks: [cols, left, right],
            weighing: k,
            north,
        } = at;
        let north = self.north(row, cols, north);
        if row == self.n {
            let h = (self.n / 2) as u32;
            let t = self
                .turn
                .map_or(1, |turn| match key(h, north as u32).cmp(&turn) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 2,
                });
            found[k][t] += 1;
            return;
        }
        let mut free = self.allowed[row] & !(cols | left | right);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let next = [cols | bit, (left | bit) << 1, (right | bit) >> 1];
            let next = SearchPoint {
                row: row + 1,
                masks: next,
                weighing: k + usize::from(self.weighs[row] & bit != 0),
                north,
            };
            self.run(next, found);
        }
    }
}

/// A quadrant plan whose tasks are counted by backtracking (`RecountInputs`): what `audit`
/// recounts a quadrant method's files with.
#[derive(Debug)]
pub struct Backtracked(Quadrants);

impl Backtracked {
    /// The plan of an `n` board as `settings` make it (no quarter table is built: the search
    /// needs none).
    pub fn new(n: u32, settings: &Settings) -> nqueens_board::error::Result<Backtracked> {
        let slices = Settings {
            slices: true,
            ..*settings
        };
        Quadrants::unfilled(n, &slices).map(Backtracked)
    }

    /// The plan, for its id.
    pub fn plan(&self) -> &Quadrants {
        &self.0
    }
}

impl Counter for Backtracked {
    fn tasks(&self) -> usize {
        self.0.tasks()
    }

    fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
        let recount = RecountInputs {
            layout: self.0.layout(),
            column_sets: self.0.column_sets(),
        };
        Ok(ids.iter().map(|&id| recount.task(id)).collect())
    }

    fn estimates(&self) -> Vec<u64> {
        self.0.estimates()
    }

    fn stripe(&self) -> Option<u64> {
        self.0.stripe()
    }

    fn planned(&self) -> Tally {
        Tally::default()
    }
}

/// What recounting a plan's tasks by backtracking reads.
#[derive(Debug, Clone, Copy)]
pub(in crate::quadrants) struct RecountInputs<'a> {
    /// The plan.
    pub layout: &'a Layout,
    /// Its halves' column sets (a part of a row set is a run of them).
    pub column_sets: &'a ColumnSets,
}

impl RecountInputs<'_> {
    /// Task `id`'s tally recounted by backtracking (its row sets searched row by row; the
    /// rotational task is a backtracking search already and is counted as [`Counter::count`]
    /// counts it). Its `nodes` are 0: the two methods' work is not comparable.
    pub fn task(&self, id: u32) -> Tally {
        match self.layout.task(id.into()) {
            QTask::Rows {
                middle,
                start,
                len,
                part,
            } => {
                let total = self
                    .layout
                    .rowsets(middle, start, len)
                    .map(|r| self.rowset(&r, part) * r.weight as u128)
                    .sum();
                rows_tally(total, 0)
            }
            QTask::Rotational => Tally {
                nodes: 0,
                ..rotational::tally(self.layout.geometry.n)
            },
        }
    }

    /// The weighted count of part `part` of row set `r` (its own weight left out), by
    /// backtracking: a part is searched once per north-west column set of its run (those
    /// columns allowed to the west rows of the north half, the others to those of the south).
    pub fn rowset(&self, r: &RowSet, part: Part) -> u128 {
        let search = self.search(r);
        if part.of == 1 {
            return self.run_search(&search, r.open);
        }
        let mid = &self.layout.middles[r.middle as usize];
        let [north, _] = self.layout.geometry.quarter_rows(mid.rows & !r.east);
        let sets = self.column_sets.get(mid.west, north.count_ones());
        sets[part.range(sets.len())]
            .iter()
            .map(|&cols| self.run_search(&self.on_columns(&search, r, cols), r.open))
            .sum()
    }

    /// `search` (row set `r`'s) with the north-west quarter on the columns `cols` (local
    /// masks): those allowed to the west rows of the north half, the other free west columns
    /// to those of the south.
    fn on_columns(&self, search: &RowSearch, r: &RowSet, cols: u32) -> RowSearch {
        let g = self.layout.geometry;
        let mid = &self.layout.middles[r.middle as usize];
        let west = mid.rows & !r.east;
        let mut piece = search.clone();
        for row in (0..g.n).filter(|&row| west >> row & 1 == 1) {
            let only = if row < g.h { cols } else { mid.west & !cols };
            piece.allowed[row as usize] &= u64::from(only);
        }
        piece
    }

    /// The weighted count of the solutions of row set `r` (its own weight left out) whose
    /// north-west quarter holds exactly the queens `north_west` (global `(row, col)`, one on
    /// each west row of the north half), by backtracking: a slice ([`super::slice`]).
    pub fn slice(&self, r: &RowSet, north_west: &[(u32, u32)]) -> u128 {
        let cols = north_west.iter().fold(0u32, |m, &(_, c)| m | 1 << c);
        let mut search = self.on_columns(&self.search(r), r, cols);
        for &(row, col) in north_west {
            search.allowed[row as usize] &= 1u64 << col;
        }
        self.run_search(&search, r.open)
    }

    /// Row set `r`'s search: the columns each row may take, and the squares that weigh.
    fn search(&self, r: &RowSet) -> RowSearch {
        let g = self.layout.geometry;
        let (n, h, far) = (g.n, g.h, g.far);
        let mid = &self.layout.middles[r.middle as usize];
        let even = g.even();
        let west = (1u64 << h) - 1;
        let east = west << far;
        let mut search = RowSearch {
            n: n as usize,
            allowed: [0; 32],
            weighs: [0; 32],
            turn: r.turn,
        };
        for row in 0..n {
            let i = row as usize;
            search.allowed[i] = if mid.rows >> row & 1 == 0 {
                mid.queens()
                    .iter()
                    .find(|q| q.0 == row)
                    .map_or(0, |&(_, c)| 1u64 << c)
            } else if r.east >> row & 1 == 1 {
                east
            } else {
                west
            };
            if even {
                // Main diagonal (r = c) and anti-diagonal (r + c = n - 1): the north half
                // meets the main one in the west, the anti one in the east; the south half
                // the other way round.
                let (main, anti) = (1u64 << row, 1u64 << (n - 1 - row));
                let (barred, weighs) = if row < h { (anti, main) } else { (main, anti) };
                search.allowed[i] &= !barred;
                search.weighs[i] = weighs;
            }
        }
        search
    }

    /// The weighted count of `search` (an even board's open solutions weigh `open`; where
    /// the transposes pair solutions, one with fewer than two weighing queens `t` times that,
    /// by its north columns' key against the row set's: 0 below, 1 at, 2 above).
    fn run_search(&self, search: &RowSearch, open: u32) -> u128 {
        let weights = west_weights(self.layout.geometry.even(), open);
        let piece = |at: SearchPoint| {
            let mut found = [[0u64; 3]; 3];
            search.run(at, &mut found);
            let mut sum = 0;
            for (k, by_t) in found.iter().enumerate() {
                for (t, &f) in by_t.iter().enumerate() {
                    let t = if k < 2 { t as u128 } else { 1 };
                    sum += weights[k] * t * u128::from(f);
                }
            }
            sum
        };
        if self.layout.geometry.n < SPREAD_FROM_N {
            return search.pieces().into_iter().map(piece).sum();
        }
        search.pieces().into_par_iter().map(piece).sum()
    }
}
