//! The quadrant method's plan: the middle configurations of an odd board, the row sets (which
//! rows hold their queen east of the middle) with their symmetry weights, and the tasks that
//! group them. A plan depends on `N` alone, and stores no row set: a task is a range of ranks
//! of the combinations of one middle configuration's free rows (in Gosper's order), found by
//! unranking, and its row sets are the combinations in it that symmetry keeps.
//!
//! Symmetry: turning the board upside down maps the east rows `E` to their mirror image, and
//! the left-right mirror maps them to the west rows; all four images of `E` have the same
//! count. Only the smallest of them is a row set, weighted by how many distinct images it has
//! (2 or 4: `E` is never its own complement). On an odd board the middle configurations are
//! taken one per class under the 8 symmetries of the square (which keep the middle cross).
//! On an even board the transposes pair solutions across row sets: each row set carries its
//! key for that ([`RowSet::turn`], [`crate::quadrants::transposes`]).

use super::combinations::{binomial, next_subset, unrank};
use super::tasksize::sizes;
use crate::quadrants::geometry::{Geometry, Middle};
use crate::quadrants::quarter::TABLE_MAX_N;
use crate::quadrants::transposes::key;
use nqueens_board::fnv::Fnv;

/// The largest board the method counts: quarters of 14 (slices of at most `2^14` column
/// sets; a(28) has never been counted).
pub const MAX_N: u32 = 28;

/// The smallest board the method counts.
pub const MIN_N: u32 = 4;

/// Whether the quadrant method counts an `n` board, and if not, why.
pub fn applies(n: u32) -> std::result::Result<(), String> {
    if !(MIN_N..=MAX_N).contains(&n) {
        return Err(format!(
            "the quadrant method counts boards from {MIN_N} to {MAX_N} (N = {n})"
        ));
    }
    Ok(())
}

/// One choice of east rows under one middle configuration: the unit the method counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::quadrants) struct RowSet {
    /// The middle configuration (an index).
    pub middle: u16,
    /// The rows whose queen is east.
    pub east: u32,
    /// How many images of this choice it stands for.
    pub weight: u32,
    /// On an even board (long diagonals), the weight of the solutions with no queen on either
    /// long diagonal (see [`west_weights`](crate::quadrants::transposes::west_weights)); 1 elsewhere.
    pub open: u32,
    /// Where the plan pairs an even board's solutions with their transposes' (see
    /// [`crate::quadrants::transposes`]): the row set's key. `None` elsewhere.
    pub turn: Option<[u32; 2]>,
}

/// Part `index` of `of` of a row set: the west half-boards of the `index`-th of `of` equal
/// runs of the west side's column sets, matched against all the east ones. `of` is 1 (the
/// whole row set) except in a striped plan whose single combinations cost too much.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::quadrants) struct Part {
    pub index: u32,
    pub of: u32,
}

impl Part {
    /// The whole row set.
    #[cfg(test)]
    pub const WHOLE: Part = Part { index: 0, of: 1 };

    /// This part's run of `sets` column sets.
    pub fn range(&self, sets: usize) -> std::ops::Range<usize> {
        let at = |i: u32| (sets as u64 * u64::from(i) / u64::from(self.of)) as usize;
        at(self.index)..at(self.index + 1)
    }
}

/// One task of the quadrant method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::quadrants) enum QTask {
    /// Part `part` of each row set of the combinations of ranks `start..start + len` of
    /// middle configuration `middle`.
    Rows {
        middle: u16,
        start: u64,
        len: u64,
        part: Part,
    },
    /// The half- and quarter-turn symmetric solutions, for the unique count.
    Rotational,
}

/// The row sets of one middle configuration: every `k` of its free rows.
#[derive(Debug, Clone)]
pub(in crate::quadrants) struct Group {
    /// The free rows (global).
    positions: Vec<u32>,
    /// How many are east.
    k: u32,
    /// How many configurations it stands for.
    weight: u32,
    /// Kept by the mirrors (the centre of an odd board, or an even board): only one row set
    /// per class under them is counted.
    mirrors: bool,
    /// `C(positions, k)`.
    combos: u64,
    /// The first task's id.
    first_task: u64,
}

