//! The quadrant method: a count that joins half-boards instead of backtracking row by row.
//!
//! Every row holds one queen, east or west of the middle; every column one queen, north or
//! south. A task chooses the set `E` of rows whose queen is east (`|E| = N/2`). For that
//! choice, the east half-boards are joined from placements of the north-east and south-east
//! quarters (both read from one `quarter::Quarter` table, enumerated once): a north and a
//! south quarter fit when their columns split the half's columns and their diagonals do not
//! meet. The west half-boards are joined the same way. An east and a west half-board make a
//! solution exactly when their diagonals are disjoint, so the task's count is the number of
//! (east, west) pairs whose diagonal sets do not meet (`matcher::Matcher`).
//!
//! An odd board places the queens of its middle row and middle column first (one middle
//! configuration per class under the board's symmetries); the quadrants then hold the rest.
//! Symmetry reduces the row sets (`plan`); on an even board the transposes pair solutions
//! across row sets (`transposes`); the unique count follows by Burnside's lemma from
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
//! The rooms, from the bottom: `combinations` (row sets by rank), `quarter` (the table of
//! quarter placements, or a worker's slices of it), `geometry` (the board, its middle
//! queens, its halves' column sets), `plan` (middle configurations, row sets and their
//! symmetry, tasks), `transposes` (an even board's keys, slots and weights), `join` and
//! `memo` (quarters filtered for a join), `halves` (a
//! side's half-boards), `matcher` (counting disjoint pairs, with its sieve and carry-save
//! counters), `rowset` (counting one row set), `budget` (memory and work estimates),
//! `counter` (the [`Quadrants`] counter that ties them, and its [`Settings`]; `heap` keeps the
//! C library's heap from handing freed memory back between row sets), and
//! [`audit`] (the same tasks by backtracking, and small exact parts of a task counted both
//! ways, for audits that scale). Vector code is reached through
//! [`crate::arch`]. This file only declares them.

pub mod audit;
mod budget;
mod counter;
mod geometry;
mod halves;
mod heap;
mod join;
pub(crate) mod matcher;
mod memo;
mod pairs;
mod plan;
mod quarter;
mod rowset;
mod scratch;
#[cfg(test)]
mod tests;
mod transposes;

pub use self::audit::recount::Backtracked;
pub use self::counter::{builds, BuildCap, Quadrants, Settings, MOST_PARTS};
pub use self::heap::{keep_freed_memory, keep_heap_pieces, HEAP_PIECES_FROM};
pub use self::matcher::leaves;
#[cfg(feature = "probe")]
pub use self::matcher::probe;
pub use self::plan::{applies, MAX_N, MIN_N};
pub use self::quarter::TABLE_MAX_N;
