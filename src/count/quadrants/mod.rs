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
//! Symmetry: turning the board upside down maps the east rows `E` to their mirror image, and
//! the left-right mirror maps them to the west rows; all four images of `E` have the same
//! count. Only the smallest of them is a task, weighted by how many distinct images it has
//! (2 or 4: `E` is never its own complement). The unique count follows by Burnside's lemma
//! from the half- and quarter-turn symmetric counts of the rotational task, as in the
//! symmetric backtracker.
//!
//! Coordinates: global diagonals `D1 = r + c` and `D2 = r - c + N - 1`. A quadrant whose
//! top-left square is `(R0, C0)` shifts a quarter's local `d1` by `R0 + C0` and its `d2` by
//! `R0 - C0 + N - h`. East and west half-boards can meet only on the `2h - 1` diagonals of
//! each family from `N - h` on: the match key holds those bits of both families.
//!
//! The method applies to even boards from 4 to 2 × [`quarter::MAX_H`]; `nodes` counts the
//! half-boards it built (east and west), a measure of its work, not queens placed.

pub mod join;
pub mod matcher;
pub mod quarter;

use self::join::{keep_fitting, Lens, Memo, Parts};
use self::matcher::{count_disjoint, Matcher, Sieve};
use self::quarter::Quarter;
use super::engine::Counter;
use super::memory;
use super::plan::{Algorithm, Fnv, PlanId};
use super::rotational;
use super::tally::{Classes, Tally};
use crate::error::{Error, Result};
use std::sync::Arc;

/// The queens of the middle row and the middle column of an odd board, placed before the
/// quadrants are joined (an even board has no middle: one empty `Middle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Middle {
    /// The fixed queens `(row, col)`: none, the centre, or one on the middle row and one on
    /// the middle column.
    queens: [(u32, u32); 2],
    len: u8,
    /// Their diagonals, global (`r + c` and `r - c + N - 1`).
    d1: u64,
    d2: u64,
    /// Global rows left for the quadrants.
    rows: u32,
    /// Local columns (`0..h`) left in the west and the east half.
    west: u32,
    east: u32,
}

/// The memory of the process itself (code, pools, buffers): 6.4 MiB peak measured for a
/// small backtracking count, rounded up.
const PROCESS: usize = 8 << 20;

/// One side of a row set, to be built into half-boards ([`Quadrants::halves`]).
#[derive(Debug, Clone, Copy)]
struct Side<'a> {
    /// The middle configuration.
    mid: &'a Middle,
    /// The side's rows (global).
    rows: u32,
    /// East of the middle, or west.
    east: bool,
    /// Sort the half-boards by their queens on a long diagonal (an even board's west side).
    split: bool,
    /// With `split`, build only those with a queen on a long diagonal.
    long_only: bool,
    /// The middle configuration's index when its filtered quarters are kept
    /// ([`Quadrants::memo_used`]).
    memo: Option<u32>,
}

/// A worker's buffers, kept from one row set to the next (no allocation, no zero-filling
/// per row set): the quarters kept for a join, and the half-boards of both sides.
#[derive(Debug, Default)]
struct Scratch {
    north: [Parts; 2],
    south: [Parts; 2],
    /// The east half-boards (in `east[0]`).
    east: [Vec<u64>; 3],
    /// The west half-boards, by queens on a long diagonal on an even board, else in `west[0]`.
    west: [Vec<u64>; 3],
    /// An odd board's quarters, filtered for the current middle configuration.
    memo: Memo,
}

/// The most a worker's [`Memo`] holds: 256 MiB of filtered quarters (N = 21 keeps about half
/// that for one middle configuration; past it, the memo is emptied and filled again).
const MEMO_BYTES: usize = 256 << 20;

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// One choice of east rows under one middle configuration: the unit the method counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RowSet {
    /// The middle configuration (an index).
    middle: u16,
    /// The rows whose queen is east.
    east: u32,
    /// How many images of this choice it stands for.
    weight: u32,
    /// On an even board (long diagonals), the weight of the solutions with no queen on either
    /// long diagonal (see [`Quadrants`]); 1 elsewhere.
    open: u32,
}

