//! Task planning: the board is split into independent tasks, each a set of fixed queens.
//!
//! A [`Plan`] is a deterministic list of [`Task`]s: the same board size, algorithm and split
//! depth always give the same tasks in the same order with the same ids. Progress, checkpoints
//! and shards are all defined on these ids.
//!
//! - `plain`: the first `D` rows expanded, every placement weight 1.
//! - `mirror`: row 0 only in its left half, weight 2 (the middle column of an odd board weight
//!   1), then rows `1..D` expanded.
//! - `symmetric`: one task per *start constellation*, the border queens placed first and one
//!   representative per symmetry class, as described in [`crate::symmetry`] and below; then
//!   `D - 1` further free rows expanded.
//!
//! The symmetric constellations (N >= 4; smaller boards are one [`TaskKind::Tiny`] task):
//! - **corner**: queens at (0,0) and (1,b) with `2 <= b <= N-2`; column 1 is barred in rows
//!   `2..=b`, so the column-1 queen stands below row b (of a solution and its transpose only
//!   this one qualifies). Such a solution has no symmetry: a class of 8. These tasks are few
//!   and large, so they are split [`LATE_EXTRA_DEPTH`] free rows deeper, like the late ones.
//! - **edge** (for `b >= 3`): no corner queen; `b` is the smallest distance of a border queen
//!   to the nearer end of its edge, turned to be the row-0 queen at (0,b), `b < N-1-b`; the
//!   column-0 queen at (rL,0), the column-(N-1) queen at (rR,N-1) and the row-(N-1) queen at
//!   (N-1,cB), each with its coordinate in `b..=N-1-b`.
//! - **edge, late bounds** (for `b <= 2`): only (0,b) is fixed; the side columns are barred in
//!   rows `< b` and `> N-1-b` and the last row outside `b..=N-1-b`, row by row. Each of the
//!   three [`tie_squares`] is either fixed or barred, giving up to 8 tasks per `b`. These
//!   tasks hold most of the work, so they are split [`LATE_EXTRA_DEPTH`] free rows deeper.
//! - **rotational**: one task that counts the solutions symmetric under a half turn and under
//!   a quarter turn ([`crate::symmetry::count_rotational`]), for the unique count.
//!
//! No leaf is ever checked. The four squares at distance `b` from a corner that the quarter
//! turns move onto each other, (0,b) -> (b,N-1) -> (N-1,N-1-b) -> (N-1-b,0), are Q0..Q3; an
//! edge solution occupies Q0 and a set of the others, fixed in the task (late tasks fix or bar
//! the tie squares Q1..Q3). A solution occupying the set O has one image with a queen on Q0
//! per square of O, occupying O turned. Only tasks whose O is the smallest of its turns are
//! planned ([`border_turns`]): every class of 8 is then found exactly `t` times, where `t` is
//! the number of turns that leave O as it is (1, 2 or 4), so each solution found counts `8/t`
//! and `1/t` of a class. That is exact for the total; for the unique count, classes that are
//! themselves symmetric are found fewer times, which the rotational task corrects
//! ([`crate::kernel::Classes`]).

use crate::bits::check_n;
use crate::error::{Error, Result};
use crate::kernel::{count_spec, Kernel, Spec, Tally, MAX_FIXED};

/// The deepest `--split-depth`.
pub const MAX_SPLIT_DEPTH: u32 = 3;

/// Extra free rows expanded in the corner and late-bound edge tasks of the symmetric plan: without them a
/// handful of those tasks hold most of the work and one worker finishes alone.
pub const LATE_EXTRA_DEPTH: u32 = 2;

/// How the board's symmetry is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Every placement of row 0 is searched; no symmetry. The card's shape, kept as a check.
    Plain,
    /// Mirror halving: only the left half of row 0 is searched and counted twice (plus the
    /// middle column once for odd N).
    Mirror,
    /// All 8 symmetries: border queens placed first, one representative per class, each
    /// solution weighted by its orbit (2, 4 or 8); gives the unique count (A002562) too.
    Symmetric,
}

impl Algorithm {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Plain => "plain",
            Algorithm::Mirror => "mirror",
            Algorithm::Symmetric => "symmetric",
        }
    }
}

