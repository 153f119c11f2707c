//! The quadrant method's task counter ([`Quadrants`]): a plan, its quarter table or slices, the
//! memory budget and the build, tied together as the engine's [`Counter`]; and the choices a
//! library user may make of it ([`Settings`]).

use super::budget::{memory_floor, refused, Sizes};
use super::geometry::ColumnSets;
use super::halves::{HalfBoards, MemoUse};
use super::plan::{applies, Layout, Part, QTask, RowSet};
use super::quarter::{Quarter, TABLE_MAX_N};
use super::rowset::RowSets;
use super::scratch::{with_scratch, Pieces};
use crate::algorithm::Algorithm;
use crate::arch::SimdBuild;
use crate::backtracking::rotational;
use crate::engine::Counter;
use crate::plan_id::PlanId;
use crate::tally::{Classes, Tally};
use nqueens_board::error::{Error, Result};
use nqueens_board::fnv::Fnv;
use nqueens_board::named_enum;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The most parts per combination [`Settings::parts`] may ask for.
pub const MOST_PARTS: u32 = 64;

/// A build of the quadrant method's vector code, named to cap the one it runs in
/// (`Settings::build`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BuildCap {
    /// Plain Rust, any CPU.
    Portable,
    /// AVX2 (with popcnt, bmi1, bmi2).
    Avx2,
    /// AVX-512F, VL and VPOPCNTDQ (with AVX2's).
    Avx512,
}

named_enum!(BuildCap, "build of the quadrant method", {
    Portable => "portable",
    Avx2 => "avx2",
    Avx512 => "avx512",
});

impl BuildCap {
    /// The name of build `b`.
    pub fn of(b: SimdBuild) -> BuildCap {
        match b {
            SimdBuild::Portable => BuildCap::Portable,
            #[cfg(target_arch = "x86_64")]
            SimdBuild::Avx2(_) => BuildCap::Avx2,
            #[cfg(target_arch = "x86_64")]
            SimdBuild::Avx512(_) => BuildCap::Avx512,
        }
    }
}

/// The builds the quadrant method runs in on this CPU, the portable one first and the richest
/// last: portable, AVX2 and AVX-512 ([`BuildCap`]) where the CPU has them.
pub fn builds() -> Vec<SimdBuild> {
    SimdBuild::all()
}

/// The quadrant method's choices a library user may make. None changes a count; `parts`
/// makes a plan of its own (with its own fingerprint). The command line sets them from
/// `NQUEENS_QUARTER_PARTS`, `NQUEENS_QUARTER_SLICES` and `NQUEENS_QUADRANT_BUILD`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// The striped plan of the largest boards (one combination a task, in this many parts,
    /// 1 to [`MOST_PARTS`]) at any size: how tests and scripts run shards, merge, status and
    /// audit of striped plans on boards whose counts are known. `None`: the board's own plan.
    pub parts: Option<u32>,
    /// Build the quarter slices of each row set, as boards past the table do, at any size
    /// (the same plan and counts): how the slices' path is checked on known boards.
    pub slices: bool,
    /// The richest build to run in: the richest this CPU has up to this one (`None`: the
    /// richest), so that a CPU with AVX-512 can measure the AVX2 build too.
    pub build: Option<BuildCap>,
    /// The plan N = 27 and 28 had before the record plan (`RECORD_PLAN_N`):
    /// what their earlier files were counted in. Readers choose it themselves from a file's
    /// fingerprint ([`Settings::for_plan`]).
    pub previous: bool,
    /// An even board's plan without the transposes (solutions paired across row sets: see
    /// `docs/ARCHITECTURE.md` and the performance log): the same tasks, with the counts that
    /// files counted before the transposes were brought in hold. Readers choose it themselves
    /// from a file's fingerprint ([`Settings::for_plan`]).
    pub untransposed: bool,
}

impl Settings {
    /// These settings with `build` as the richest build to run in.
    pub fn in_build(self, build: Option<BuildCap>) -> Settings {
        Settings { build, ..self }
    }

