//! The backtracking search made visible, for teaching: every step of the row-by-row search
//! ([`trace`]) and the size of each level of its tree ([`tree`]).
//!
//! The search fills rows top to bottom and tries columns left to right; a queen is taken
//! back when the row below it has no free square left.

use nqueens_board::check::placements;
use nqueens_board::error::Result;
use nqueens_board::masks::{check_n, full_mask, Masks};
use nqueens_board::spec::Spec;
use rayon::prelude::*;
use serde::Serialize;
use std::ops::ControlFlow;

/// One step of the search. Rows and columns are 0-based.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A queen goes on (`row`, `col`).
    Place {
        /// The row.
        row: usize,
        /// The column.
        col: usize,
    },
    /// `row` has no free square: none at all (`tried` false) or none left untried.
    Blocked {
        /// The row.
        row: usize,
        /// Whether some of its squares were tried before.
        tried: bool,
    },
    /// The queen on (`row`, `col`) is taken back.
    Remove {
        /// The row.
        row: usize,
        /// The column.
        col: usize,
    },
    /// Every row holds a queen: solution number `number` (from 1).
    Solution {
        /// Which solution this is, counting from 1.
        number: u64,
        /// The solution's columns.
        cols: Vec<usize>,
    },
}

/// Runs the search on an `n` board (1..=64) and calls `step` with each event and the board
/// after it (`board[row]` is the row's queen, if any). The search ends after the first
/// solution (or, with `all`, when the tree is exhausted), or when `step` breaks. Returns the
/// number of steps taken and whether the search ran to its end.
pub fn trace(
    n: u32,
    all: bool,
    step: impl FnMut(&Event, &[Option<usize>]) -> ControlFlow<()>,
) -> Result<(u64, bool)> {
    trace_from(n, &[], all, step)
}

/// [`trace`] with queens placed before the search (`(row, col)`, 0-based, none attacking
/// another): they stay on the board, every board `step` sees holds them, and the search
/// fills the other rows top to bottom around them.
pub fn trace_from(
    n: u32,
    placed: &[(usize, usize)],
    all: bool,
    mut step: impl FnMut(&Event, &[Option<usize>]) -> ControlFlow<()>,
) -> Result<(u64, bool)> {
    check_n(n as i64)?;
    let placed = placements(n as usize, placed)?;
    let fixed: Vec<(u8, u8)> = placed.iter().map(|&(r, c)| (r as u8, c as u8)).collect();
    let mut board = vec![None; n as usize];
    for &(r, c) in &placed {
        board[r] = Some(c);
    }
    let mut t = Tracer {
        spec: Spec::new(n, &fixed),
        all,
        board,
        steps: 0,
        solutions: 0,
        step: &mut step,
    };
    let flow = if t.spec.k == 0 {
        // Every row holds a placed queen: the board is the one solution.
        t.solution()
    } else {
        t.rec(0, Attacks::default())
    };
    let finished = match flow {
        ControlFlow::Continue(()) => true,
        // Breaking after the first solution is the end of the search asked for.
        ControlFlow::Break(stopped) => !stopped,
    };
    Ok((t.steps, finished))
}

type Step<'a> = &'a mut dyn FnMut(&Event, &[Option<usize>]) -> ControlFlow<()>;

/// The squares the search's queens attack in the row being filled: its columns, and its two
/// diagonals shifted down to that row.
#[derive(Debug, Clone, Copy, Default)]
struct Attacks {
    cols: u64,
    left: u64,
    right: u64,
}

struct Tracer<'a> {
    /// The rows the search fills (those without a placed queen) and what the placed queens
    /// forbid in each.
    spec: Spec,
    all: bool,
    board: Vec<Option<usize>>,
    steps: u64,
    solutions: u64,
    step: Step<'a>,
}

impl Tracer<'_> {
    /// `Break(true)`: stopped by the caller; `Break(false)`: the first solution was found.
    fn emit(&mut self, e: Event) -> ControlFlow<bool> {
        self.steps += 1;
        match (self.step)(&e, &self.board) {
            ControlFlow::Continue(()) => ControlFlow::Continue(()),
            ControlFlow::Break(()) => ControlFlow::Break(true),
        }
    }

    /// Reports the full board as the next solution.
    fn solution(&mut self) -> ControlFlow<bool> {
        self.solutions += 1;
        let cols = self.board.iter().map(|c| c.unwrap_or(0)).collect();
        let number = self.solutions;
        self.emit(Event::Solution { number, cols })?;
        if self.all {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(false)
        }
    }

    /// Fills the search's `i`-th row and those below it, `m` attacked there.
    fn rec(&mut self, i: usize, m: Attacks) -> ControlFlow<bool> {
        let s = &self.spec;
        let row = s.rows[i] as usize;
        let mut free = s.full & !(m.cols | m.left | m.right | s.forbid[i]);
        if free == 0 {
            return self.emit(Event::Blocked { row, tried: false });
        }
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let col = bit.trailing_zeros() as usize;
            self.board[row] = Some(col);
            self.emit(Event::Place { row, col })?;
            if i + 1 == self.spec.k {
                self.solution()?;
            } else {
                let gap = self.spec.gap[i];
                let below = Attacks {
                    cols: m.cols | bit,
                    left: ((m.left | bit) << gap) & self.spec.full,
                    right: (m.right | bit) >> gap,
                };
                self.rec(i + 1, below)?;
            }
            self.board[row] = None;
            self.emit(Event::Remove { row, col })?;
        }
        self.emit(Event::Blocked { row, tried: true })
    }
}