/// What a task stands for and how its solutions are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskKind {
    /// Every solution found counts `weight` times (plain: 1; mirror: 2, or 1 for the middle).
    Weighted {
        /// How many solutions each one found stands for.
        weight: u32,
    },
    /// A board of size 1..=3 counted whole (constellations need N >= 4).
    Tiny,
    /// Symmetric method, corner family: every solution is a class of 8.
    Corner,
    /// Symmetric method, edge family, row-0 queen at column `bound1`.
    Edge {
        /// Row 0's column: the border queens' nearest approach to a corner.
        bound1: u32,
        /// How many quarter turns (1, 2 or 4, counting the identity) leave the task's
        /// occupied corner-distance squares as they are: each solution found counts `8 / turns`
        /// solutions and `1 / turns` of a class (see the module docs).
        turns: u8,
        /// `false`: all four border queens are fixed. `true`: only the row-0 queen and any
        /// tie squares are fixed; the other border bounds are barred squares, checked row by
        /// row (fewer tasks re-searching the same upper rows; better for small `bound1`).
        late: bool,
    },
    /// Symmetric method: the solutions symmetric under a half turn and under a quarter turn,
    /// counted apart (no queens fixed; not counted by a kernel).
    Rotational,
}

/// One independent part of the search: some queens fixed, the rest to be found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Task {
    /// Stable id: the task's index in its plan.
    pub id: u32,
    /// The fixed queens `(row, col)`, 0-based (only the first `len` are used).
    pub fixed: [(u8, u8); MAX_FIXED],
    /// How many queens are fixed.
    pub len: u8,
    /// How the task's solutions are counted.
    pub kind: TaskKind,
}

impl Task {
    /// The fixed queens.
    pub fn queens(&self) -> &[(u8, u8)] {
        &self.fixed[..self.len as usize]
    }

    fn new(kind: TaskKind, queens: &[(u32, u32)]) -> Task {
        let mut t = Task {
            id: 0,
            fixed: [(0, 0); MAX_FIXED],
            len: 0,
            kind,
        };
        for &(r, c) in queens {
            t = t.with(r as u8, c as u8);
        }
        t
    }

    fn with(mut self, r: u8, c: u8) -> Task {
        self.fixed[self.len as usize] = (r, c);
        self.len += 1;
        self
    }
}

/// True if queens at `a` and `b` attack each other (same row, column or diagonal).
pub fn attacks(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

fn peaceful(qs: &[(u32, u32)]) -> bool {
    qs.iter()
        .enumerate()
        .all(|(i, &a)| qs[i + 1..].iter().all(|&b| !attacks(a, b)))
}

/// The deterministic list of tasks for one count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Board size.
    pub n: u32,
    /// How symmetry is used.
    pub algorithm: Algorithm,
    /// The split depth asked for (1..=3).
    pub split_depth: u32,
    /// The tasks, ids `0..len` in order.
    pub tasks: Vec<Task>,
    /// Nodes counted by the planner: one per seed task (a row-0 queen, or a whole
    /// constellation) and one per queen placed while expanding rows. With the kernels' nodes
    /// this makes the total independent of the split depth.
    pub prefix_nodes: u64,
    /// Queens placed by the user (`--place`), 0-based and sorted by row, fixed in every task.
    /// Only the `plain` algorithm takes them: symmetry does not hold with placed queens.
    pub placed: Vec<(u8, u8)>,
}

impl Plan {
    /// Plans the count of an `n` board with the given algorithm and split depth (1..=3).
    pub fn new(n: u32, algorithm: Algorithm, split_depth: u32) -> Result<Plan> {
        Plan::build(n, algorithm, split_depth, &[])
    }

    /// Plans the count of the completions of the placed queens `(row, col)` (0-based) on an
    /// `n` board: the `plain` algorithm with every task holding the placed queens, the first
    /// `split_depth` free rows expanded. The placements are checked ([`crate::place::check`]).
    pub fn with_placed(n: u32, split_depth: u32, placed: &[(usize, usize)]) -> Result<Plan> {
        check_n(n as i64)?;
        let placed = crate::place::check(n as usize, placed)?;
        let placed: Vec<(u8, u8)> = placed.iter().map(|&(r, c)| (r as u8, c as u8)).collect();
        Plan::build(n, Algorithm::Plain, split_depth, &placed)
    }

    /// A fingerprint of the whole plan (board, algorithm, split depth, placed queens, and every
    /// task's id, queens and kind): 16 hex digits of FNV-1a 64. Checkpoints and shards carry
    /// it, so parts of different plans are never mixed.
    pub fn fingerprint(&self) -> String {
        let mut h = Fnv::new();
        h.bytes(b"nqueens-plan-v2");
        h.bytes(&self.n.to_le_bytes());
        h.bytes(self.algorithm.name().as_bytes());
        h.bytes(&self.split_depth.to_le_bytes());
        for &(r, c) in &self.placed {
            h.bytes(&[b'p', r, c]);
        }
        for t in &self.tasks {
            h.bytes(&t.id.to_le_bytes());
            for &(r, c) in t.queens() {
                h.bytes(&[r, c]);
            }
            let kind = match t.kind {
                TaskKind::Weighted { weight } => [1, weight as u8, 0, 0],
                TaskKind::Tiny => [2, 0, 0, 0],
                TaskKind::Corner => [3, 0, 0, 0],
                TaskKind::Edge {
                    bound1,
                    turns,
                    late,
                } => [4, bound1 as u8, turns, late as u8],
                TaskKind::Rotational => [5, 0, 0, 0],
            };
            h.bytes(&kind);
        }
        format!("{:016x}", h.0)
    }

