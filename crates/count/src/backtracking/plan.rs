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
//!   representative per symmetry class, as described below; then
//!   `D - 1` further free rows expanded.
//!
//! The symmetric constellations (N >= 4; smaller boards are one [`super::task::TaskKind::Tiny`] task):
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
//!   three [`tie_squares`](super::task::tie_squares) is either fixed or barred, giving up to 8 tasks per `b`. These
//!   tasks hold most of the work, so they are split [`LATE_EXTRA_DEPTH`] free rows deeper.
//! - **rotational**: one task that counts the solutions symmetric under a half turn and under
//!   a quarter turn ([`super::rotational::count_rotational`]), for the unique count.
//!
//! No leaf is ever checked. The four squares at distance `b` from a corner that the quarter
//! turns move onto each other, (0,b) -> (b,N-1) -> (N-1,N-1-b) -> (N-1-b,0), are Q0..Q3; an
//! edge solution occupies Q0 and a set of the others, fixed in the task (late tasks fix or bar
//! the tie squares Q1..Q3). A solution occupying the set O has one image with a queen on Q0
//! per square of O, occupying O turned. Only tasks whose O is the smallest of its turns are
//! planned ([`border_turns`](super::constellations::border_turns)): every class of 8 is then found exactly `t` times, where `t` is
//! the number of turns that leave O as it is (1, 2 or 4), so each solution found counts `8/t`
//! and `1/t` of a class. That is exact for the total; for the unique count, classes that are
//! themselves symmetric are found fewer times, which the rotational task corrects
//! ([`super::super::tally::Classes`]).

use super::super::algorithm::Algorithm;
use super::super::plan_id::PlanId;
use super::constellations::constellations;
use super::task::{Task, TaskKind};
use nqueens_board::check::placements;
use nqueens_board::error::{Error, Result};
use nqueens_board::fnv::Fnv;
use nqueens_board::masks::check_n;

/// The deepest `--split-depth`.
pub const MAX_SPLIT_DEPTH: u32 = 3;

/// Extra free rows expanded in the corner and late-bound edge tasks of the symmetric plan:
/// without them a handful of those tasks hold most of the work and one worker finishes alone.
pub const LATE_EXTRA_DEPTH: u32 = 2;

/// The most tasks a backtracking plan holds (about 40 bytes each, so at most 670 MB; N = 28
/// at split depth 3 has 12.6 million): a plan that would have more is refused as it is
/// built, never allocated whole.
pub const MAX_PLAN_TASKS: usize = 1 << 24;

/// The deterministic list of tasks for one count. Built only by [`Plan::new`] and
/// [`Plan::with_placed`], and never changed after: its [`Plan::fingerprint`] stays true.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    n: u32,
    algorithm: Algorithm,
    split_depth: u32,
    tasks: Vec<Task>,
    prefix_nodes: u64,
    placed: Vec<(u8, u8)>,
}

impl Plan {
    /// Plans the count of an `n` board (1..=64) with the given algorithm and split depth
    /// (1..=3).
    pub fn new(n: u32, algorithm: Algorithm, split_depth: u32) -> Result<Plan> {
        Plan::build(n, algorithm, split_depth, &[])
    }

    /// Plans the count of the completions of the placed queens `(row, col)` (0-based) on an
    /// `n` board: the `plain` algorithm with every task holding the placed queens, the first
    /// `split_depth` free rows expanded. The placements are checked
    /// ([`nqueens_board::check::placements`]).
    pub fn with_placed(n: u32, split_depth: u32, placed: &[(usize, usize)]) -> Result<Plan> {
        check_n(n as i64)?;
        let placed = placements(n as usize, placed)?;
        let placed: Vec<(u8, u8)> = placed.iter().map(|&(r, c)| (r as u8, c as u8)).collect();
        Plan::build(n, Algorithm::Plain, split_depth, &placed)
    }

    /// Rebuilds the backtracking plan `id` names and checks its fingerprint.
    pub fn from_id(id: &PlanId) -> Result<Plan> {
        if id.placed.iter().any(|q| q[0] == 0 || q[1] == 0) {
            return Err(Error::Input(
                "placed queens are written 1-based: a 0 is not a row or column".into(),
            ));
        }
        let placed: Vec<(usize, usize)> = id.placed.iter().map(|q| (q[0] - 1, q[1] - 1)).collect();
        let plan = if placed.is_empty() {
            Plan::new(id.n, id.algorithm, id.split_depth)?
        } else {
            Plan::with_placed(id.n, id.split_depth, &placed)?
        };
        id.check_fingerprint(&plan.fingerprint())?;
        Ok(plan)
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// How symmetry is used.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The split depth asked for (1..=3).
    pub fn split_depth(&self) -> u32 {
        self.split_depth
    }

    /// The tasks, ids `0..len` in order.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// Nodes counted by the planner: one per seed task (a row-0 queen, or a whole
    /// constellation) and one per queen placed while expanding rows. With the kernels' nodes
    /// this makes the total independent of the split depth.
    pub fn prefix_nodes(&self) -> u64 {
        self.prefix_nodes
    }

    /// Queens placed by the user, 0-based and sorted by row, fixed in every task. Only the
    /// `plain` algorithm takes them: symmetry does not hold with placed queens.
    pub fn placed(&self) -> &[(u8, u8)] {
        &self.placed
    }

    /// The placed queens as 1-based `[row, col]`, as files write them.
    fn placed_one_based(&self) -> Vec<[usize; 2]> {
        self.placed
            .iter()
            .map(|&(r, c)| [r as usize + 1, c as usize + 1])
            .collect()
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
            h.bytes(&t.id().to_le_bytes());
            for &(r, c) in t.queens() {
                h.bytes(&[r, c]);
            }
            h.bytes(&t.kind().code());
        }
        h.hex()
    }