/// The most tasks a plan has: row sets are grouped into tasks of consecutive ones, so that
/// checkpoints and shards stay small however many row sets there are.
const MAX_TASKS: usize = 32_768;

/// One task of the quadrant method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QTask {
    /// The row sets `start..start + len`.
    Rows { start: u32, len: u32 },
    /// The half- and quarter-turn symmetric solutions, for the unique count.
    Rotational,
}

/// A plan of the quadrant method and its task counter.
#[derive(Debug, Clone)]
pub struct Quadrants {
    /// Unique in the process: what a worker's [`Memo`] checks before reusing its entries (a
    /// thread may count several boards, whose plans have the same middle indexes).
    uid: u64,
    n: u32,
    h: u32,
    /// First row of the south quadrants and first column of the east ones: `N - h`.
    far: u32,
    quarter: Arc<Quarter>,
    middles: Vec<Middle>,
    rowsets: Vec<RowSet>,
    tasks: Vec<QTask>,
    /// `column_sets[v][k]`: the sets of `k` columns of the free columns of variant `v` (all
    /// but column `v`, or all `h` for `v = h`).
    column_sets: Vec<Vec<Vec<u32>>>,
}

/// Whether the quadrant method counts an `n` board, and if not, why.
pub fn applies(n: u32) -> std::result::Result<(), String> {
    if !(4..=2 * quarter::MAX_H + 1).contains(&n) {
        return Err(format!(
            "the quadrant method counts boards from 4 to {} (N = {n})",
            2 * quarter::MAX_H + 1
        ));
    }
    Ok(())
}

/// The images of the middle configuration `(cm, rm)` (the middle row's queen in column `cm`,
/// the middle column's queen in row `rm`) under the 8 symmetries of the square, which keep
/// the middle cross.
fn middle_images(n: u32, cm: u32, rm: u32) -> Vec<(u32, u32)> {
    let m = n - 1;
    let mut v = vec![
        (cm, rm),
        (m - cm, rm),
        (cm, m - rm),
        (m - cm, m - rm),
        (rm, cm),
        (m - rm, cm),
        (rm, m - cm),
        (m - rm, m - cm),
    ];
    v.sort_unstable();
    v.dedup();
    v
}

impl Quadrants {
    /// Plans the count of an `n` board (4..=23) and builds its quarter table.
    pub fn new(n: u32) -> Result<Quadrants> {
        applies(n).map_err(Error::Usage)?;
        let h = n / 2;
        static PLANS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut q = Quadrants {
            uid: PLANS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            n,
            h,
            far: n - h,
            quarter: Arc::new(Quarter::new(h)),
            middles: Vec::new(),
            rowsets: Vec::new(),
            tasks: Vec::new(),
            column_sets: (0..=h)
                .map(|v| {
                    let free =
                        ((1u32 << h) - 1) & !(1u32.checked_shl(v).unwrap_or(0) & ((1 << h) - 1));
                    let mut by_k = vec![Vec::new(); h as usize + 1];
                    for c in 0..1u32 << h {
                        if c & !free == 0 {
                            by_k[c.count_ones() as usize].push(c);
                        }
                    }
                    by_k
                })
                .collect(),
        };
        q.plan();
        Ok(q)
    }

    /// The middle configurations, one per class under the 8 symmetries, and their tasks.
    fn plan(&mut self) {
        let (n, h) = (self.n, self.h);
        let all_rows = (1u32 << n) - 1;
        if n.is_multiple_of(2) {
            let mid = self.middle(&[]);
            self.add_even_tasks(mid, all_rows);
        } else {
            let c = h;
            let centre = self.middle(&[(c, c)]);
            self.add_tasks(centre, all_rows & !(1 << c), 1, true);
            for cm in (0..n).filter(|&x| x != c) {
                for rm in (0..n).filter(|&x| x != c) {
                    // The two queens must not share a diagonal.
                    if cm.abs_diff(c) == rm.abs_diff(c) {
                        continue;
                    }
                    let images = middle_images(n, cm, rm);
                    if images[0] != (cm, rm) {
                        continue;
                    }
                    let mid = self.middle(&[(c, cm), (rm, c)]);
                    let rows = all_rows & !(1 << c) & !(1 << rm);
                    self.add_tasks(mid, rows, images.len() as u32, false);
                }
            }
        }
        let group = self.rowsets.len().div_ceil(MAX_TASKS).max(1);
        for start in (0..self.rowsets.len()).step_by(group) {
            let len = group.min(self.rowsets.len() - start);
            self.tasks.push(QTask::Rows {
                start: start as u32,
                len: len as u32,
            });
        }
        self.tasks.push(QTask::Rotational);
    }