    /// What identifies this plan in checkpoint and shard files.
    pub fn id(&self) -> PlanId {
        PlanId {
            n: self.n,
            algorithm: self.algorithm.name().into(),
            split_depth: self.split_depth,
            placed: self
                .placed
                .iter()
                .map(|&(r, c)| [r as usize + 1, c as usize + 1])
                .collect(),
            fingerprint: self.fingerprint(),
        }
    }

    /// The board a task's kernel searches: the task's queens, the plan's placed queens and the
    /// bounds of the task's kind.
    pub fn spec(&self, task: &Task) -> Spec {
        spec_of(self.n, &self.placed, task)
    }

    /// Counts one task of this plan with `kernel`.
    pub fn count_task(&self, task: &Task, kernel: Kernel) -> Tally {
        count_spec(&self.spec(task), task, kernel)
    }

    /// Counts several tasks of this plan with `kernel`, in order (the `lanes` kernel searches
    /// them in lock step; `wide` reuses its piles across them).
    pub fn count_tasks(&self, tasks: &[Task], kernel: Kernel) -> Vec<Tally> {
        crate::kernel::count_batch(tasks, kernel, |t| self.spec(t))
    }

    fn build(n: u32, algorithm: Algorithm, split_depth: u32, placed: &[(u8, u8)]) -> Result<Plan> {
        check_n(n as i64)?;
        if !(1..=MAX_SPLIT_DEPTH).contains(&split_depth) {
            return Err(Error::SplitDepth(split_depth));
        }
        let (seeds, base) = match algorithm {
            Algorithm::Plain => (vec![Task::new(TaskKind::Weighted { weight: 1 }, &[])], 0),
            Algorithm::Mirror => {
                let half = (0..n.div_ceil(2)).map(|c| {
                    let weight = if 2 * c + 1 == n { 1 } else { 2 };
                    Task::new(TaskKind::Weighted { weight }, &[(0, c)])
                });
                (half.collect(), 1)
            }
            Algorithm::Symmetric if n < 4 => (vec![Task::new(TaskKind::Tiny, &[])], 1),
            Algorithm::Symmetric => (constellations(n), 1),
        };
        let mut prefix_nodes = seeds.iter().filter(|t| t.len > 0).count() as u64;
        let mut tasks = seeds;
        for step in base..split_depth + LATE_EXTRA_DEPTH {
            let mut next = Vec::with_capacity(tasks.len() * n as usize);
            for t in &tasks {
                let spec = spec_of(n, placed, t);
                let late = matches!(t.kind, TaskKind::Corner | TaskKind::Edge { late: true, .. });
                let whole = matches!(t.kind, TaskKind::Tiny | TaskKind::Rotational);
                if spec.k == 0 || whole || (step >= split_depth && !late) {
                    next.push(*t);
                    continue;
                }
                let row = spec.rows[0];
                let mut free = spec.full & !spec.forbid[0];
                prefix_nodes += free.count_ones() as u64;
                while free != 0 {
                    let c = free.trailing_zeros() as u8;
                    free &= free - 1;
                    next.push(t.with(row, c));
                }
            }
            tasks = next;
        }
        for (i, t) in tasks.iter_mut().enumerate() {
            t.id = i as u32;
        }
        Ok(Plan {
            n,
            algorithm,
            split_depth,
            tasks,
            prefix_nodes,
            placed: placed.to_vec(),
        })
    }

    /// The split depth used when none is given: the smallest that yields at least eight tasks
    /// per thread, or the deepest.
    pub fn default_split_depth(n: u32, algorithm: Algorithm, threads: usize) -> u32 {
        smallest_split_depth(threads, |d| Plan::new(n, algorithm, d))
    }
}

/// A plan as written in checkpoint and shard files: enough to rebuild it and to check that
/// it is the same plan (see [`Plan::fingerprint`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlanId {
    /// Board size.
    pub n: u32,
    /// The algorithm's name.
    pub algorithm: String,
    /// The split depth.
    pub split_depth: u32,
    /// Placed queens, 1-based `[row, col]`.
    pub placed: Vec<[usize; 2]>,
    /// The plan's fingerprint.
    pub fingerprint: String,
}