/// The plan of an `n` board: its middle configurations and their row sets, as tasks.
#[derive(Debug, Clone)]
pub(in crate::quadrants) struct Layout {
    /// The board and its quadrants.
    pub geometry: Geometry,
    /// The middle configurations (an even board's one is empty), by index.
    pub middles: Vec<Middle>,
    groups: Vec<Group>,
    /// Combinations per task.
    per_task: u64,
    /// Parts per combination ([`Part`]): 1 but in a striped plan.
    parts: u32,
    /// Too many tasks for per-task work estimates (boards past the table whose task count
    /// would pass [`MAX_TASKS`](super::plan::tasksize::MAX_TASKS)): shards take them in stripes
    /// ([`Layout::stripe`]).
    striped: bool,
    /// Tasks of row sets (the rotational task comes after them).
    row_tasks: u64,
    /// An even board's solutions paired with their transposes' ([`crate::quadrants::transposes`]): what
    /// its plans do since they were brought in (files counted before were not, and are read
    /// with the plan they were counted in: [`Layout::untransposed`]).
    pub transposes: bool,
}

/// The rows `x` of an `n` board turned upside down.
fn mirror(n: u32, x: u32) -> u32 {
    x.reverse_bits() >> (32 - n)
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

impl Layout {
    /// The plan of an `n` board (the caller has checked that the method applies).
    pub fn new(n: u32) -> Layout {
        Layout::made(n, false)
    }

    /// This plan without the transposes ([`Layout::transposes`]): the tasks are the same,
    /// their counts those that files counted before the transposes were brought in.
    pub fn untransposed(mut self) -> Layout {
        self.transposes = false;
        self
    }

    /// The plan an `n` board had before the record plan (N = 27 and 28: see
    /// [`RECORD_PLAN_N`](super::plan::tasksize::RECORD_PLAN_N); the same as [`Layout::new`] below them): what files counted then
    /// are checked against.
    pub fn previous(n: u32) -> Layout {
        Layout::made(n, true)
    }

    fn made(n: u32, previous: bool) -> Layout {
        let mut p = Layout {
            geometry: Geometry::new(n),
            middles: Vec::new(),
            groups: Vec::new(),
            per_task: 1,
            parts: 1,
            striped: false,
            row_tasks: 0,
            transposes: n.is_multiple_of(2) && !previous,
        };
        let all_rows = (1u32 << n) - 1;
        if n.is_multiple_of(2) {
            let mid = p.geometry.middle(&[]);
            p.add_group(mid, all_rows, 1, true);
        } else {
            p.add_odd_groups(all_rows);
        }
        let combos: u64 = p.groups.iter().map(|g| g.combos).sum();
        (p.per_task, p.parts, p.striped) = sizes(n, combos, TABLE_MAX_N, previous);
        p.number_tasks();
        p
    }

    /// The plan of an `n` board striped with `parts` parts per combination, one combination a
    /// task: the path of the largest boards, taken at small sizes to check it.
    pub fn striped(n: u32, parts: u32) -> Layout {
        let mut p = Layout::new(n);
        (p.per_task, p.parts, p.striped) = (1, parts, true);
        p.number_tasks();
        p
    }

    /// Whether this plan's tasks are not `other`'s (its sizes differ).
    pub fn differs_from(&self, other: &Layout) -> bool {
        (self.per_task, self.parts, self.striped) != (other.per_task, other.parts, other.striped)
    }

    /// Numbers the tasks, group by group.
    fn number_tasks(&mut self) {
        self.row_tasks = 0;
        for g in &mut self.groups {
            g.first_task = self.row_tasks;
            self.row_tasks += g.combos.div_ceil(self.per_task) * u64::from(self.parts);
        }
    }

    /// In a striped plan, how many consecutive tasks go to a shard together (a combination's
    /// parts, so that one worker builds its east side once): shards take the stripes in turn.
    /// `None`: the tasks are assigned by their work estimates.
    pub fn stripe(&self) -> Option<u64> {
        self.striped.then_some(u64::from(self.parts))
    }

    /// An odd board's middle configurations, one per class under the 8 symmetries.
    fn add_odd_groups(&mut self, all_rows: u32) {
        let (n, c) = (self.geometry.n, self.geometry.h);
        let centre = self.geometry.middle(&[(c, c)]);
        self.add_group(centre, all_rows & !(1 << c), 1, true);
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
                let mid = self.geometry.middle(&[(c, cm), (rm, c)]);
                let rows = all_rows & !(1 << c) & !(1 << rm);
                self.add_group(mid, rows, images.len() as u32, false);
            }
        }
    }

    /// Adds middle configuration `mid` (standing for `weight` configurations) with the row
    /// sets on `rows`: every set of them as large as the east half's free columns.
    fn add_group(&mut self, mut mid: Middle, rows: u32, weight: u32, mirrors: bool) {
        mid.rows = rows;
        self.middles.push(mid);
        let positions: Vec<u32> = (0..self.geometry.n)
            .filter(|&r| rows >> r & 1 == 1)
            .collect();
        let k = mid.east.count_ones();
        self.groups.push(Group {
            combos: binomial(positions.len() as u64, k as u64),
            positions,
            k,
            weight,
            mirrors,
            first_task: 0,
        });
    }

    /// How many tasks the plan has (the rotational one last).
    pub fn tasks(&self) -> usize {
        self.row_tasks as usize + 1
    }

    /// Task `id` (below [`Layout::tasks`]).
    pub fn task(&self, id: u64) -> QTask {
        if id >= self.row_tasks {
            return QTask::Rotational;
        }
        let m = self.groups.partition_point(|g| g.first_task <= id) - 1;
        let g = &self.groups[m];
        let parts = u64::from(self.parts);
        let start = (id - g.first_task) / parts * self.per_task;
        QTask::Rows {
            middle: m as u16,
            start,
            len: self.per_task.min(g.combos - start),
            part: Part {
                index: ((id - g.first_task) % parts) as u32,
                of: self.parts,
            },
        }
    }

    /// The row sets of the combinations `start..start + len` of middle configuration
    /// `middle` that symmetry keeps, with their weights.
    pub fn rowsets(&self, middle: u16, start: u64, len: u64) -> impl Iterator<Item = RowSet> + '_ {
        let g = &self.groups[middle as usize];
        let mut pick = unrank(start, g.k);
        (0..len).filter_map(move |_| {
            let east = g
                .positions
                .iter()
                .enumerate()
                .filter(|(i, _)| pick >> i & 1 == 1)
                .fold(0u32, |a, (_, &r)| a | 1 << r);
            if g.k > 0 {
                pick = next_subset(pick);
            }
            self.rowset(middle, east)
        })
    }

    /// Every row set of the plan (the tests' way through it).
    #[cfg(test)]
    pub fn all_rowsets(&self) -> Vec<RowSet> {
        (0..self.row_tasks)
            .flat_map(|t| match self.task(t) {
                QTask::Rows {
                    middle,
                    start,
                    len,
                    part,
                } if part.index == 0 => self.rowsets(middle, start, len).collect(),
                QTask::Rows { .. } => Vec::new(),
                QTask::Rotational => Vec::new(),
            })
            .collect()
    }

    /// The row set of east rows `east` of middle configuration `middle`, if symmetry keeps it
    /// (one per class under the mirrors that keep the configuration), with its weight.
    pub fn rowset(&self, middle: u16, east: u32) -> Option<RowSet> {
        let g = &self.groups[middle as usize];
        let n = self.geometry.n;
        let rows = self.middles[middle as usize].rows;
        if !g.mirrors {
            return Some(RowSet {
                middle,
                east,
                weight: g.weight,
                open: 1,
                turn: None,
            });
        }
        if n.is_multiple_of(2) {
            // One set of east rows per class under the up-down mirror (weight 1 or 2), with
            // the weight of its solutions that have no queen on either long diagonal (`open`:
            // the left-right mirror pairs such a row set with its half-turn image; one of the
            // two takes weight 2, the other 0, one that is its own image 1).
            let up_down = mirror(n, east);
            if east > up_down {
                return None;
            }
            // Rows where the set and its mirror image agree; the lowest decides.
            let agree = !(east ^ up_down) & rows;
            let open = match agree & agree.wrapping_neg() {
                0 => 1,
                low if east & low != 0 => 2,
                _ => 0,
            };
            let weight = if east == up_down { 1 } else { 2 };
            let turn = self.transposes.then(|| key(self.geometry.h, east));
            return Some(RowSet {
                middle,
                east,
                weight,
                open,
                turn,
            });
        }
        // The centre of an odd board: kept by the up-down and left-right mirrors.
        let west = rows & !east;
        let mut images = [east, mirror(n, east), west, mirror(n, west)];
        if images.iter().any(|&i| east > i) {
            return None;
        }
        images.sort_unstable();
        let distinct = 1 + images.windows(2).filter(|p| p[0] != p[1]).count() as u32;
        Some(RowSet {
            middle,
            east,
            weight: g.weight * distinct,
            open: 1,
            turn: None,
        })
    }

    /// The share of a group's combinations that symmetry keeps, about: what a task's work
    /// estimate counts without visiting its row sets.
    pub fn kept_share(&self, middle: u16) -> f64 {
        match (self.groups[middle as usize].mirrors, self.geometry.n % 2) {
            (false, _) => 1.0,
            (true, 0) => 0.5,
            (true, _) => 0.25,
        }
    }

    /// Feeds what identifies the plan (its middle configurations, combinations and tasks) to
    /// `h`: a few bytes per configuration, whatever the board.
    pub fn fingerprint(&self, h: &mut Fnv) {
        for (m, g) in self.middles.iter().zip(&self.groups) {
            for &(r, c) in &m.queens[..m.len as usize] {
                h.bytes(&[b'm', r as u8, c as u8]);
            }
            h.bytes(&g.combos.to_le_bytes());
            h.bytes(&g.weight.to_le_bytes());
        }
        h.bytes(&self.per_task.to_le_bytes());
        h.bytes(&self.row_tasks.to_le_bytes());
        // Plans without stripes hash as they did before there were any.
        if self.striped {
            h.bytes(b"striped");
            h.bytes(&self.parts.to_le_bytes());
        }
        // Plans without the transposes hash as they did before there were any.
        if self.transposes {
            h.bytes(b"transposes");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quadrants::plan::tasksize::{RECORD_PLAN_N, RECORD_TASKS};

    #[test]
    fn the_mirror_turns_rows_upside_down() {
        assert_eq!(mirror(5, 0b00011), 0b11000);
        assert_eq!(mirror(6, 0b100110), 0b011001);
    }

    /// The large boards' plans: by work up to N = 25, striped from 26 (N = 28 in parts),
    /// every task id within the engine's `u32`, and parts that cover a run of column sets
    /// without gaps or overlaps.
    #[test]
    fn large_plans_are_striped_and_their_ids_fit() {
        for n in 22..=28u32 {
            let p = Layout::new(n);
            assert!(p.tasks() < u32::MAX as usize, "n={n}: {} tasks", p.tasks());
            assert_eq!(p.stripe().is_some(), n >= 26, "n={n}");
            assert_eq!(p.parts, 1, "n={n}: {} parts", p.parts);
            let before = Layout::previous(n);
            assert_eq!(before.parts > 1, n == 28, "n={n}: {} parts", before.parts);
        }
        for of in 1..=13u32 {
            for sets in [0usize, 1, 5, 3432] {
                let runs: Vec<_> = (0..of)
                    .map(|index| Part { index, of }.range(sets))
                    .collect();
                assert_eq!(runs[0].start, 0);
                assert_eq!(runs.last().unwrap().end, sets);
                assert!(runs.windows(2).all(|w| w[0].end == w[1].start));
            }
        }
    }

    /// The record plan: N = 27 and 28 in at most 10 million tasks of whole combinations (was
    /// 24,472,001 and 521,515,801), every plan below 27 as it was; the previous plans are
    /// still made, as they were, for the files counted in them.
    #[test]
    fn record_plans_hold_at_most_ten_million_tasks_and_earlier_plans_stay() {
        let tasks = |p: &Layout| p.tasks() as u64;
        for n in 27..=28u32 {
            let p = Layout::new(n);
            assert!(tasks(&p) <= 10_000_000, "n={n}: {}", tasks(&p));
            assert!(tasks(&p) >= RECORD_TASKS / 2, "n={n}: {}", tasks(&p));
            assert_eq!((p.parts, p.stripe()), (1, Some(1)));
        }
        assert_eq!(tasks(&Layout::previous(27)), 24_472_001);
        assert_eq!(tasks(&Layout::previous(28)), 521_515_801);
        assert_eq!(tasks(&Layout::new(26)), 1_155_624);
        assert_eq!(tasks(&Layout::new(24)), 69_339);
        for n in MIN_N..RECORD_PLAN_N {
            let (a, b) = (Layout::new(n), Layout::previous(n));
            assert_eq!(
                (a.per_task, a.parts, a.striped),
                (b.per_task, b.parts, b.striped)
            );
        }
    }
}
