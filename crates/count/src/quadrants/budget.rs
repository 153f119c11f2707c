//! The quadrant method's memory budget and work estimates: what a count needs (the quarter
//! table, the plan, each worker's filtered quarters, half-boards and matcher), checked against
//! the limit before anything large is built ([`Sizes::budget`]), and each task's expected work
//! ([`Sizes::task_estimate`]).

use super::geometry::ColumnSets;
use super::matcher::sieve::Sieve;
use super::matcher::{Matcher, BLOCK, SPARE_BYTES};
use super::memo::Memo;
use super::plan::{Layout, QTask, RowSet};
use super::quarter::{self, rows, Quarter, QuarterSlices, TABLE_MAX_N};
use super::scratch::Pieces;
use crate::memory;
use nqueens_board::error::{Error, Result};

/// The memory of the process itself (code, pools, buffers): 6.4 MiB peak measured for a
/// small backtracking count, rounded up.
const PROCESS: usize = 8 << 20;

/// The most a worker's [`Memo`] holds: 256 MiB of filtered quarters (N = 21 keeps about half
/// that for one middle configuration; past it, the memo is emptied and filled again).
const MEMO_BYTES: usize = 256 << 20;

/// Bytes of one filtered quarter in a [`Memo`] (its meet and its key).
const MEMO_ENTRY: usize = 16;

/// Row sets sampled for the largest worker's need in [`Sizes::need`].
const SAMPLED: usize = 256;

/// Row sets sampled without a table (each has its slices built to be measured).
const SLICES_SAMPLED: usize = 16;

/// The least memory a worker gets for its half-boards (with their matcher): less and the
/// count is refused rather than done in pieces too small to be worth it.
const MIN_PIECE_BYTES: u64 = 16 << 20;

/// What a count needs, in bytes: shared by the workers (the process, the quarter table, the
/// plan), per worker whatever the pieces (its quarter slices or memo), and per worker for
/// the half-boards of its largest row set in one piece (an estimate: a tighter limit is met
/// by pieces).
#[derive(Debug, Clone, Copy)]
struct MemoryNeed {
    shared: u64,
    worker: u64,
    halves: u64,
}

/// What a count may hold within its memory limit ([`Sizes::budget`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Budget {
    /// How much of a row set a worker holds at once.
    pub pieces: Pieces,
    /// The memory the count is estimated to need: the process itself, the quarter table, the
    /// plan, and per worker its quarter slices or filtered quarters and its largest row set's
    /// half-boards and matcher (bounded from the quarter table or slices of a sample of row
    /// sets, times 4 for the ones not sampled and the allocator's slack), those at most the
    /// worker's share of the limit (more is counted in pieces).
    pub memory: u64,
    /// The least limit the count accepts: the table, the plan, each worker's slices or memo
    /// and its smallest pieces.
    pub least: u64,
}

/// The memory the count of an `n` board needs at least, before anything is built: the
/// quarter table (the workers' half-boards come on top: [`Sizes::budget`]).
pub(super) fn memory_floor(n: u32) -> u64 {
    if n <= TABLE_MAX_N {
        quarter::bytes_needed(n / 2) as u64
    } else {
        0
    }
}

/// What a plan's memory and work are estimated from.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sizes<'a> {
    /// The plan.
    pub layout: &'a Layout,
    /// Its halves' column sets.
    pub column_sets: &'a ColumnSets,
    /// The quarter table up to [`TABLE_MAX_N`] (its index is enough: its placements need not
    /// be stored).
    pub table: Option<&'a Quarter>,
    /// Whether the workers count from quarter slices built per row set, not from the table.
    pub slices: bool,
}