    /// What identifies this plan in checkpoint and shard files.
    pub fn id(&self) -> PlanId {
        PlanId {
            n: self.n,
            algorithm: self.algorithm,
            split_depth: self.split_depth,
            placed: self.placed_one_based(),
            fingerprint: self.fingerprint(),
        }
    }

    fn build(n: u32, algorithm: Algorithm, split_depth: u32, placed: &[(u8, u8)]) -> Result<Plan> {
        check_n(n as i64)?;
        if matches!(algorithm, Algorithm::Quadrants | Algorithm::Auto) {
            return Err(Error::Usage(format!(
                "algorithm {algorithm} has no backtracking plan (resolve auto first)"
            )));
        }
        if !(1..=MAX_SPLIT_DEPTH).contains(&split_depth) {
            return Err(Error::SplitDepth(split_depth));
        }
        let (seeds, base) = seeds(n, algorithm);
        let mut prefix_nodes = seeds.iter().filter(|t| !t.queens().is_empty()).count() as u64;
        let mut tasks = seeds;
        let too_many = || {
            Error::Usage(format!(
                "the backtracking plan of N = {n} at split depth {split_depth} would have more \
                 than {MAX_PLAN_TASKS} tasks, more than it may hold in memory: use a smaller \
                 split depth (1 is the smallest)"
            ))
        };
        for step in base..split_depth + LATE_EXTRA_DEPTH {
            let mut next = Vec::with_capacity((tasks.len() * n as usize).min(MAX_PLAN_TASKS));
            for t in &tasks {
                let spec = t.spec(n, placed);
                let deeper = step < split_depth || t.kind().splits_deeper();
                if next.len() >= MAX_PLAN_TASKS {
                    return Err(too_many());
                }
                if spec.k == 0 || t.kind().is_whole() || !deeper {
                    next.push(*t);
                    continue;
                }
                let row = spec.rows[0];
                let mut free = spec.full & !spec.forbid[0];
                prefix_nodes += free.count_ones() as u64;
                if next.len() + free.count_ones() as usize > MAX_PLAN_TASKS {
                    return Err(too_many());
                }
                while free != 0 {
                    let c = free.trailing_zeros() as u8;
                    free &= free - 1;
                    next.push(t.with(row, c));
                }
            }
            tasks = next;
        }
        let tasks = tasks
            .into_iter()
            .enumerate()
            .map(|(i, t)| t.numbered(i as u32))
            .collect();
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

/// The algorithm's seed tasks, and the first row the expansion starts from (`build` refuses
/// the quadrant method before it gets here).
fn seeds(n: u32, algorithm: Algorithm) -> (Vec<Task>, u32) {
    match algorithm {
        Algorithm::Plain => (vec![Task::new(TaskKind::Weighted { weight: 1 }, &[])], 0),
        Algorithm::Mirror => {
            let half = (0..n.div_ceil(2)).map(|c| {
                let weight = if 2 * c + 1 == n { 1 } else { 2 };
                Task::new(TaskKind::Weighted { weight }, &[(0, c)])
            });
            (half.collect(), 1)
        }
        Algorithm::Symmetric if n < 4 => (vec![Task::new(TaskKind::Tiny, &[])], 1),
        Algorithm::Symmetric | Algorithm::Quadrants | Algorithm::Auto => (constellations(n), 1),
    }
}

/// The smallest split depth at which `build` gives at least eight tasks per thread, or the
/// deepest.
pub fn smallest_split_depth(threads: usize, build: impl Fn(u32) -> Result<Plan>) -> u32 {
    (1..MAX_SPLIT_DEPTH)
        .find(|&d| build(d).is_ok_and(|p| p.tasks.len() >= 8 * threads))
        .unwrap_or(MAX_SPLIT_DEPTH)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backtracking::task::MAX_FIXED;
    use nqueens_board::check::peaceful;
    use nqueens_board::masks::full_mask;
    use nqueens_board::spec::Spec;

    #[test]
    fn mirror_row0_is_left_half_plus_middle() {
        let p = Plan::new(5, Algorithm::Mirror, 1).unwrap();
        let w: Vec<(&[(u8, u8)], TaskKind)> =
            p.tasks.iter().map(|t| (t.queens(), t.kind())).collect();
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
        for alg in Algorithm::BACKTRACKING {
            let a = Plan::new(10, alg, 3).unwrap();
            let b = Plan::new(10, alg, 3).unwrap();
            assert_eq!(a, b);
            assert!(a.tasks.iter().enumerate().all(|(i, t)| t.id() == i as u32));
        }
    }

    #[test]
    fn fixed_queens_never_attack_each_other() {
        for alg in Algorithm::BACKTRACKING {
            for n in 4..=20 {
                for d in 1..=MAX_SPLIT_DEPTH {
                    for t in &Plan::new(n, alg, d).unwrap().tasks {
                        let qs: Vec<(u32, u32)> = t
                            .queens()
                            .iter()
                            .map(|&(r, c)| (r as u32, c as u32))
                            .collect();
                        assert!(peaceful(&qs), "{t:?}");
                        assert!(qs.len() <= MAX_FIXED);
                        assert!(qs.iter().all(|&(r, c)| r < n && c < n));
                        assert_eq!(Spec::new(n, t.queens()).full, full_mask(n));
                    }
                }
            }
        }
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