    /// These settings for reading the files of the `n` board plan of fingerprint
    /// `fingerprint`: the same, or, where that fingerprint is a plan the board had before
    /// (without the transposes, or before the record plan), the settings that make that plan
    /// ([`Settings::untransposed`], [`Settings::previous`]), so that every earlier run's files
    /// are still read, resumed, merged and audited.
    pub fn for_plan(&self, n: u32, fingerprint: &str) -> Settings {
        if self.previous || self.untransposed || applies(n).is_err() {
            return *self;
        }
        let untransposed = Settings {
            untransposed: true,
            ..*self
        };
        let previous = Settings {
            previous: true,
            ..untransposed
        };
        let mut plans = vec![*self, untransposed];
        if self.parts.is_none() && Layout::previous(n).differs_from(&Layout::new(n)) {
            plans.push(previous);
        }
        plans
            .into_iter()
            .find(|s| {
                s.layout(n)
                    .is_ok_and(|l| plan_fingerprint(&l) == fingerprint)
            })
            .unwrap_or(*self)
    }

    /// The plan of an `n` board these settings make (the caller has checked that the method
    /// applies).
    fn layout(&self, n: u32) -> Result<Layout> {
        let layout = match self.parts {
            None if self.previous => Layout::previous(n),
            None => Layout::new(n),
            Some(p) if (1..=MOST_PARTS).contains(&p) => Layout::striped(n, p),
            Some(p) => {
                return Err(Error::Usage(format!(
                    "{p} parts per combination: give a number of parts from 1 to {MOST_PARTS} \
                     (`quadrants.parts`)"
                )))
            }
        };
        Ok(if self.untransposed {
            layout.untransposed()
        } else {
            layout
        })
    }
}

/// The fingerprint of plan `layout`.
fn plan_fingerprint(layout: &Layout) -> String {
    let mut h = Fnv::new();
    h.bytes(b"nqueens-quadrants-v5");
    h.bytes(&layout.geometry.n.to_le_bytes());
    layout.fingerprint(&mut h);
    h.hex()
}

impl Settings {
    /// The build these settings run in on this CPU.
    fn build(&self) -> SimdBuild {
        let cap = self.build.unwrap_or(BuildCap::Avx512);
        builds()
            .into_iter()
            .rfind(|&b| BuildCap::of(b) <= cap)
            .unwrap_or(SimdBuild::Portable)
    }
}

/// A plan of the quadrant method and its task counter.
#[derive(Debug, Clone)]
pub struct Quadrants {
    /// Unique in the process: what a worker's memo of filtered quarters and its stored east
    /// side check before reusing them (a thread may count several boards, whose plans have
    /// the same middle indexes).
    uid: u64,
    /// The middle configurations, row sets and tasks.
    layout: Layout,
    column_sets: ColumnSets,
    /// The quarter table up to [`TABLE_MAX_N`] (its index alone when `slices`): what the
    /// work estimates are made from, so that they, and so the shards' tasks, are the same
    /// whichever path counts.
    table: Option<Arc<Quarter>>,
    /// Quarter placements from slices built per row set, not from the table (always past
    /// [`TABLE_MAX_N`]).
    slices: bool,
    /// How much of a row set a worker holds at once ([`Quadrants::within`] sets it from the
    /// memory limit; whole in the tests' plans).
    pieces: Pieces,
    /// The memory the count is estimated to need ([`Quadrants::within`]).
    memory: u64,
    /// The least memory limit it accepts ([`Quadrants::within`]).
    least: u64,
    /// The build the vector code runs in.
    build: SimdBuild,
}

/// How much of the quarter table a plan holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum QuarterTable {
    /// The placements and their index.
    Whole,
    /// The index only: enough for the plan's estimates and id.
    IndexOnly,
}

impl Quadrants {
    /// Plans the count of an `n` board within `limit` bytes with `threads` workers: a row set
    /// whose half-boards would not fit a worker's share is counted in pieces that do. Refused,
    /// with what it would need and how to need less, only when the table and the workers'
    /// slices or memo leave too little for pieces of at least 16 MiB. The quarter table's size
    /// is checked before it is built, the whole estimate after.
    pub fn within(n: u32, threads: usize, limit: u64, settings: &Settings) -> Result<Quadrants> {
        applies(n).map_err(Error::Usage)?;
        let floor = memory_floor(n);
        if floor > limit {
            return Err(refused(n, floor, "its quarter table alone", limit));
        }
        // The whole table, built now that its size is known to fit; the rest of the estimate
        // from its index.
        let mut q = Quadrants::with_table(n, settings, QuarterTable::Whole)?;
        let budget = q.sizes().budget(threads, limit)?;
        (q.pieces, q.memory, q.least) = (budget.pieces, budget.memory, budget.least);
        Ok(q)
    }