impl Sizes<'_> {
    /// What the count may hold within `limit` bytes with `threads` workers: a row set whose
    /// half-boards would not fit a worker's share is counted in pieces that do. Refused, with
    /// what it would need and how to need less, only when the table and the workers' slices
    /// or memo leave too little for pieces of [`MIN_PIECE_BYTES`].
    pub fn budget(&self, threads: usize, limit: u64) -> Result<Budget> {
        let n = self.layout.geometry.n;
        let need = self.need();
        let workers = threads.max(1) as u64;
        let fixed = need.shared + workers * need.worker;
        let room = limit.saturating_sub(fixed) / workers;
        if room < MIN_PIECE_BYTES {
            return Err(refused(
                n,
                fixed + workers * MIN_PIECE_BYTES,
                &format!(
                    "the table, and {} quarters with half-boards in pieces of {}",
                    if threads == 1 {
                        "one worker's".to_string()
                    } else {
                        format!("{threads} workers'")
                    },
                    memory::show(MIN_PIECE_BYTES)
                ),
                limit,
            ));
        }
        Ok(Budget {
            pieces: Pieces {
                halves: Some(usize::try_from(room / self.bytes_per_key()).unwrap_or(usize::MAX)),
                room: Some(room),
            },
            memory: fixed + workers * need.halves.min(room),
            least: fixed + workers * MIN_PIECE_BYTES,
        })
    }

    /// Bytes a worker holds per half-board of a piece, counting both sides: each side's keys
    /// (8 bytes, up to twice that as their vectors grow), the sieve's copy of the stored side
    /// and its query lists (the queries filtered at each split on the way down, about three
    /// times the queries), and the matchers' tables for the stored side's
    /// ([`Sieve::blocks_bound`]). [`Pieces::halves`] is the room over it: sides within it
    /// are counted in one piece whichever is stored; past it the stored pieces are sized by
    /// what their sieve's tables cost, known before they are built.
    pub fn bytes_per_key(&self) -> u64 {
        let bits = self.layout.geometry.key_bits();
        (2 * 16 + 8 + 3 * 8 + Sieve::blocks_bound(BLOCK) * Matcher::bytes_for(BLOCK, bits) / BLOCK)
            as u64
    }

    /// What the count needs ([`MemoryNeed`]), from a sample of row sets.
    fn need(&self) -> MemoryNeed {
        let bits = self.layout.geometry.key_bits();
        // Without a table each sampled row set's slices are built to be measured: fewer.
        let sampled = if self.slices { SLICES_SAMPLED } else { SAMPLED };
        let tasks = self.layout.tasks() as u64 - 1;
        let mut slices = QuarterSlices::default();
        let (halves, held) = (0..sampled as u64)
            .map(|i| i * tasks / sampled as u64)
            .filter_map(|t| match self.layout.task(t) {
                QTask::Rows {
                    middle, start, len, ..
                } => self.layout.rowsets(middle, start, len).next(),
                QTask::Rotational => None,
            })
            .map(|r| {
                let (e, w) = self.sides_bound(&mut slices, &r);
                // Either side may be stored (the sieve's cost model chooses): the keys, the
                // sieve's copy of the stored ones, its query lists (about three times the
                // queries) and its tables.
                let (stored, queries) = (e.max(w) as usize, e.min(w) as usize);
                let halves = (stored + queries) * 8
                    + stored * 8
                    + queries * 24
                    + Sieve::blocks_bound(stored) * Matcher::bytes_for(BLOCK, bits);
                (halves, slices.bytes())
            })
            .fold((0, 0), |(h, s), (h2, s2)| (h.max(h2), s.max(s2)));
        let table = match self.table {
            Some(t) if self.slices => t.index_bytes(),
            Some(t) => t.bytes(),
            None => 0,
        };
        // Each task's estimate (8 bytes) and its shard (4), in every shard's set-up; a striped
        // plan has neither (its shards take stripes of ids: what a run holds per task of its
        // own is the run's, `longrun::run`).
        let plan = if self.layout.stripe().is_some() {
            0
        } else {
            self.layout.tasks() * 12
        };
        MemoryNeed {
            shared: (PROCESS + table + plan) as u64,
            // Slices: twice the largest sampled (the sample may miss larger ones); the
            // matchers' spare tables, at most the largest row set's.
            worker: (2 * held + self.memo_bytes() + SPARE_BYTES.min(halves)) as u64,
            halves: 4 * halves as u64,
        }
    }

    /// A task's expected work: with a table, the bounds of its row sets' pairs; past it, its
    /// combinations times the share symmetry keeps (visiting them costs too much there).
    pub fn task_estimate(&self, t: QTask) -> u64 {
        match t {
            QTask::Rows {
                middle, start, len, ..
            } if self.table.is_some() => self
                .layout
                .rowsets(middle, start, len)
                .map(|r| self.pairs_bound(&r))
                .sum(),
            QTask::Rows {
                middle, len, part, ..
            } => {
                let share = self.layout.kept_share(middle) / f64::from(part.of);
                (len as f64 * 1024.0 * share).ceil() as u64
            }
            QTask::Rotational => 1,
        }
    }

    /// The most filtered quarters a worker keeps ([`Memo`]): all four quadrants' lists, up to
    /// [`MEMO_BYTES`].
    pub fn memo_cap(&self) -> usize {
        let placements = self.table.map_or(0, |t| t.len());
        (4 * placements).min(MEMO_BYTES / MEMO_ENTRY)
    }

    /// Whether workers keep their filtered quarters: always on an odd board (the lists are
    /// read again by the row sets of each middle configuration), on an even board only when
    /// all of them fit under the cap (up to N = 18; at N = 20 refilling would cost more than
    /// it saves). Never past the table (its dense slots, 4 · 4^h, would not fit a worker).
    pub fn memo_used(&self) -> bool {
        let Some(table) = self.table.filter(|_| !self.slices) else {
            return false;
        };
        !self.layout.geometry.even() || 4 * table.len() <= MEMO_BYTES / MEMO_ENTRY
    }

    /// The bytes per worker's memo of filtered quarters holds at most.
    fn memo_bytes(&self) -> usize {
        if self.memo_used() {
            Memo::bytes_for(4 << (2 * self.layout.geometry.h), self.memo_cap())
        } else {
            0
        }
    }

    /// An upper bound of the half-boards on `rows` with the half's free columns `free`: the
    /// pairs of north and south quarter placements before their diagonals are compared.
    fn side_bound(&self, slices: &QuarterSlices, rows_of: u32, free: u32) -> u64 {
        let [north, south] = self.layout.geometry.quarter_rows(rows_of);
        let table = self.table.filter(|_| !self.slices);
        let (top, bottom) = (rows(table, slices, north), rows(table, slices, south));
        self.column_sets
            .get(free, north.count_ones())
            .iter()
            .map(|&c| (top.len_of(c) * bottom.len_of(free & !c)) as u64)
            .sum()
    }

    /// Upper bounds of the east and the west half-boards of a row set (its slices built in
    /// `slices` when there is no table).
    fn sides_bound(&self, slices: &mut QuarterSlices, r: &RowSet) -> (u64, u64) {
        let g = self.layout.geometry;
        let mid = &self.layout.middles[r.middle as usize];
        let west = mid.rows & !r.east;
        if self.slices {
            let [ne, se] = g.quarter_rows(r.east);
            let [nw, sw] = g.quarter_rows(west);
            slices.prepare(g.h, [ne, se, nw, sw]);
        }
        (
            self.side_bound(slices, r.east, mid.east),
            self.side_bound(slices, west, mid.west),
        )
    }

    /// An upper bound of a row set's half-board pairs, over 256: its expected work, from the
    /// table's index (whichever path counts). Past the table every row set counts 1 (building
    /// its slices to bound it would cost a good part of counting it).
    pub fn pairs_bound(&self, r: &RowSet) -> u64 {
        let Some(t) = self.table else {
            return 1;
        };
        let (e, w) = self.index_sides_bound(t, r);
        e.saturating_mul(w) / 256 + 1
    }

    /// [`Sizes::sides_bound`] from the table's index.
    fn index_sides_bound(&self, t: &Quarter, r: &RowSet) -> (u64, u64) {
        let g = self.layout.geometry;
        let mid = &self.layout.middles[r.middle as usize];
        let side = |rows: u32, free: u32| {
            let [north, south] = g.quarter_rows(rows);
            self.column_sets
                .get(free, north.count_ones())
                .iter()
                .map(|&c| (t.len_of(north, c) * t.len_of(south, free & !c)) as u64)
                .sum::<u64>()
        };
        (side(r.east, mid.east), side(mid.rows & !r.east, mid.west))
    }
}

/// The refusal of a count of an `n` board that needs at least `needed` bytes (for `what`)
/// where `limit` are allowed: what it would need, and how to need less.
pub(super) fn refused(n: u32, needed: u64, what: &str, limit: u64) -> Error {
    Error::Memory(format!(
        "the quadrant method needs at least {} for N = {n} ({what}), more than the {} \
         allowed (`max_memory`; the default is half of the available memory): raise \
         `max_memory`, use fewer `threads`, or count with the `symmetric` algorithm \
         (backtracking needs almost no memory)",
        memory::show(needed),
        memory::show(limit)
    ))
}
