//! Counting kernels: each counts the solutions below one task's root.
//!
//! A kernel is a pure function of its task: no locks, no allocation, no shared state. The
//! engine runs them on rayon workers and sums what they return.
//!
//! - [`simple`]: the plain recursive bitboard count (as in Jeff Somers' classic program); the
//!   yardstick the faster ones are measured against, and the kernel for `plain`/`mirror` tasks.
//! - [`symmetric`]: the count of one representative per class of the board's 8 symmetries,
//!   with a rotation check at the leaves (the corner/edge method often credited to Takaken).

pub mod simple;
pub mod symmetric;

use crate::plan::{Task, TaskKind};
use std::ops::AddAssign;

/// Solutions counted by the size of their class (orbit) under the 8 symmetries of the square.
///
/// Every solution of an N×N board with N > 1 has an orbit of 2 (it is symmetric under a 90°
/// turn), 4 (under a 180° turn only) or 8 (no symmetry); the lone 1×1 board has an orbit of 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Classes {
    /// Classes of one solution (only the 1×1 board).
    pub c1: u128,
    /// Classes of two solutions: symmetric under a quarter turn.
    pub c2: u128,
    /// Classes of four solutions: symmetric under a half turn but not a quarter turn.
    pub c4: u128,
    /// Classes of eight solutions: no symmetry.
    pub c8: u128,
}

impl Classes {
    /// The number of classes: A002562's a(n) when summed over a whole board.
    pub fn unique(&self) -> u128 {
        self.c1 + self.c2 + self.c4 + self.c8
    }
    /// The number of solutions these classes hold.
    pub fn total(&self) -> u128 {
        self.c1 + 2 * self.c2 + 4 * self.c4 + 8 * self.c8
    }
}

impl AddAssign for Classes {
    fn add_assign(&mut self, o: Classes) {
        self.c1 += o.c1;
        self.c2 += o.c2;
        self.c4 += o.c4;
        self.c8 += o.c8;
    }
}

/// What counting one task (or a sum of tasks) found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Solutions, each counted with its task's weight: the contribution to A000170.
    pub total: u128,
    /// The split by symmetry class, when the algorithm knows it (`symmetric` only).
    pub classes: Option<Classes>,
    /// Nodes visited: queens placed by the kernel below the task roots.
    pub nodes: u128,
}

impl Tally {
    /// The number of solutions up to symmetry, when known.
    pub fn unique(&self) -> Option<u128> {
        self.classes.map(|c| c.unique())
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.total += o.total;
        self.nodes += o.nodes;
        self.classes = match (self.classes, o.classes) {
            (Some(mut a), Some(b)) => {
                a += b;
                Some(a)
            }
            (a, None) => a,
            (None, b) => b,
        };
    }
}

/// Raw result of a kernel run: solutions found below the root and queens placed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Solutions below the root (unweighted).
    pub solutions: u64,
    /// Queens placed.
    pub nodes: u64,
}

/// Counts one task of an `n`-queens plan with the kernel its kind calls for.
pub fn count_task(n: u32, task: &Task) -> Tally {
    match task.kind {
        TaskKind::Weighted { weight } => {
            let c = simple::count(n, task.row, task.masks);
            Tally {
                total: c.solutions as u128 * weight as u128,
                classes: None,
                nodes: c.nodes as u128,
            }
        }
        TaskKind::Tiny => {
            // Boards of 1..=3 squares a side: 1×1 has one solution, alone in its class;
            // 2×2 and 3×3 have none.
            let c = simple::count(n, task.row, task.masks);
            let s = c.solutions as u128;
            Tally {
                total: s,
                classes: Some(Classes {
                    c1: s,
                    ..Classes::default()
                }),
                nodes: c.nodes as u128,
            }
        }
        TaskKind::Corner { .. } | TaskKind::Edge { .. } => {
            let (classes, nodes) = symmetric::count(n, task);
            Tally {
                total: classes.total(),
                classes: Some(classes),
                nodes: nodes as u128,
            }
        }
    }
}
