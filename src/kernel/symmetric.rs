//! Counting one representative per symmetry class (the corner/edge method).
//!
//! Every solution of an N×N board (N ≥ 4) falls in one of two families, and the search visits
//! only a few images of each class:
//!
//! - **Corner**: a queen in a corner. Turned so that it stands at row 0, column 0, the queen of
//!   row 1 is at some column `b` in `2..=N-2`; of the solution and its transpose (the only other
//!   image with that corner queen) only the one whose column-1 queen lies below row `b` is
//!   visited, by keeping column 1 free in rows `< b`. Such solutions never have a rotational
//!   symmetry, so each counts as a class of 8.
//! - **Edge**: no corner queen. Let `b` be the smallest distance from a queen on the border to
//!   the nearer end of its edge. Turned and mirrored so that this queen is on row 0 at column
//!   `b < N-1-b`, every other border queen keeps at least `b` squares from each corner: the side
//!   columns stay empty in rows `< b` and must both be filled by row `N-1-b`, and the last row's
//!   queen lies in columns `b..=N-1-b`. Only rotations of the solution can also meet these
//!   bounds (a mirrored tie would put two queens on one line), so at a leaf whose bounds tie the
//!   solution is compared with the tying rotations: it counts only if it is the smallest, and a
//!   rotation equal to it reveals a class of 2 (quarter turn) or 4 (half turn).

use super::Classes;
use crate::bits::{full_mask, Bits, Masks};
use crate::plan::{Task, TaskKind};
use std::cmp::Ordering;

/// Columns allowed in row `y` for a corner task whose row-1 queen is at column `bound1`
/// (rows 0 and 1 are placed by the planner).
#[inline(always)]
pub fn corner_allowed(bound1: u32, y: u32, free: u64) -> u64 {
    if y < bound1 {
        free & !2
    } else {
        free
    }
}

/// The fixed bounds of an edge task whose row-0 queen is at column `bound1`.
#[derive(Debug, Clone, Copy)]
pub struct Edge {
    n: u32,
    bound1: u32,
    bound2: u32,
    side: u64,
    last: u64,
}

impl Edge {
    /// The bounds for board size `n` and row-0 column `bound1` (`1 <= bound1 < n-1-bound1`).
    pub fn new(n: u32, bound1: u32) -> Edge {
        let full = full_mask(n);
        let middle = full_mask(n - bound1) & !full_mask(bound1);
        Edge {
            n,
            bound1,
            bound2: n - 1 - bound1,
            side: 1 | 1 << (n - 1),
            last: full & !middle,
        }
    }

    /// Columns allowed in row `y` given the state `m` and its free squares `free`.
    #[inline(always)]
    pub fn allowed(&self, y: u32, m: Masks, free: u64) -> u64 {
        if y == self.n - 1 {
            free & !self.last
        } else if y < self.bound1 {
            free & !self.side
        } else if y == self.bound2 {
            let s = m.cols & self.side;
            if s == 0 {
                0
            } else if s != self.side {
                free & self.side
            } else {
                free
            }
        } else {
            free
        }
    }
}

/// Counts the classes below a `Corner` or `Edge` task; returns them with the queens placed.
pub fn count(n: u32, task: &Task) -> (Classes, u64) {
    let full = full_mask(n);
    let mut board = [0u64; 64];
    for (y, &c) in task.prefix().iter().enumerate() {
        board[y] = 1 << c;
    }
    let mut out = Classes::default();
    let mut nodes = 0;
    match task.kind {
        TaskKind::Corner { bound1 } => {
            out.c8 = corner_rec(n, full, bound1, task.row, task.masks, &mut nodes) as u128;
        }
        TaskKind::Edge { bound1 } => {
            let e = Edge::new(n, bound1);
            edge_rec(
                &e, full, task.row, task.masks, &mut board, &mut out, &mut nodes,
            );
        }
        _ => unreachable!("symmetric::count is only called for corner and edge tasks"),
    }
    (out, nodes)
}

fn corner_rec(n: u32, full: u64, bound1: u32, y: u32, m: Masks, nodes: &mut u64) -> u64 {
    if y == n {
        return 1;
    }
    let a = corner_allowed(bound1, y, m.free(full));
    *nodes += a.count_ones() as u64;
    let mut s = 0;
    for bit in Bits(a) {
        s += corner_rec(n, full, bound1, y + 1, m.place(bit, full), nodes);
    }
    s
}

fn edge_rec(
    e: &Edge,
    full: u64,
    y: u32,
    m: Masks,
    board: &mut [u64; 64],
    out: &mut Classes,
    nodes: &mut u64,
) {
    if y == e.n {
        classify(e, board, out);
        return;
    }
    let a = e.allowed(y, m, m.free(full));
    *nodes += a.count_ones() as u64;
    for bit in Bits(a) {
        board[y as usize] = bit;
        edge_rec(e, full, y + 1, m.place(bit, full), board, out, nodes);
    }
}

/// Decides whether the edge solution on `board` is its class's representative, and its class.
fn classify(e: &Edge, board: &[u64; 64], out: &mut Classes) {
    let n = e.n as usize;
    let b = e.bound1 as usize;
    // A rotation can tie only if it also puts a queen on row 0 at column b: cheap tests first.
    let tie90 = board[n - 1 - b] == 1; // the column-0 queen sits on row n-1-b
    let tie180 = board[n - 1] == 1 << (n - 1 - b);
    let tie270 = board[b] == 1 << (n - 1);
    if !(tie90 || tie180 || tie270) {
        out.c8 += 1;
        return;
    }
    let mut cols = [0usize; 64];
    let mut inv = [0usize; 64];
    for y in 0..n {
        let c = board[y].trailing_zeros() as usize;
        cols[y] = c;
        inv[c] = y;
    }
    let cmp = |f: &dyn Fn(usize) -> usize| -> Ordering {
        (0..n)
            .map(|r| f(r).cmp(&cols[r]))
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    };
    // Quarter turn clockwise: row r of the image holds column n-1-inv[r].
    if tie90 {
        match cmp(&|r| n - 1 - inv[r]) {
            Ordering::Less => return,
            Ordering::Equal => {
                out.c2 += 1;
                return;
            }
            Ordering::Greater => {}
        }
    }
    if tie180 {
        match cmp(&|r| n - 1 - cols[n - 1 - r]) {
            Ordering::Less => return,
            Ordering::Equal => {
                out.c4 += 1;
                return;
            }
            Ordering::Greater => {}
        }
    }
    if tie270 && cmp(&|r| inv[n - 1 - r]) == Ordering::Less {
        return;
    }
    out.c8 += 1;
}