    /// The plan of an `n` board as `settings` make it, its quarter table as `table` says
    /// (`QuarterTable::Whole`: the placements stored too where the count reads them, table
    /// and index in one walk of the quarter).
    pub(super) fn with_table(
        n: u32,
        settings: &Settings,
        table: QuarterTable,
    ) -> Result<Quadrants> {
        let whole = table == QuarterTable::Whole;
        applies(n).map_err(Error::Usage)?;
        static PLANS: AtomicU64 = AtomicU64::new(0);
        let slices = settings.slices || n > TABLE_MAX_N || settings.parts.is_some();
        let table = (n <= TABLE_MAX_N).then(|| {
            let h = n / 2;
            Arc::new(if whole && !slices {
                Quarter::new(h)
            } else {
                Quarter::index(h)
            })
        });
        let layout = settings.layout(n)?;
        Ok(Quadrants {
            uid: PLANS.fetch_add(1, Ordering::Relaxed),
            column_sets: ColumnSets::new(n / 2),
            slices,
            table,
            layout,
            pieces: Pieces::default(),
            memory: 0,
            least: 0,
            build: settings.build(),
        })
    }

    /// The plan of an `n` board as `settings` make it, with the quarter table's index only
    /// (up to [`TABLE_MAX_N`]; none past it): its id, its tasks, their work estimates and its
    /// memory estimate, to check files against. Not a count: its placements are not stored
    /// and no memory is budgeted ([`Quadrants::within`] makes a plan that counts).
    pub fn unfilled(n: u32, settings: &Settings) -> Result<Quadrants> {
        Quadrants::with_table(n, settings, QuarterTable::IndexOnly)
    }

    /// The memory the count is estimated to need ([`Quadrants::within`]).
    pub fn memory_estimate(&self) -> u64 {
        self.memory
    }

    /// The least memory limit it accepts ([`Quadrants::within`]): less is refused.
    pub fn least_memory(&self) -> u64 {
        self.least
    }

    /// The build its vector code runs in.
    pub fn build(&self) -> SimdBuild {
        self.build
    }

    /// The plan.
    pub(super) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Its halves' column sets.
    pub(super) fn column_sets(&self) -> &ColumnSets {
        &self.column_sets
    }