    /// The middle configuration of the fixed `queens`.
    fn middle(&self, queens: &[(u32, u32)]) -> Middle {
        let (n, h, far) = (self.n, self.h, self.far);
        let full = (1u32 << h) - 1;
        let mut m = Middle {
            queens: [(0, 0); 2],
            len: queens.len() as u8,
            d1: 0,
            d2: 0,
            rows: 0,
            west: full,
            east: full,
        };
        for (i, &(r, c)) in queens.iter().enumerate() {
            m.queens[i] = (r, c);
            m.d1 |= 1 << (r + c);
            m.d2 |= 1 << (r + n - 1 - c);
            if c < h {
                m.west &= !(1 << c);
            } else if c >= far {
                m.east &= !(1 << (c - far));
            }
        }
        m
    }

    /// Adds the tasks of an even board: one set of east rows per class under the up-down
    /// mirror (weight 1 or 2), with the weight of its solutions that have no queen on either
    /// long diagonal (`open`: the left-right mirror pairs such a task with its half-turn image;
    /// one of the two takes weight 2, the other 0, a task that is its own image 1).
    fn add_even_tasks(&mut self, mut mid: Middle, rows: u32) {
        let (n, h) = (self.n, self.h);
        mid.rows = rows;
        self.middles.push(mid);
        let mirror = |x: u32| x.reverse_bits() >> (32 - n);
        let mut east: u32 = (1 << h) - 1;
        while east <= rows {
            let up_down = mirror(east);
            if east <= up_down {
                // Rows where the set and its mirror image agree; the lowest decides.
                let agree = !(east ^ up_down) & rows;
                let open = match agree & agree.wrapping_neg() {
                    0 => 1,
                    low if east & low != 0 => 2,
                    _ => 0,
                };
                self.rowsets.push(RowSet {
                    middle: 0,
                    east,
                    weight: if east == up_down { 1 } else { 2 },
                    open,
                });
            }
            let low = east & east.wrapping_neg();
            let ripple = east + low;
            east = (((ripple ^ east) >> 2) / low) | ripple;
        }
    }