/// The number of nodes on each level of the backtracking tree of an `n` board: `levels[k]` is
/// the number of ways to place non-attacking queens in the first `k` rows (OEIS A319284's row
/// `n`; `levels[0] = 1` is the root, `levels[n]` is A000170(n)). Counted in parallel over the
/// first two rows, with the left-right mirror halving row 0.
pub fn tree(n: u32) -> Result<Vec<u128>> {
    check_n(n as i64)?;
    let nn = n as usize;
    let full = full_mask(n);
    let mut starts = Vec::new();
    for c in 0..n.div_ceil(2) {
        let weight: u128 = if 2 * c + 1 == n { 1 } else { 2 };
        let m = Masks::EMPTY.place(1 << c, full);
        starts.push((weight, 1usize, m, true));
        if nn > 1 {
            let mut f = m.free(full);
            while f != 0 {
                let bit = f & f.wrapping_neg();
                f ^= bit;
                starts.push((weight, 2, m.place(bit, full), false));
            }
        }
    }
    let sum = starts
        .par_iter()
        .with_max_len(1)
        .map(|&(w, row, m, seed)| {
            let mut levels = vec![0u64; nn + 1];
            if seed {
                // The row-0 queen is counted here; its subtree from the row-1 tasks.
                levels[1] = 1;
                if nn > 1 {
                    levels[2] = m.free(full).count_ones() as u64;
                }
            } else {
                levels_below(row, nn, m, full, &mut levels);
            }
            levels.iter().map(|&x| x as u128 * w).collect::<Vec<u128>>()
        })
        .reduce(
            || vec![0u128; nn + 1],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    let mut levels = sum;
    levels[0] = 1;
    Ok(levels)
}

fn levels_below(row: usize, n: usize, m: Masks, full: u64, levels: &mut [u64]) {
    if row == n {
        return;
    }
    let mut free = m.free(full);
    levels[row + 1] += free.count_ones() as u64;
    if row + 1 == n {
        return;
    }
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        levels_below(row + 1, n, m.place(bit, full), full, levels);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_of_8_is_a319284_row_8() {
        let l = tree(8).unwrap();
        assert_eq!(l, vec![1, 8, 42, 140, 344, 568, 550, 312, 92]);
        assert_eq!(l.iter().sum::<u128>(), 2057);
        assert_eq!(tree(1).unwrap(), vec![1, 1]);
        assert!(tree(65).is_err());
        assert_eq!(tree(3).unwrap(), vec![1, 3, 2, 0]);
    }

    #[test]
    fn trace_ends_with_the_first_solution() {
        let mut events = Vec::new();
        let (steps, finished) = trace(4, false, |e, _| {
            events.push(e.clone());
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(finished);
        assert_eq!(steps as usize, events.len());
        assert_eq!(events[0], Event::Place { row: 0, col: 0 });
        assert_eq!(
            events.last(),
            Some(&Event::Solution {
                number: 1,
                cols: vec![1, 3, 0, 2]
            })
        );
        // Every placement is balanced by a removal (or is on the board at the end).
        let places = events
            .iter()
            .filter(|e| matches!(e, Event::Place { .. }))
            .count();
        let removes = events
            .iter()
            .filter(|e| matches!(e, Event::Remove { .. }))
            .count();
        assert_eq!(places - removes, 4);
    }

    #[test]
    fn trace_all_finds_every_solution_and_stops_when_asked() {
        let mut sols = 0;
        let mut places = 0u128;
        let (_, finished) = trace(6, true, |e, _| {
            match e {
                Event::Solution { .. } => sols += 1,
                Event::Place { .. } => places += 1,
                _ => {}
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(finished);
        assert_eq!(sols, 4);
        assert_eq!(places, tree(6).unwrap().iter().sum::<u128>() - 1);
        let (steps, finished) = trace(8, true, |_, _| ControlFlow::Break(())).unwrap();
        assert_eq!((steps, finished), (1, false));
    }

    /// With queens placed first, every board the search shows holds them, the search never
    /// places or removes one of them, and it finds the same solutions, in the same order, as
    /// the enumeration of completions.
    #[test]
    fn a_trace_from_placed_queens_keeps_them_and_finds_their_completions() {
        let placed = [(2, 0), (5, 4)];
        let mut found = Vec::new();
        let (_, finished) = trace_from(8, &placed, true, |e, board| {
            for &(r, c) in &placed {
                assert_eq!(board[r], Some(c));
                if let Event::Place { row, .. } | Event::Remove { row, .. } = e {
                    assert_ne!(*row, r);
                }
            }
            if let Event::Solution { cols, .. } = e {
                found.push(cols.clone());
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(finished);
        let expected: Vec<Vec<usize>> = crate::enumerate::Solutions::with_fixed(8, &placed)
            .unwrap()
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(found, expected);
        // Every row placed: the board itself is the one step, a solution.
        let full = [(0, 1), (1, 3), (2, 0), (3, 2)];
        let mut events = Vec::new();
        trace_from(4, &full, true, |e, _| {
            events.push(e.clone());
            ControlFlow::Continue(())
        })
        .unwrap();
        let one = Event::Solution {
            number: 1,
            cols: vec![1, 3, 0, 2],
        };
        assert_eq!(events, vec![one]);
        // Queens that attack each other are refused.
        assert!(trace_from(
            8,
            &[(0, 0), (1, 1)],
            false,
            |_, _| ControlFlow::Continue(())
        )
        .is_err());
    }
}
