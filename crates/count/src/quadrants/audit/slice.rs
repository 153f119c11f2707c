//! Slices of a task: small, exact parts of its solutions, for audits that scale.
//!
//! A slice of a task is the solutions of one of its row sets (in the task's part of it) whose
//! west half has a given north quarter: one queen fixed on each west row of the north half.
//! A task's solutions are the sum of its slices, and a slice is small enough to be counted by
//! backtracking in seconds at every N ([`by_backtracking`]: the row set's search with those
//! queens fixed, nothing of the method's code). [`by_method`] counts the same slice through
//! the code that counts the task: the row set's east side joined whole and stored in a sieve
//! shaped as for the task, and the slice's west half-boards (that north quarter joined with
//! every fitting south one) matched against it. A fault in the join, the sieve or the matcher
//! where the slice falls makes the two differ.
//!
//! Slices are drawn at random ([`draw`]): a row set of the task, a column set of the part's
//! run for the north-west quarter, and a placement of queens on it found by a randomised
//! search of its own (not the method's quarter table).

use super::recount::RecountInputs;
use crate::quadrants::counter::Quadrants;
use crate::quadrants::plan::{QTask, RowSet};
use crate::quadrants::scratch::{with_scratch, SliceNorth};
use nqueens_board::error::{Error, Result};
use serde::Serialize;

/// A slice of a task of the quadrant method (see the module).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Slice {
    /// The task.
    pub task: u32,
    /// The row set's middle configuration (its index in the plan).
    pub middle: u16,
    /// The row set's east rows: bit `r` for row `r` (0-based) whose queen is east.
    pub east_rows: u32,
    /// The queens of the west half's north quarter, `[row, col]` 0-based on the board.
    pub north_west: Vec<[u32; 2]>,
}

/// How many column sets (and placements on each) a draw tries before it gives up (some row
/// sets have few placements).
const TRIES: usize = 16;

