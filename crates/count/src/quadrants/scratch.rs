//! What a worker keeps while it counts row sets: its buffers from one row set to the next
//! ([`Scratch`], [`with_scratch`]), how much of a row set it holds at once ([`Pieces`]), and a
//! row set's east side stored for its parts ([`StoredEast`]).

use super::halves::JoinBuffers;
use super::pairs::Sieves;
use super::quarter::QuarterSlices;
use super::transposes::{Halves, Weights};

/// How much of one row set a worker holds at once. It changes no count, no task and nothing
/// a file records. The default holds a row set whole.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Pieces {
    /// The most half-boards of a side in one piece: a row set with a larger side is counted
    /// in pieces, its west side built in pieces of this many, its stored east side in pieces
    /// sized by their tables within `room` (the first of this many). `None`: one piece.
    pub halves: Option<usize>,
    /// The bytes per worker's half-boards, sieve and lists may hold when a row set is counted
    /// in pieces: a stored piece whose tables would pass it is built again smaller. `None`:
    /// unlimited.
    pub room: Option<u64>,
}

/// A worker's buffers, kept from one row set to the next (no allocation, no zero-filling per
/// row set).
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// The quarters kept for a join.
    pub join: JoinBuffers,
    /// The east half-boards, by slot ([`Halves`]).
    pub east: Halves,
    /// The west half-boards, by slot.
    pub west: Halves,
    /// The quarter slices of the current row set (boards counted without a whole table).
    pub slices: QuarterSlices,
    /// The east half-boards of the row set whose parts the worker counts.
    pub stored: Option<StoredEast>,
    /// The row set ([`StoredEast::key`]) whose sides were found too large for one piece: its
    /// parts are counted in pieces without trying to keep its east side again.
    pub unfit: Option<StoredKey>,
}

thread_local! {
    /// This worker's buffers, while no row set holds them ([`with_scratch`]).
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with this worker's buffers, taken out of the thread's keeping while it runs, so
/// that `f` may spread its work over the rayon pool: a worker that waits inside it and takes
/// another row set's work meanwhile finds no buffers held and takes fresh ones (the first
/// back is kept, the other dropped), instead of a borrow already held.
pub(super) fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    let mut s = SCRATCH.take().unwrap_or_default();
    let out = f(&mut s);
    // A thread that is exiting has nowhere to keep them: they are freed.
    let _ = SCRATCH.try_with(|kept| {
        let other = kept.take();
        kept.set(Some(other.unwrap_or(s)));
    });
    out
}

/// Which row set a worker's stored east side is: the plan (`RowSets::plan`), the middle
/// configuration and the east rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct StoredKey {
    pub plan: u64,
    pub middle: u16,
    pub east_rows: u32,
}

/// The north quarter of a slice's west half-boards: the placement with local diagonals
/// `north`, on the west side's column set `at` (in `ColumnSets::get`'s order, within the part's
/// run).
#[derive(Debug, Clone, Copy)]
pub struct SliceNorth {
    pub at: usize,
    pub north: [u32; 2],
}

/// Queries and what each slot of them weighs: what a sieve is shaped on.
#[derive(Debug, Clone, Copy)]
pub(super) struct Weighed<'a> {
    pub queries: &'a Halves,
    pub weights: &'a Weights,
}

/// A row set's east half-boards, stored for matching, kept by a worker while it counts the
/// row set's parts ([`Part`]): built once for all of them.
#[derive(Debug)]
pub(super) struct StoredEast {
    /// Which row set it is.
    pub key: StoredKey,
    pub sieves: Sieves,
    /// How many east half-boards it holds.
    pub halves: u64,
}

/// Stored pieces built again smaller (`RowSets::store_piece`): how the tests know they
/// reached that path.
#[cfg(test)]
pub(super) static REBUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The bytes the west half-boards `b` hold, with the sieve's lists of them as it counts
/// (about three times the queries).
pub(super) fn held(b: &Halves) -> u64 {
    b.iter()
        .map(|v| v.capacity() * 8 + v.len() * 24)
        .sum::<usize>() as u64
}

/// How many half-boards `b` holds.
pub(super) fn total(b: &Halves) -> usize {
    b.iter().map(Vec::len).sum()
}
