//! Task planning: the first rows of the board are expanded into independent subtrees.
//!
//! A [`Plan`] is a deterministic list of [`Task`]s: the same board size, algorithm and split
//! depth always give the same tasks in the same order with the same ids. Progress, checkpoints
//! and shards are all defined on these ids.

use crate::bits::{full_mask, Bits, Masks};
use crate::error::{Error, Result};
use crate::kernel::symmetric::{corner_allowed, Edge};

/// The deepest prefix a task carries (the largest `--split-depth`).
pub const MAX_SPLIT_DEPTH: u32 = 3;

/// How the board's symmetry is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Every placement of row 0 is searched; no symmetry. The card's shape, kept as a check.
    Plain,
    /// Mirror halving: only the left half of row 0 is searched and counted twice (plus the
    /// middle column once for odd N).
    Mirror,
    /// All 8 symmetries: one representative per class, weighted by its orbit (2, 4 or 8);
    /// gives the unique count (A002562) too.
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

/// What a task's subtree stands for and how its solutions are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskKind {
    /// Every solution below counts `weight` times (plain: 1; mirror: 2, or 1 for the middle).
    Weighted {
        /// How many solutions each one found stands for.
        weight: u32,
    },
    /// A board of size 1..=3 counted whole (the symmetric method needs N >= 4).
    Tiny,
    /// Symmetric method, corner family: queen at row 0 column 0, row 1's queen at `bound1`.
    Corner {
        /// Row 1's column.
        bound1: u32,
    },
    /// Symmetric method, edge family: row 0's queen at column `bound1` (the nearest to a corner).
    Edge {
        /// Row 0's column.
        bound1: u32,
    },
}

impl TaskKind {
    /// Columns this kind allows in row `y` of an `n` board in state `m`.
    fn allowed(self, n: u32, y: u32, m: Masks) -> u64 {
        let free = m.free(full_mask(n));
        match self {
            TaskKind::Weighted { .. } | TaskKind::Tiny => free,
            TaskKind::Corner { bound1 } => corner_allowed(bound1, y, free),
            TaskKind::Edge { bound1 } => Edge::new(n, bound1).allowed(y, m, free),
        }
    }
}

/// One independent subtree: the first `row` rows placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Task {
    /// Stable id: the task's index in its plan.
    pub id: u32,
    /// Rows already placed (the prefix length).
    pub row: u32,
    /// Columns of the placed queens, rows `0..row` (only the first `row` entries are used).
    pub cols: [u8; MAX_SPLIT_DEPTH as usize],
    /// The attacks after the prefix.
    pub masks: Masks,
    /// How the subtree is counted.
    pub kind: TaskKind,
}

impl Task {
    /// The columns of the placed rows.
    pub fn prefix(&self) -> &[u8] {
        &self.cols[..self.row as usize]
    }

    fn root(kind: TaskKind) -> Task {
        Task {
            id: 0,
            row: 0,
            cols: [0; MAX_SPLIT_DEPTH as usize],
            masks: Masks::EMPTY,
            kind,
        }
    }

    fn child(&self, col: u32, n: u32) -> Task {
        let mut t = *self;
        t.cols[self.row as usize] = col as u8;
        t.row += 1;
        t.masks = self.masks.place(1 << col, full_mask(n));
        t
    }
}

/// The deterministic list of tasks for one count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Board size.
    pub n: u32,
    /// How symmetry is used.
    pub algorithm: Algorithm,
    /// Rows expanded into tasks (as asked; the planner never expands past the board).
    pub split_depth: u32,
    /// The tasks, ids `0..len` in order.
    pub tasks: Vec<Task>,
    /// Queens placed by the planner itself (the nodes above the task roots).
    pub prefix_nodes: u64,
}