    /// Adds the tasks of middle configuration `mid` (standing for `weight` configurations):
    /// every set of rows of `rows` as large as the east half's free columns. With
    /// `mirrors`, the configuration is kept by the up-down and left-right mirrors, so only one
    /// row set per class under them is a task.
    fn add_tasks(&mut self, mut mid: Middle, rows: u32, weight: u32, mirrors: bool) {
        let n = self.n;
        mid.rows = rows;
        let index = self.middles.len() as u16;
        self.middles.push(mid);
        let k = mid.east.count_ones();
        let positions: Vec<u32> = (0..n).filter(|&r| rows >> r & 1 == 1).collect();
        let mirror = |x: u32| x.reverse_bits() >> (32 - n);
        let choose = positions.len() as u32;
        let mut pick: u64 = (1u64 << k) - 1;
        // Every k of the free rows, by Gosper's hack over their positions.
        while pick < 1u64 << choose {
            let east = positions
                .iter()
                .enumerate()
                .filter(|(i, _)| pick >> i & 1 == 1)
                .fold(0u32, |a, (_, &r)| a | 1 << r);
            let mut w = weight;
            let mut keep = true;
            if mirrors {
                let images = [east, mirror(east), rows & !east, mirror(rows & !east)];
                keep = images.iter().all(|&i| east <= i);
                let mut distinct = images.to_vec();
                distinct.sort_unstable();
                distinct.dedup();
                w *= distinct.len() as u32;
            }
            if keep {
                self.rowsets.push(RowSet {
                    middle: index,
                    east,
                    weight: w,
                    open: 1,
                });
            }
            if k == 0 {
                break;
            }
            let low = pick & pick.wrapping_neg();
            let ripple = pick + low;
            pick = (((ripple ^ pick) >> 2) / low) | ripple;
        }
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// What identifies this plan in checkpoint and shard files (split depth 0: the quadrant
    /// method has none).
    pub fn id(&self) -> PlanId {
        let mut h = Fnv::new();
        h.bytes(b"nqueens-quadrants-v4");
        h.bytes(&self.n.to_le_bytes());
        for m in &self.middles {
            for &(r, c) in &m.queens[..m.len as usize] {
                h.bytes(&[b'm', r as u8, c as u8]);
            }
        }
        for r in &self.rowsets {
            h.bytes(&r.middle.to_le_bytes());
            h.bytes(&r.east.to_le_bytes());
            h.bytes(&r.weight.to_le_bytes());
            h.bytes(&r.open.to_le_bytes());
        }
        for t in &self.tasks {
            match *t {
                QTask::Rows { start, len } => {
                    h.bytes(&start.to_le_bytes());
                    h.bytes(&len.to_le_bytes());
                }
                QTask::Rotational => h.bytes(b"r"),
            }
        }
        PlanId {
            n: self.n,
            algorithm: Algorithm::Quadrants,
            split_depth: 0,
            placed: Vec::new(),
            fingerprint: h.hex(),
        }
    }

    /// Memory held by the plan (the quarter table), in bytes.
    pub fn bytes(&self) -> usize {
        self.quarter.bytes()
    }

    /// The memory the count of an `n` board needs at least, before anything is built: the
    /// quarter table (the workers' half-boards come on top: [`Quadrants::memory_estimate`]).
    pub fn memory_floor(n: u32) -> u64 {
        quarter::bytes_needed(n / 2) as u64
    }

    /// Plans the count of an `n` board if it fits in `limit` bytes with `threads` workers;
    /// else says what it would need and how to need less. The quarter table's size is checked
    /// before it is built, the whole estimate after.
    pub fn within(n: u32, threads: usize, limit: u64) -> Result<Quadrants> {
        applies(n).map_err(Error::Usage)?;
        let refuse = |needed: u64, what: &str| {
            Error::Memory(format!(
                "the quadrant method needs about {} for N = {n} ({what}), more than the {} \
                 allowed (--max-memory; the default is half of the available memory): raise \
                 --max-memory, use fewer --threads, or count with --algorithm symmetric \
                 (backtracking needs almost no memory)",
                memory::show(needed),
                memory::show(limit)
            ))
        };
        let floor = Quadrants::memory_floor(n);
        if floor > limit {
            return Err(refuse(floor, "its quarter table alone"));
        }
        let q = Quadrants::new(n)?;
        let needed = q.memory_estimate(threads);
        if needed > limit {
            return Err(refuse(
                needed,
                &format!("quarter table and {threads} workers' filtered quarters and half-boards"),
            ));
        }
        Ok(q)
    }

    /// The memory the count is estimated to need with `threads` workers: the process itself,
    /// the quarter table, the plan, and per worker its filtered quarters (odd boards) and the
    /// largest row set's half-boards and matcher (bounded from the quarter table on a sample of row sets, times 4 for the ones
    /// not sampled and the allocator's slack).
    pub fn memory_estimate(&self, threads: usize) -> u64 {
        let bits = 2 * (2 * self.h - 1);
        let rows: Vec<(u16, u32)> = self.rowsets.iter().map(|r| (r.middle, r.east)).collect();
        let step = (rows.len() / 256).max(1);
        let per_task = rows
            .iter()
            .step_by(step)
            .map(|&(middle, east)| {
                let mid = &self.middles[middle as usize];
                let e = self.side_bound(east, mid.east);
                let w = self.side_bound(mid.rows & !east, mid.west);
                (e + w) as usize * 8 + Matcher::bytes_for(e.min(w) as usize, bits)
            })
            .max()
            .unwrap_or(0);
        let plan = self.rowsets.len() * std::mem::size_of::<RowSet>()
            + self.tasks.len() * (std::mem::size_of::<QTask>() + 64);
        (PROCESS + self.bytes() + plan + threads * (4 * per_task + self.memo_bytes())) as u64
    }

    /// The match keys of the half-boards of `side` (its middle configuration, on its rows,
    /// east of the middle or west), appended to `out[0]`.
    ///
    /// With `side.split` (an even board's west side), the half-boards go to `out[k]` by the
    /// number `k` of their queens on a long diagonal: the main one (`r = c`) crosses only the
    /// north-west quarter, the anti-diagonal only the south-west. With `side.long_only`, those
    /// with none are not built.
    fn halves(&self, side: Side, s: &mut Scratch, out: &mut [Vec<u64>; 3]) {
        #[cfg(target_arch = "x86_64")]
        if crate::count::kernel::isa() >= crate::count::kernel::Isa::Avx2 {
            // SAFETY: the CPU has AVX2, popcnt, bmi1 and bmi2.
            unsafe { self.halves_avx2(side, s, out) };
            return;
        }
        self.halves_with::<false>(side, s, out);
    }

    /// [`Quadrants::halves`] compiled for AVX2, with its four-pair join.
    ///
    /// # Safety
    /// The CPU must have AVX2, popcnt, bmi1 and bmi2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    unsafe fn halves_avx2(&self, side: Side, s: &mut Scratch, out: &mut [Vec<u64>; 3]) {
        self.halves_with::<true>(side, s, out);
    }

