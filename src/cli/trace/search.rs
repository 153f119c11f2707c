//! The search a trace shows, as every way of showing it needs it: the board, the queens
//! placed first, the step limit and the numbering, and the steps themselves.

use super::args::TraceArgs;
use nqueens::solve::trace::{trace_from, Event};
use nqueens::Error;
use std::ops::ControlFlow;

/// The search a trace shows, as every way of showing it needs it.
pub(super) struct TracedSearch {
    /// The board size.
    pub(super) n: u32,
    /// The queens placed before the search (0-based), sorted by row.
    pub(super) placed: Vec<(usize, usize)>,
    /// Whether the search goes on past the first solution.
    pub(super) all: bool,
    /// The most steps shown (`u64::MAX`: no limit).
    pub(super) limit: u64,
    /// What `--max-steps` said, for messages.
    pub(super) max_steps: u64,
    /// What rows and columns count from in what is shown: 1, or 0 with `--zero-based`.
    pub(super) off: usize,
    /// The first row the search fills: where a block ends the search.
    pub(super) first_row: usize,
}

impl TracedSearch {
    /// The search `a` asks for, its placed queens checked.
    pub(super) fn of(a: &TraceArgs) -> Result<TracedSearch, Error> {
        let placed = a.place.queens(a.n as usize, Some(a.zero_based))?;
        let first_row = (0..a.n as usize)
            .find(|r| !placed.iter().any(|q| q.0 == *r))
            .unwrap_or(0);
        Ok(TracedSearch {
            n: a.n,
            placed,
            all: a.all,
            limit: if a.max_steps == 0 {
                u64::MAX
            } else {
                a.max_steps
            },
            max_steps: a.max_steps,
            off: usize::from(!a.zero_based),
            first_row,
        })
    }

    /// Runs the search, calling `step` with each step's number (from 1), the event and the
    /// board after it, up to the step limit or until `step` breaks. Returns the steps taken
    /// and whether the search ran to its end.
    pub(super) fn run(
        &self,
        mut step: impl FnMut(u64, &Event, &[Option<usize>]) -> ControlFlow<()>,
    ) -> anyhow::Result<(u64, bool)> {
        let mut k = 0u64;
        let ended = trace_from(self.n, &self.placed, self.all, |e, board| {
            k += 1;
            step(k, e, board)?;
            if k >= self.limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        Ok(ended)
    }

    /// What a trace stopped by its step limit after `steps` steps says.
    pub(super) fn stopped(&self, steps: u64) -> String {
        format!(
            "stopped after {steps} steps (--max-steps {}; 0 means no limit)",
            self.max_steps
        )
    }
}