impl Plan {
    /// Plans the count of an `n` board with the given algorithm and split depth (1..=3).
    pub fn new(n: u32, algorithm: Algorithm, split_depth: u32) -> Result<Plan> {
        crate::bits::check_n(n as i64)?;
        if !(1..=MAX_SPLIT_DEPTH).contains(&split_depth) {
            return Err(Error::SplitDepth(split_depth));
        }
        let mut prefix_nodes = 0;
        let seeds: Vec<Task> = match algorithm {
            Algorithm::Plain => vec![Task::root(TaskKind::Weighted { weight: 1 })],
            Algorithm::Mirror => {
                prefix_nodes += n.div_ceil(2) as u64;
                (0..n.div_ceil(2))
                    .map(|c| {
                        let weight = if 2 * c + 1 == n { 1 } else { 2 };
                        Task::root(TaskKind::Weighted { weight }).child(c, n)
                    })
                    .collect()
            }
            Algorithm::Symmetric if n < 4 => vec![Task::root(TaskKind::Tiny)],
            Algorithm::Symmetric => {
                let corners = (2..n - 1).map(|b| {
                    Task::root(TaskKind::Corner { bound1: b })
                        .child(0, n)
                        .child(b, n)
                });
                let edges = (1..n)
                    .take_while(|&b| b < n - 1 - b)
                    .map(|b| Task::root(TaskKind::Edge { bound1: b }).child(b, n));
                let seeds: Vec<Task> = corners.chain(edges).collect();
                // One corner queen shared by all corner tasks, plus one queen per seed (row 1
                // of a corner task, row 0 of an edge task).
                prefix_nodes += 1 + seeds.len() as u64;
                seeds
            }
        };
        let depth = split_depth.min(n);
        let mut tasks = seeds;
        loop {
            let mut next = Vec::with_capacity(tasks.len() * n as usize);
            let mut grew = false;
            for t in &tasks {
                if t.row >= depth || matches!(t.kind, TaskKind::Tiny) {
                    next.push(*t);
                    continue;
                }
                grew = true;
                let a = t.kind.allowed(n, t.row, t.masks);
                prefix_nodes += a.count_ones() as u64;
                next.extend(Bits(a).map(|bit| t.child(bit.trailing_zeros(), n)));
            }
            tasks = next;
            if !grew {
                break;
            }
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
        })
    }

    /// The split depth used when none is given: the smallest that yields at least eight tasks
    /// per thread, or the deepest.
    pub fn default_split_depth(n: u32, algorithm: Algorithm, threads: usize) -> u32 {
        (1..MAX_SPLIT_DEPTH)
            .find(|&d| {
                Plan::new(n, algorithm, d)
                    .map(|p| p.tasks.len() >= 8 * threads)
                    .unwrap_or(false)
            })
            .unwrap_or(MAX_SPLIT_DEPTH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_row0_is_left_half_plus_middle() {
        let p = Plan::new(5, Algorithm::Mirror, 1).unwrap();
        let w: Vec<(u8, TaskKind)> = p.tasks.iter().map(|t| (t.cols[0], t.kind)).collect();
        assert_eq!(
            w,
            vec![
                (0, TaskKind::Weighted { weight: 2 }),
                (1, TaskKind::Weighted { weight: 2 }),
                (2, TaskKind::Weighted { weight: 1 }),
            ]
        );
    }

    #[test]
    fn ids_are_stable_and_dense() {
        let a = Plan::new(10, Algorithm::Symmetric, 3).unwrap();
        let b = Plan::new(10, Algorithm::Symmetric, 3).unwrap();
        assert_eq!(a, b);
        assert!(a.tasks.iter().enumerate().all(|(i, t)| t.id == i as u32));
    }

    #[test]
    fn prefixes_are_consistent_with_masks() {
        for alg in [Algorithm::Plain, Algorithm::Mirror, Algorithm::Symmetric] {
            let p = Plan::new(9, alg, 3).unwrap();
            for t in &p.tasks {
                let mut m = Masks::EMPTY;
                for &c in t.prefix() {
                    assert_ne!(m.free(full_mask(9)) & 1 << c, 0, "{t:?}");
                    m = m.place(1 << c, full_mask(9));
                }
                assert_eq!(m, t.masks);
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