    /// [`Quadrants::halves`], joining with AVX2 if `AVX2` (only called so on a CPU that has it).
    #[inline(always)]
    fn halves_with<const AVX2: bool>(&self, side: Side, s: &mut Scratch, out: &mut [Vec<u64>; 3]) {
        let Side {
            mid,
            rows,
            east,
            split,
            long_only,
            memo,
        } = side;
        let (n, h, far) = (self.n, self.h, self.far);
        let full = (1u32 << h) - 1;
        let (north, south) = (rows & full, rows >> far & full);
        let (c0, free) = if east { (far, mid.east) } else { (0, mid.west) };
        // A quarter with top-left (r0, c0) shifts d1 by r0 + c0 and d2 by r0 + n - h - c0.
        let (t1, t2, b1, b2) = (c0, n - h - c0, far + c0, far + n - h - c0);
        // Match key: both families' diagonals from n - h on, 2h - 1 of each.
        let (lo, kw) = (n - h, 2 * h - 1);
        let kmask = (1u64 << kw) - 1;
        // North-south test: the diagonals both quarters can reach, `w` of each family.
        let w = 2 * h - 1 - far;
        let wmask = (1u64 << w) - 1;
        let (f1, f2) = (mid.d1, mid.d2);
        let long = n - 1;
        for &cols in self.column_sets(free, north.count_ones()) {
            let top = self.quarter.get(north, cols);
            let bottom = self.quarter.get(south, free & !cols);
            if top.is_empty() || bottom.is_empty() {
                continue;
            }
            // Where a quarter with these shifts lands, and the middle queens it must miss.
            let lens = |s1, s2| Lens {
                s1,
                s2,
                b1,
                b2,
                lo,
                kw,
                kmask,
                w,
                wmask,
                f1,
                f2,
            };
            // South-west quarters split by their queen on the anti-diagonal, north-west ones
            // by theirs on the main diagonal.
            let (on_south, on_north) = if split {
                (Some((true, long)), Some((false, long)))
            } else {
                (None, None)
            };
            let (north_parts, south_parts) = if let Some(owner) = memo {
                // One list per side and quarter, filtered once per middle configuration.
                let base = usize::from(east) << 1;
                let slot = |q: usize, r: u32, c: u32| (base + q) << (2 * h) | (r << h | c) as usize;
                s.memo
                    .begin((self.uid, owner), 4 << (2 * h), self.memo_cap());
                s.memo
                    .room(top.len() + bottom.len(), if split { 2 } else { 1 });
                let lower =
                    s.memo
                        .fit(slot(1, south, free & !cols), bottom, lens(b1, b2), on_south);
                let upper = s
                    .memo
                    .fit(slot(0, north, cols), top, lens(t1, t2), on_north);
                (upper.map(|r| s.memo.get(r)), lower.map(|r| s.memo.get(r)))
            } else {
                keep_fitting(bottom, lens(b1, b2), on_south, &mut s.south);
                keep_fitting(top, lens(t1, t2), on_north, &mut s.north);
                (
                    [s.north[0].kept(), s.north[1].kept()],
                    [s.south[0].kept(), s.south[1].kept()],
                )
            };
            for (i, &(tops, top_keys, tops_len)) in north_parts.iter().enumerate() {
                for (j, &(meets, keys, len)) in south_parts.iter().enumerate() {
                    if (long_only && i + j == 0) || len == 0 {
                        continue;
                    }
                    let o = &mut out[i + j];
                    for (&mt, &kt) in tops[..tops_len].iter().zip(top_keys) {
                        Self::join_one::<AVX2>(mt, kt, meets, keys, len, o);
                    }
                }
            }
        }
    }