    /// What the plan's memory and work are estimated from.
    pub(super) fn sizes(&self) -> Sizes<'_> {
        Sizes {
            layout: &self.layout,
            column_sets: &self.column_sets,
            table: self.table.as_deref(),
            slices: self.slices,
        }
    }

    /// What counting its row sets reads.
    pub(super) fn rowsets(&self) -> RowSets<'_> {
        let sizes = self.sizes();
        RowSets {
            layout: &self.layout,
            halves: HalfBoards {
                geometry: self.layout.geometry,
                column_sets: &self.column_sets,
                table: self.table.as_deref().filter(|_| !self.slices),
                memo: sizes.memo_used().then(|| MemoUse {
                    plan: self.uid,
                    cap: sizes.memo_cap(),
                }),
            },
            build: self.build,
            pieces: self.pieces,
            plan: self.uid,
        }
    }

    /// What identifies this plan in checkpoint and shard files (split depth 0: the quadrant
    /// method has none).
    pub fn id(&self) -> PlanId {
        PlanId {
            n: self.layout.geometry.n,
            algorithm: Algorithm::Quadrants,
            split_depth: 0,
            placed: Vec::new(),
            fingerprint: plan_fingerprint(&self.layout),
        }
    }

    /// The tally of part `part` of the row sets of combinations `start..start + len` of
    /// middle configuration `middle`.
    ///
    /// The task's work is spread over the pool it runs on: on a board with the whole quarter
    /// table (small row sets) its row sets are counted by the pool's free threads at once;
    /// past it (row sets of hundreds of MB) one after another, each row set's sieves shaped,
    /// built and matched by the free threads ([`super::matcher`]), so that a task holds one
    /// row set's stored side, as on one thread.
    fn count_rows(&self, middle: u16, start: u64, len: u64, part: Part) -> Tally {
        use rayon::prelude::*;
        let rowsets = self.rowsets();
        let one = |r: RowSet| with_scratch(|s| rowsets.count(&r, part, s));
        let add = |(t, b): (u128, u64), (t2, b2): (u128, u64)| (t + t2, b + b2);
        let sets = self.layout.rowsets(middle, start, len);
        let (total, built) = if self.rowsets_at_once() {
            let sets: Vec<RowSet> = sets.collect();
            sets.into_par_iter().map(one).reduce(|| (0, 0), add)
        } else {
            sets.map(one).fold((0, 0), add)
        };
        rows_tally(total, built)
    }

    /// Whether a task's row sets are counted by several threads at once: where the pool has
    /// free workers ([`crate::spread::spare_workers`]), with the whole quarter table (N up to [`TABLE_MAX_N`]), where a row
    /// set's sieves are too small to share and its memory small beside the table's.
    fn rowsets_at_once(&self) -> bool {
        !self.slices && crate::spread::spare_workers()
    }

    /// The row sets that task `task` counts, each as the rows whose queen is east (bit r for
    /// row r), for models of the method's join (`examples/join_model.rs`). Empty for the
    /// rotational task and for an odd board's tasks, whose row sets sit beside a middle cross
    /// (a model of the even board's halves does not apply to them).
    #[cfg(feature = "probe")]
    pub fn task_east_rows(&self, task: u64) -> Vec<u32> {
        match self.layout.task(task) {
            QTask::Rows {
                middle, start, len, ..
            } if self.layout.geometry.n.is_multiple_of(2) => self
                .layout
                .rowsets(middle, start, len)
                .map(|r| r.east)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Pieces of the tests' choosing.
    #[cfg(test)]
    pub(super) fn set_pieces(&mut self, pieces: Pieces) {
        self.pieces = pieces;
    }

    /// How much of a row set a worker holds at once.
    #[cfg(test)]
    pub(super) fn pieces(&self) -> Pieces {
        self.pieces
    }

    /// Whether the workers count from quarter slices.
    #[cfg(test)]
    pub(super) fn uses_slices(&self) -> bool {
        self.slices
    }
}

/// The tally of row sets that make `total` solutions, `built` half-boards.
pub(super) fn rows_tally(total: u128, built: u64) -> Tally {
    Tally {
        total,
        // Burnside: unique = (total + 2 sym90 + sym180) / 8, as the orbit split of `Classes`
        // computes it from quarters = total / 2 (weights are 2 or 4, so it is whole).
        classes: Some(Classes {
            quarters: total / 2,
            ..Classes::default()
        }),
        nodes: built as u128,
    }
}

impl Counter for Quadrants {
    fn tasks(&self) -> usize {
        self.layout.tasks()
    }

    fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
        Ok(ids
            .iter()
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
                    ..rotational::tally(self.layout.geometry.n)
                },
            })
            .collect())
    }

    fn estimates(&self) -> Vec<u64> {
        use rayon::prelude::*;
        let sizes = self.sizes();
        (0..self.layout.tasks() as u64)
            .into_par_iter()
            .map(|t| sizes.task_estimate(self.layout.task(t)))
            .collect()
    }

    fn planned(&self) -> Tally {
        Tally::default()
    }

    /// A task's row sets, or each row set's sieves, shared by the pool (`Quadrants::count_rows`).
    fn spreads(&self) -> bool {
        true
    }

    fn stripe(&self) -> Option<u64> {
        self.layout.stripe()
    }

    /// With the memo: a middle configuration's quarters are filtered once for a worker's run
    /// of its tasks; with parts, a row set's east side is built once for its parts.
    fn warms(&self) -> bool {
        self.sizes().memo_used() || self.layout.stripe().is_some_and(|s| s > 1)
    }
}