impl PlanId {
    /// Rebuilds the plan this id names and checks its fingerprint.
    pub fn rebuild(&self) -> Result<Plan> {
        let algorithm = match self.algorithm.as_str() {
            "plain" => Algorithm::Plain,
            "mirror" => Algorithm::Mirror,
            "symmetric" => Algorithm::Symmetric,
            other => return Err(Error::Input(format!("unknown algorithm {other:?}"))),
        };
        let placed: Vec<(usize, usize)> = self
            .placed
            .iter()
            .map(|q| (q[0].saturating_sub(1), q[1].saturating_sub(1)))
            .collect();
        let plan = if placed.is_empty() {
            Plan::new(self.n, algorithm, self.split_depth)?
        } else {
            Plan::with_placed(self.n, self.split_depth, &placed)?
        };
        if plan.fingerprint() != self.fingerprint {
            return Err(Error::Input(format!(
                "plan fingerprint {} is not this nqueens' plan {} for {}: made by a different \
                 version",
                self.fingerprint,
                plan.fingerprint(),
                self.describe()
            )));
        }
        Ok(plan)
    }

    /// `N=17, algorithm symmetric, split depth 2[, placed 1:2 ...]`.
    pub fn describe(&self) -> String {
        let placed = if self.placed.is_empty() {
            String::new()
        } else {
            format!(", placed {}", crate::place::show_all(&self.placed))
        };
        format!(
            "N={}, algorithm {}, split depth {}{placed}",
            self.n, self.algorithm, self.split_depth
        )
    }
}

/// FNV-1a, 64 bits: a small, stable, dependency-free hash for fingerprints and checksums.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(pub u64);

impl Fnv {
    /// The empty hash.
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    /// Feeds bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv::new()
    }
}

/// The smallest split depth at which `build` gives at least eight tasks per thread, or the
/// deepest.
pub fn smallest_split_depth(threads: usize, build: impl Fn(u32) -> Result<Plan>) -> u32 {
    (1..MAX_SPLIT_DEPTH)
        .find(|&d| build(d).is_ok_and(|p| p.tasks.len() >= 8 * threads))
        .unwrap_or(MAX_SPLIT_DEPTH)
}

fn spec_of(n: u32, placed: &[(u8, u8)], task: &Task) -> Spec {
    if placed.is_empty() {
        return Spec::for_task(n, task);
    }
    let mut all = placed.to_vec();
    all.extend_from_slice(task.queens());
    Spec::new(n, &all)
}

/// The three squares where a border queen makes a rotation of an edge solution with row-0
/// queen at `b` reach row 0 at column `b` too: the column-0 queen on row N-1-b (quarter turn),
/// the column-(N-1) queen on row b (three quarters), the row-(N-1) queen on column N-1-b (half).
pub fn tie_squares(n: u32, b: u32) -> [(u32, u32); 3] {
    let m = n - 1;
    [(m - b, 0), (b, m), (m, m - b)]
}

/// Whether the edge family with row-0 queen at `b` is planned with late bounds (see
/// [`TaskKind::Edge`]). Measured at N=16 and 17 (docs/PERFORMANCE.md): for b <= 2 the bounds
/// barely prune, so fixing all four border queens only multiplies the re-searched upper rows;
/// from b = 3 on, fixed border queens prune more than they cost.
fn late_edges(b: u32) -> bool {
    b <= 2
}

/// The quarter turns of an edge solution's occupied corner-distance squares (see the module
/// docs): `occupied` has bit `i` set when Q`i` holds a queen (bit 0 always). Returns how many
/// turns leave the set as it is (1, 2 or 4) if this set is the smallest (as a number) of its
/// turns that still occupy Q0, or `None`: then another task finds its images.
pub fn border_turns(occupied: u8) -> Option<u8> {
    let turned = |j: u32| (occupied >> j | occupied << (4 - j)) & 0xf;
    let images = (0..4).filter(|&j| occupied >> j & 1 == 1).map(turned);
    if images.clone().any(|o| o < occupied) {
        return None;
    }
    Some(images.filter(|&o| o == occupied).count() as u8)
}