    /// The half-boards one north quarter makes with the south ones ([`join::join_portable`]),
    /// with AVX2 if `AVX2` (only called so on a CPU that has it).
    #[inline(always)]
    fn join_one<const AVX2: bool>(
        mt: u64,
        kt: u64,
        meets: &[u64],
        keys: &[u64],
        n: usize,
        out: &mut Vec<u64>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            // SAFETY: only instantiated with `AVX2` on a CPU that has it.
            unsafe { join::join_avx2(mt, kt, meets, keys, n, out) };
            return;
        }
        join::join_portable(mt, kt, meets, keys, n, out);
    }

    /// The most filtered quarters a worker keeps ([`join::Memo`]): all four quadrants' lists,
    /// up to [`MEMO_BYTES`].
    fn memo_cap(&self) -> usize {
        (4 * self.quarter.len()).min(MEMO_BYTES / 16)
    }

    /// Whether workers keep their filtered quarters: always on an odd board (the lists are
    /// read again by the row sets of each middle configuration), on an even board only when
    /// all of them fit under the cap (up to N = 18; at N = 20 refilling would cost more than
    /// it saves).
    fn memo_used(&self) -> bool {
        !self.n.is_multiple_of(2) || 4 * self.quarter.len() <= MEMO_BYTES / 16
    }

    /// The bytes a worker's memo of filtered quarters holds at most.
    fn memo_bytes(&self) -> usize {
        if self.memo_used() {
            Memo::bytes_for(4 << (2 * self.h), self.memo_cap())
        } else {
            0
        }
    }

    /// The sets of `k` columns within `free` (the half's free columns: all `h`, or all but
    /// the middle row's queen's).
    fn column_sets(&self, free: u32, k: u32) -> &[u32] {
        let full = (1u32 << self.h) - 1;
        let variant = if free == full {
            self.h as usize
        } else {
            (full & !free).trailing_zeros() as usize
        };
        &self.column_sets[variant][k as usize]
    }

    /// The weighted count of the solutions of row set `r` (its weight included), and the
    /// half-boards built.
    fn count_rowset(&self, r: &RowSet, s: &mut Scratch) -> (u128, u64) {
        let RowSet {
            middle,
            east,
            weight,
            open,
        } = *r;
        let mid = &self.middles[middle as usize];
        let even = self.n.is_multiple_of(2);
        let mut east_side = *mid;
        if even {
            // East keeps no queen on a long diagonal (see below): they are barred while
            // its quarters are joined.
            east_side.d1 |= 1 << (self.n - 1);
            east_side.d2 |= 1 << (self.n - 1);
        }
        let west = mid.rows & !east;
        let (mut a, mut b) = (std::mem::take(&mut s.east), std::mem::take(&mut s.west));
        a.iter_mut().chain(b.iter_mut()).for_each(Vec::clear);
        let memo = self.memo_used().then_some(u32::from(middle));
        let side = |mid, rows, east, split, long_only, memo| Side {
            mid,
            rows,
            east,
            split,
            long_only,
            memo,
        };
        self.halves(side(&east_side, east, true, false, false, memo), s, &mut a);
        let bits = 2 * (2 * self.h - 1);
        let result = if !even {
            self.halves(side(mid, west, false, false, false, memo), s, &mut b);
            let built = (a[0].len() + b[0].len()) as u64;
            // Store the smaller side: building the tables costs more per pattern than a query.
            let (stored, queries) = if a[0].len() > b[0].len() {
                (&b[0], &a[0])
            } else {
                (&a[0], &b[0])
            };
            let found = count_disjoint(stored, queries, bits) as u128;
            (found * weight as u128, built)
        } else {
            // Even board: the long diagonals are key bits h - 1 (anti-diagonal, r + c = N - 1)
            // and 3h - 2 (main diagonal, r = c). East keeps no queen on either (on the main
            // diagonal in the south-east, the anti-diagonal in the north-east); each west
            // queen on one stands for 2 solutions (half turn, transposes); with none, `open`
            // says.
            self.halves(side(mid, west, false, true, open == 0, memo), s, &mut b);
            let built = (a[0].len() + b.iter().map(Vec::len).sum::<usize>()) as u64;
            let sieve = Sieve::new(&a[0], &b[1], bits);
            let count = |q: &[u64]| sieve.count(q) as u128;
            let found = open as u128 * count(&b[0]) + 2 * count(&b[1]) + 4 * count(&b[2]);
            (found * weight as u128, built)
        };
        (s.east, s.west) = (a, b);
        result
    }

    /// An upper bound of the half-boards on `rows` with the half's free columns `free`: the
    /// pairs of north and south quarter placements before their diagonals are compared.
    fn side_bound(&self, rows: u32, free: u32) -> u64 {
        let (h, far) = (self.h, self.far);
        let full = (1u32 << h) - 1;
        let (north, south) = (rows & full, rows >> far & full);
        self.column_sets(free, north.count_ones())
            .iter()
            .map(|&c| {
                (self.quarter.len_of(north, c) * self.quarter.len_of(south, free & !c)) as u64
            })
            .sum()
    }

    /// An upper bound of a task's half-board pairs, over 256: its expected work.
    fn pairs_bound(&self, middle: u16, east: u32) -> u64 {
        let mid = &self.middles[middle as usize];
        let e = self.side_bound(east, mid.east);
        let w = self.side_bound(mid.rows & !east, mid.west);
        e.saturating_mul(w) / 256 + 1
    }
}

