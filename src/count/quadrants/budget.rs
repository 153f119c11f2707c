//! The quadrant method's memory budget and work estimates: what a count needs (the quarter
//! table, the plan, each worker's filtered quarters, half-boards and matcher), checked against
//! the limit before anything large is built, and each task's expected work.

use super::matcher::Matcher;
use super::memo::Memo;
use super::plan::{QTask, RowSet};
use super::{quarter, Quadrants};
use crate::count::memory;
use crate::error::{Error, Result};

/// The memory of the process itself (code, pools, buffers): 6.4 MiB peak measured for a
/// small backtracking count, rounded up.
const PROCESS: usize = 8 << 20;

/// The most a worker's [`Memo`] holds: 256 MiB of filtered quarters (N = 21 keeps about half
/// that for one middle configuration; past it, the memo is emptied and filled again).
const MEMO_BYTES: usize = 256 << 20;

/// Bytes of one filtered quarter in a [`Memo`] (its meet and its key).
const MEMO_ENTRY: usize = 16;

/// Row sets sampled for the largest worker's need in [`Quadrants::memory_estimate`].
const SAMPLED: usize = 256;

impl Quadrants {
    /// The memory the count of an `n` board needs at least, before anything is built: the
    /// quarter table (the workers' half-boards come on top: [`Quadrants::memory_estimate`]).
    pub fn memory_floor(n: u32) -> u64 {
        quarter::bytes_needed(n / 2) as u64
    }

    /// Plans the count of an `n` board if it fits in `limit` bytes with `threads` workers;
    /// else says what it would need and how to need less. The quarter table's size is checked
    /// before it is built, the whole estimate after.
    pub fn within(n: u32, threads: usize, limit: u64) -> Result<Quadrants> {
        super::applies(n).map_err(Error::Usage)?;
        let refuse = |needed: u64, what: &str| {
            Error::Memory(format!(
                "the quadrant method needs about {} for N = {n} ({what}), more than the {} \
                 allowed (`max_memory`; the default is half of the available memory): raise \
                 `max_memory`, use fewer `threads`, or count with the `symmetric` algorithm \
                 (backtracking needs almost no memory)",
                memory::show(needed),
                memory::show(limit)
            ))
        };
        let floor = Quadrants::memory_floor(n);
        if floor > limit {
            return Err(refuse(floor, "its quarter table alone"));
        }
        // The whole estimate from the table's index, before its placements are stored.
        let mut q = Quadrants::planned(n)?;
        let needed = q.memory_estimate(threads);
        if needed > limit {
            return Err(refuse(
                needed,
                &format!("quarter table and {threads} workers' filtered quarters and half-boards"),
            ));
        }
        q.fill();
        Ok(q)
    }

    /// The memory the count is estimated to need with `threads` workers: the process itself,
    /// the quarter table, the plan, and per worker its filtered quarters and the largest row
    /// set's half-boards and matcher (bounded from the quarter table on a sample of row sets,
    /// times 4 for the ones not sampled and the allocator's slack).
    pub fn memory_estimate(&self, threads: usize) -> u64 {
        let bits = 2 * (2 * self.layout.h - 1);
        let rowsets = &self.layout.rowsets;
        let step = (rowsets.len() / SAMPLED).max(1);
        let per_task = rowsets
            .iter()
            .step_by(step)
            .map(|r| {
                let (e, w) = self.sides_bound(r.middle, r.east);
                (e + w) as usize * 8 + Matcher::bytes_for(e.min(w) as usize, bits)
            })
            .max()
            .unwrap_or(0);
        let plan = rowsets.len() * std::mem::size_of::<RowSet>()
            + self.layout.tasks.len() * (std::mem::size_of::<QTask>() + 64);
        let worker = 4 * per_task + self.memo_bytes();
        (PROCESS + self.quarter.bytes() + plan + threads * worker) as u64
    }

    /// The most filtered quarters a worker keeps ([`Memo`]): all four quadrants' lists, up to
    /// [`MEMO_BYTES`].
    pub(super) fn memo_cap(&self) -> usize {
        (4 * self.quarter.len()).min(MEMO_BYTES / MEMO_ENTRY)
    }

    /// Whether workers keep their filtered quarters: always on an odd board (the lists are
    /// read again by the row sets of each middle configuration), on an even board only when
    /// all of them fit under the cap (up to N = 18; at N = 20 refilling would cost more than
    /// it saves).
    pub(super) fn memo_used(&self) -> bool {
        !self.layout.n.is_multiple_of(2) || 4 * self.quarter.len() <= MEMO_BYTES / MEMO_ENTRY
    }

    /// The bytes a worker's memo of filtered quarters holds at most.
    fn memo_bytes(&self) -> usize {
        if self.memo_used() {
            Memo::bytes_for(4 << (2 * self.layout.h), self.memo_cap())
        } else {
            0
        }
    }

    /// An upper bound of the half-boards on `rows` with the half's free columns `free`: the
    /// pairs of north and south quarter placements before their diagonals are compared.
    fn side_bound(&self, rows: u32, free: u32) -> u64 {
        let (h, far) = (self.layout.h, self.layout.far);
        let full = (1u32 << h) - 1;
        let (north, south) = (rows & full, rows >> far & full);
        self.column_sets
            .get(free, north.count_ones())
            .iter()
            .map(|&c| {
                (self.quarter.len_of(north, c) * self.quarter.len_of(south, free & !c)) as u64
            })
            .sum()
    }

    /// Upper bounds of the east and the west half-boards of a row set.
    fn sides_bound(&self, middle: u16, east: u32) -> (u64, u64) {
        let mid = &self.layout.middles[middle as usize];
        (
            self.side_bound(east, mid.east),
            self.side_bound(mid.rows & !east, mid.west),
        )
    }

    /// An upper bound of a row set's half-board pairs, over 256: its expected work.
    pub(super) fn pairs_bound(&self, r: &RowSet) -> u64 {
        let (e, w) = self.sides_bound(r.middle, r.east);
        e.saturating_mul(w) / 256 + 1
    }
}