/// The columns of the mask `cols`, in a random order (`next` gives random numbers).
fn shuffled(cols: u32, next: &mut dyn FnMut() -> u64) -> Vec<u32> {
    let mut v: Vec<u32> = (0..32).filter(|c| cols >> c & 1 == 1).collect();
    for i in (1..v.len()).rev() {
        v.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    v
}

/// The queens on the rows `rows` (ascending) of the north-west quarter on exactly the columns
/// `cols` that attack neither each other nor the middle queens' diagonals (`d1`, `d2`,
/// global), each row's columns tried in a random order: the first found, or none. Rows and
/// columns of the north-west quarter are the board's.
fn place(
    n: u32,
    rows: &[u32],
    cols: u32,
    [d1, d2]: [u64; 2],
    next: &mut dyn FnMut() -> u64,
) -> Option<Vec<[u32; 2]>> {
    let Some((&r, rest)) = rows.split_first() else {
        return (cols == 0).then(Vec::new);
    };
    for c in shuffled(cols, next) {
        let (a, b) = (1u64 << (r + c), 1u64 << (r + n - 1 - c));
        if d1 & a != 0 || d2 & b != 0 {
            continue;
        }
        if let Some(mut p) = place(n, rest, cols & !(1 << c), [d1 | a, d2 | b], next) {
            p.insert(0, [r, c]);
            return Some(p);
        }
    }
    None
}

/// The row sets of task `task` and its part, if it is a task of row sets.
fn rowsets(q: &Quadrants, task: u32) -> Option<(Vec<RowSet>, crate::quadrants::plan::Part)> {
    match q.layout().task(task.into()) {
        QTask::Rows {
            middle,
            start,
            len,
            part,
        } => Some((q.layout().rowsets(middle, start, len).collect(), part)),
        QTask::Rotational => None,
    }
}

/// The west rows of row set `r`'s north half, ascending.
fn north_west_rows(q: &Quadrants, r: &RowSet) -> Vec<u32> {
    let g = q.layout().geometry;
    let west = q.layout().middles[r.middle as usize].rows & !r.east;
    (0..g.h).filter(|&row| west >> row & 1 == 1).collect()
}

/// A slice of task `task` drawn at random (`next` gives random numbers): a row set of the
/// task, a column set of its part's run for the north-west quarter, and a placement on it;
/// `None` for a task without row sets (the rotational one, or one whose combinations symmetry
/// drops), or when the draws find no placement.
pub fn draw(q: &Quadrants, task: u32, next: &mut dyn FnMut() -> u64) -> Option<Slice> {
    let (sets, part) = rowsets(q, task)?;
    let r = *sets.get((next() % sets.len().max(1) as u64) as usize)?;
    let mid = &q.layout().middles[r.middle as usize];
    let rows = north_west_rows(q, &r);
    let columns = q.column_sets().get(mid.west, rows.len() as u32);
    let run = part.range(columns.len());
    if run.is_empty() {
        return None;
    }
    let n = q.layout().geometry.n;
    (0..TRIES).find_map(|_| {
        let cols = columns[run.start + (next() % run.len() as u64) as usize];
        place(n, &rows, cols, [mid.d1, mid.d2], next).map(|north_west| Slice {
            task,
            middle: r.middle,
            east_rows: r.east,
            north_west,
        })
    })
}

/// The row set and column set of `s`, checked against the plan `q`.
fn resolve(q: &Quadrants, s: &Slice) -> Result<(RowSet, crate::quadrants::plan::Part, u32)> {
    let bad = |what: &str| Error::Input(format!("slice of task {}: {what}", s.task));
    let (sets, part) = rowsets(q, s.task).ok_or_else(|| bad("the task has no row sets"))?;
    let r = *sets
        .iter()
        .find(|r| (r.middle, r.east) == (s.middle, s.east_rows))
        .ok_or_else(|| bad("the row set is not one of the task's"))?;
    let cols = s.north_west.iter().fold(0u32, |m, &[_, c]| m | 1 << c);
    let rows: Vec<u32> = s.north_west.iter().map(|&[r, _]| r).collect();
    if rows != north_west_rows(q, &r) {
        return Err(bad("its queens are not one on each north-west row"));
    }
    Ok((r, part, cols))
}

/// The slice's solutions, weighted as its task counts them, counted by the method through the
/// code that counts the task (see the module).
pub fn by_method(q: &Quadrants, s: &Slice) -> Result<u128> {
    let (r, part, cols) = resolve(q, s)?;
    let mid = &q.layout().middles[r.middle as usize];
    let columns = q.column_sets().get(mid.west, s.north_west.len() as u32);
    let at = columns
        .iter()
        .position(|&c| c == cols)
        .filter(|at| part.range(columns.len()).contains(at))
        .ok_or_else(|| Error::Input(format!("slice of task {}: not in its part", s.task)))?;
    let h = q.layout().geometry.h;
    let north = s.north_west.iter().fold([0u32; 2], |[d1, d2], &[r, c]| {
        [d1 | 1 << (r + c), d2 | 1 << (r + h - 1 - c)]
    });
    let rowsets = q.rowsets();
    Ok(with_scratch(|sc| {
        rowsets.count_slice(&r, part, SliceNorth { at, north }, sc)
    }))
}

/// The slice's solutions, weighted as its task counts them, counted by backtracking (the row
/// set's search with the slice's queens fixed: nothing of the method's counting).
pub fn by_backtracking(q: &Quadrants, s: &Slice) -> Result<u128> {
    let (r, _, _) = resolve(q, s)?;
    let recount = RecountInputs {
        layout: q.layout(),
        column_sets: q.column_sets(),
    };
    let fixed: Vec<(u32, u32)> = s.north_west.iter().map(|&[r, c]| (r, c)).collect();
    Ok(recount.slice(&r, &fixed) * r.weight as u128)
}

/// Every slice of task `task`: every placement on every column set of its part's run, for
/// every row set of it (the tests' exhaustive check).
#[cfg(test)]
pub fn every(q: &Quadrants, task: u32) -> Vec<Slice> {
    let Some((sets, part)) = rowsets(q, task) else {
        return Vec::new();
    };
    let n = q.layout().geometry.n;
    let mut out = Vec::new();
    for r in sets {
        let mid = &q.layout().middles[r.middle as usize];
        let rows = north_west_rows(q, &r);
        let columns = q.column_sets().get(mid.west, rows.len() as u32);
        for &cols in &columns[part.range(columns.len())] {
            // Each placement once: every column order of the first row, then the rest.
            let mut all = Vec::new();
            every_placement(n, &rows, cols, [mid.d1, mid.d2], &mut Vec::new(), &mut all);
            out.extend(all.into_iter().map(|north_west| Slice {
                task,
                middle: r.middle,
                east_rows: r.east,
                north_west,
            }));
        }
    }
    out
}

/// Every placement [`place`] could find, into `all`.
#[cfg(test)]
fn every_placement(
    n: u32,
    rows: &[u32],
    cols: u32,
    [d1, d2]: [u64; 2],
    at: &mut Vec<[u32; 2]>,
    all: &mut Vec<Vec<[u32; 2]>>,
) {
    let Some((&r, rest)) = rows.split_first() else {
        if cols == 0 {
            all.push(at.clone());
        }
        return;
    };
    for c in (0..32).filter(|c| cols >> c & 1 == 1) {
        let (a, b) = (1u64 << (r + c), 1u64 << (r + n - 1 - c));
        if d1 & a == 0 && d2 & b == 0 {
            at.push([r, c]);
            every_placement(n, rest, cols & !(1 << c), [d1 | a, d2 | b], at, all);
            at.pop();
        }
    }
}