impl Counter for Quadrants {
    fn tasks(&self) -> usize {
        self.tasks.len()
    }

    fn count(&self, ids: &[u32]) -> Vec<Tally> {
        ids.iter()
            .map(|&i| match self.tasks[i as usize] {
                QTask::Rows { start, len } => {
                    let rows = &self.rowsets[start as usize..(start + len) as usize];
                    let (total, built) = SCRATCH.with_borrow_mut(|s| {
                        rows.iter()
                            .map(|r| self.count_rowset(r, s))
                            .fold((0u128, 0u64), |(t, b), (t2, b2)| (t + t2, b + b2))
                    });
                    Tally {
                        total,
                        // Burnside: unique = (total + 2 sym90 + sym180) / 8, as the orbit
                        // split of `Classes` computes it from quarters = total / 2 (weights
                        // are 2 or 4, so it is whole).
                        classes: Some(Classes {
                            quarters: total / 2,
                            ..Classes::default()
                        }),
                        nodes: built as u128,
                    }
                }
                // Its nodes are queens placed, not half-boards: left out of this method's work.
                QTask::Rotational => Tally {
                    nodes: 0,
                    ..rotational::tally(self.n)
                },
            })
            .collect()
    }

    fn estimates(&self) -> Vec<u64> {
        use rayon::prelude::*;
        self.tasks
            .par_iter()
            .map(|t| match *t {
                QTask::Rows { start, len } => self.rowsets[start as usize..(start + len) as usize]
                    .iter()
                    .map(|r| self.pairs_bound(r.middle, r.east))
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
        for n in 4..=13u32 {
            let q = Quadrants::new(n).unwrap();
            let all: Vec<u32> = (0..q.tasks() as u32).collect();
            let t: Tally = q.count(&all).into_iter().sum();
            assert_eq!(Some(t.total), Sequence::A000170.known(n), "total n={n}");
            assert_eq!(t.unique(), Sequence::A002562.known(n), "unique n={n}");
        }
        assert!(Quadrants::new(3).is_err());
        assert!(Quadrants::new(24).is_err());
    }

    /// The portable build of the half-boards (what a CPU without AVX2 runs) against the one
    /// this CPU dispatches to, on every row set and side of small boards.
    #[test]
    fn the_portable_and_dispatched_half_boards_agree() {
        for n in [10u32, 11, 12] {
            let q = Quadrants::new(n).unwrap();
            let (mut s1, mut s2) = (Scratch::default(), Scratch::default());
            for r in &q.rowsets {
                let mid = &q.middles[r.middle as usize];
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
                            };
                            let (mut a, mut b): ([Vec<u64>; 3], [Vec<u64>; 3]) = Default::default();
                            q.halves_with::<false>(side, &mut s1, &mut a);
                            q.halves(side, &mut s2, &mut b);
                            for v in a.iter_mut().chain(b.iter_mut()) {
                                v.sort_unstable();
                            }
                            assert_eq!(
                                a, b,
                                "n={n} {r:?} east={east} long_only={long_only} {memo:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Each task's count against the solutions themselves (enumerated by backtracking): a
    /// task counts, times its weight, the solutions with its middle queens and its east rows
    /// (on an even board, weighted by their long-diagonal queens as the module says).
    #[test]
    fn every_task_counts_what_the_solutions_say() {
        for n in 6..=11u32 {
            let q = Quadrants::new(n).unwrap();
            let (h, far, m) = (q.h, q.far, n - 1);
            let mut want = std::collections::HashMap::new();
            for s in crate::solve::enumerate::Solutions::new(n).unwrap() {
                let s: Vec<u32> = s.iter().map(|&c| c as u32).collect();
                let east = (0..n)
                    .filter(|&r| s[r as usize] >= far && !(n % 2 == 1 && r == h))
                    .fold(0u32, |a, r| a | 1 << r);
                let queens: Vec<(u32, u32)> = if n % 2 == 0 {
                    Vec::new()
                } else if s[h as usize] == h {
                    vec![(h, h)]
                } else {
                    let rm = (0..n).find(|&r| s[r as usize] == h).unwrap();
                    vec![(h, s[h as usize]), (rm, h)]
                };
                // Long diagonals of an even board: main (r = c), anti (r + c = n - 1).
                let on = |r: u32| (s[r as usize] == r, s[r as usize] + r == m);
                let weight = if n % 2 == 1 {
                    1
                } else {
                    let (mut nw, mut sw, mut barred) = (false, false, false);
                    for r in 0..n {
                        let (main, anti) = on(r);
                        nw |= main && r < h;
                        barred |= (main && r >= h) || (anti && r < h);
                        sw |= anti && r >= h;
                    }
                    match (barred, nw, sw) {
                        (true, _, _) => 0,
                        (false, false, false) => u32::MAX, // the task's open weight
                        (false, a, b) => (1 + a as u32) * (1 + b as u32),
                    }
                };
                *want.entry((queens, east, weight)).or_insert(0u128) += 1;
            }
            let mut sum = 0;
            for t in &q.rowsets {
                let RowSet {
                    middle,
                    east,
                    weight,
                    open,
                } = *t;
                let mid = q.middles[middle as usize];
                let queens = mid.queens[..mid.len as usize].to_vec();
                let expected: u128 = want
                    .iter()
                    .filter(|((qs, e, _), _)| *qs == queens && *e == east)
                    .map(|((_, _, w), c)| c * if *w == u32::MAX { open } else { *w } as u128)
                    .sum::<u128>()
                    * weight as u128;
                let (got, _) = q.count_rowset(t, &mut Scratch::default());
                assert_eq!(got, expected, "n={n} {t:?}");
                sum += got;
            }
            assert_eq!(Some(sum), Sequence::A000170.known(n), "n={n}");
        }
    }
}
