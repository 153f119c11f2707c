//! Tasks of the backtracking method: what a task fixes, which squares its kind bars, and how
//! its solutions are weighed into a [`Tally`].

use super::super::tally::{Classes, Tally};
use super::kernel::Found;
use nqueens_board::masks::full_mask;
use nqueens_board::spec::Spec;

/// The most queens per task can fix before its search starts: 4 border queens (or a corner
/// pair) and up to [`super::plan::MAX_SPLIT_DEPTH`] + [`super::plan::LATE_EXTRA_DEPTH`] rows
/// expanded (the plan tests check that every task fits).
pub const MAX_FIXED: usize = 10;

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
        /// solutions and `1 / turns` of a class (see [`super::plan`]).
        turns: u8,
        /// `false`: all four border queens are fixed. `true`: only the row-0 queen and any
        /// tie squares are fixed; the other border bounds are barred squares, checked row by
        /// row (fewer tasks re-searching the same upper rows; better for small `bound1`).
        late: bool,
    },
    /// Symmetric method: the solutions symmetric under a half turn and under a quarter turn,
    /// counted apart by [`super::rotational::count_rotational`] (no queens fixed).
    Rotational,
}

impl TaskKind {
    /// Whether the task is counted whole, not searched by a kernel.
    pub fn is_whole(self) -> bool {
        matches!(self, TaskKind::Tiny | TaskKind::Rotational)
    }

    /// Whether the planner splits the task [`super::plan::LATE_EXTRA_DEPTH`] rows deeper
    /// (corner and late-bound edge tasks hold most of the work).
    pub fn splits_deeper(self) -> bool {
        matches!(self, TaskKind::Corner | TaskKind::Edge { late: true, .. })
    }

    /// A stable code for the plan's fingerprint.
    pub(crate) fn code(self) -> [u8; 4] {
        match self {
            TaskKind::Weighted { weight } => [1, weight as u8, 0, 0],
            TaskKind::Tiny => [2, 0, 0, 0],
            TaskKind::Corner => [3, 0, 0, 0],
            TaskKind::Edge {
                bound1,
                turns,
                late,
            } => [4, bound1 as u8, turns, late as u8],
            TaskKind::Rotational => [5, 0, 0, 0],
        }
    }
}

/// One independent part of the search: some queens fixed, the rest to be found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Task {
    id: u32,
    fixed: [(u8, u8); MAX_FIXED],
    len: u8,
    kind: TaskKind,
}

impl Task {
    /// A task of `kind` fixing `queens` (`(row, col)`, 0-based, at most [`MAX_FIXED`]; the
    /// planner's own queens, on the board and peaceful), with id 0 until the plan numbers it.
    pub(crate) fn new(kind: TaskKind, queens: &[(u32, u32)]) -> Task {
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

    /// This task with one more queen fixed.
    pub(crate) fn with(mut self, r: u8, c: u8) -> Task {
        assert!(
            (self.len as usize) < MAX_FIXED,
            "a task fixes at most {MAX_FIXED} queens"
        );
        self.fixed[self.len as usize] = (r, c);
        self.len += 1;
        self
    }

    pub(crate) fn numbered(mut self, id: u32) -> Task {
        self.id = id;
        self
    }

    /// Stable id: the task's index in its plan.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The fixed queens `(row, col)`, 0-based.
    pub fn queens(&self) -> &[(u8, u8)] {
        &self.fixed[..self.len as usize]
    }

    /// How the task's solutions are counted.
    pub fn kind(&self) -> TaskKind {
        self.kind
    }

    /// The board a kernel searches for this task on an `n` board: its queens, the user's
    /// placed queens (`placed`, only with weighted tasks) and the squares its kind bars.
    pub fn spec(&self, n: u32, placed: &[(u8, u8)]) -> Spec {
        if !placed.is_empty() {
            let mut all = placed.to_vec();
            all.extend_from_slice(self.queens());
            return Spec::new(n, &all);
        }
        let mut spec = Spec::new(n, self.queens());
        match self.kind {
            TaskKind::Corner => bar_corner(&mut spec, self.queens()[1].1 as usize),
            TaskKind::Edge {
                bound1, late: true, ..
            } => bar_late_edge(&mut spec, bound1, self.queens()),
            _ => {}
        }
        spec
    }

    /// Turns a kernel's counts of this task into its tally, by the task's kind. Tasks
    /// counted whole are weighed where they are counted.
    pub fn weigh(&self, c: Found) -> Tally {
        let found = c.solutions as u128;
        let (total, classes) = match self.kind {
            TaskKind::Weighted { weight } => (found * weight as u128, None),
            // The 1×1 board's one solution is alone in its class; 2×2 and 3×3 have none.
            TaskKind::Tiny => (
                found,
                Some(Classes {
                    c1: found,
                    ..Classes::default()
                }),
            ),
            // Corner solutions, and edge ones whose border no turn keeps, are classes of 8.
            TaskKind::Corner | TaskKind::Edge { turns: 1, .. } => (
                8 * found,
                Some(Classes {
                    c8: found,
                    ..Classes::default()
                }),
            ),
            TaskKind::Edge { turns, .. } => (
                8 * found / turns as u128,
                Some(Classes {
                    quarters: 4 * found / turns as u128,
                    ..Classes::default()
                }),
            ),
            // No kernel counts it: its search finds the symmetric solutions only.
            TaskKind::Rotational => (0, Some(Classes::default())),
        };
        Tally {
            total,
            classes,
            nodes: c.nodes as u128,
        }
    }
}

/// Of a corner solution and its transpose, the one whose column-1 queen is below row `b` (the
/// row-1 queen's column) is counted: column 1 is barred in rows 2..=b.
fn bar_corner(spec: &mut Spec, b: usize) {
    for i in 0..spec.k {
        if (spec.rows[i] as usize) <= b {
            spec.forbid[i] |= 2;
        }
    }
}

/// A late-bound edge task: the side columns are barred in rows `< b` and `> N-1-b`, the last
/// row outside `b..=N-1-b`, and each tie square is either fixed in the task or barred.
fn bar_late_edge(spec: &mut Spec, bound1: u32, queens: &[(u8, u8)]) {
    let (n, b, m) = (spec.n, bound1 as usize, spec.n as usize - 1);
    let side = 1u64 | 1 << m;
    let outside = spec.full & !(full_mask(n - bound1) & !full_mask(bound1));
    for i in 0..spec.k {
        let y = spec.rows[i] as usize;
        if y < b || y > m - b {
            spec.forbid[i] |= side;
        }
        if y == m {
            spec.forbid[i] |= outside;
        }
    }
    for (r, c) in tie_squares(n, bound1) {
        if !queens.contains(&(r as u8, c as u8)) {
            spec.forbid_square(r, c);
        }
    }
}

/// The three squares where a border queen makes a rotation of an edge solution with row-0
/// queen at `b` reach row 0 at column `b` too: the column-0 queen on row N-1-b (quarter turn),
/// the column-(N-1) queen on row b (three quarters), the row-(N-1) queen on column N-1-b (half).
pub fn tie_squares(n: u32, b: u32) -> [(u32, u32); 3] {
    let m = n - 1;
    [(m - b, 0), (b, m), (m, m - b)]
}