/// The start constellations of an `n >= 4` board, corners first (see the module docs).
fn constellations(n: u32) -> Vec<Task> {
    let mut out = Vec::new();
    for b in 2..n - 1 {
        out.push(Task::new(TaskKind::Corner, &[(0, 0), (1, b)]));
    }
    let m = n - 1;
    for b in (1..n).take_while(|&b| b < m - b) {
        let [q3, q1, q2] = tie_squares(n, b);
        if late_edges(b) {
            // The top queen, and each tie square either fixed or (in the kernel) barred.
            for pick in 0..8u8 {
                let picked = [(pick & 1, q3), (pick >> 1 & 1, q1), (pick >> 2 & 1, q2)];
                let mut qs = vec![(0, b)];
                qs.extend(picked.iter().filter(|p| p.0 == 1).map(|p| p.1));
                let occupied = 1 | (pick >> 1 & 1) << 1 | (pick >> 2 & 1) << 2 | (pick & 1) << 3;
                if let (true, Some(turns)) = (peaceful(&qs), border_turns(occupied)) {
                    let kind = TaskKind::Edge {
                        bound1: b,
                        turns,
                        late: true,
                    };
                    out.push(Task::new(kind, &qs));
                }
            }
            continue;
        }
        let span = b..=m - b;
        for rl in span.clone() {
            for rr in span.clone() {
                for cb in span.clone() {
                    let qs = [(0, b), (rl, 0), (rr, m), (m, cb)];
                    let on = |q: (u32, u32)| qs.contains(&q) as u8;
                    let occupied = 1 | on(q1) << 1 | on(q2) << 2 | on(q3) << 3;
                    if let (true, Some(turns)) = (peaceful(&qs), border_turns(occupied)) {
                        let kind = TaskKind::Edge {
                            bound1: b,
                            turns,
                            late: false,
                        };
                        out.push(Task::new(kind, &qs));
                    }
                }
            }
        }
    }
    out.push(Task::new(TaskKind::Rotational, &[]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::full_mask;

    #[test]
    fn mirror_row0_is_left_half_plus_middle() {
        let p = Plan::new(5, Algorithm::Mirror, 1).unwrap();
        let w: Vec<(&[(u8, u8)], TaskKind)> =
            p.tasks.iter().map(|t| (t.queens(), t.kind)).collect();
        assert_eq!(
            w,
            vec![
                (&[(0, 0)][..], TaskKind::Weighted { weight: 2 }),
                (&[(0, 1)][..], TaskKind::Weighted { weight: 2 }),
                (&[(0, 2)][..], TaskKind::Weighted { weight: 1 }),
            ]
        );
    }

    #[test]
    fn ids_are_stable_and_dense() {
        for alg in [Algorithm::Plain, Algorithm::Mirror, Algorithm::Symmetric] {
            let a = Plan::new(10, alg, 3).unwrap();
            let b = Plan::new(10, alg, 3).unwrap();
            assert_eq!(a, b);
            assert!(a.tasks.iter().enumerate().all(|(i, t)| t.id == i as u32));
        }
    }

    #[test]
    fn fixed_queens_never_attack_each_other() {
        for alg in [Algorithm::Plain, Algorithm::Mirror, Algorithm::Symmetric] {
            for n in 4..=11 {
                for d in 1..=MAX_SPLIT_DEPTH {
                    for t in &Plan::new(n, alg, d).unwrap().tasks {
                        let qs: Vec<(u32, u32)> = t
                            .queens()
                            .iter()
                            .map(|&(r, c)| (r as u32, c as u32))
                            .collect();
                        assert!(peaceful(&qs), "{t:?}");
                        assert!(qs.iter().all(|&(r, c)| r < n && c < n));
                        assert_eq!(Spec::new(n, t.queens()).full, full_mask(n));
                    }
                }
            }
        }
    }

    #[test]
    fn border_turns_keep_one_image_per_turned_set() {
        // Q0 alone; Q0+Q2 (half-turn symmetric); all four (quarter-turn symmetric).
        assert_eq!(border_turns(0b0001), Some(1));
        assert_eq!(border_turns(0b0101), Some(2));
        assert_eq!(border_turns(0b1111), Some(4));
        // {Q0,Q1} and {Q0,Q3} are turns of each other: only the smaller is planned.
        assert_eq!(border_turns(0b0011), Some(1));
        assert_eq!(border_turns(0b1001), None);
        assert_eq!(border_turns(0b0111), Some(1));
        assert_eq!(border_turns(0b1011), None);
        assert_eq!(border_turns(0b1101), None);
    }

    #[test]
    fn bad_split_depth_is_refused() {
        assert_eq!(
            Plan::new(8, Algorithm::Mirror, 0),
            Err(Error::SplitDepth(0))
        );
        assert_eq!(
            Plan::new(8, Algorithm::Mirror, 9),
            Err(Error::SplitDepth(9))
        );
    }
}
