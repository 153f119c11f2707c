//! What a count found, and how: the library's [`Totals`], and their check against the known
//! OEIS values.

use super::algorithm::Algorithm;
use super::backend::Backend;
use super::memory;
use super::oeis::{self, Sequence};
use super::plan_id::PlanId;
use super::tally::Tally;
use nqueens_board::error::Result;
use std::time::Duration;

/// What a count found, and how.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Totals {
    /// Board size.
    pub n: u32,
    /// Queens placed before the search, `(row, col)` 0-based (empty for a full count).
    pub placed: Vec<(usize, usize)>,
    /// How symmetry was used.
    pub algorithm: Algorithm,
    /// What counted the backtracking methods' tasks (a CPU kernel, or the GPU).
    pub kernel: Backend,
    /// Worker threads.
    pub threads: usize,
    /// Rows expanded into tasks.
    pub split_depth: u32,
    /// Tasks in the plan.
    pub tasks: usize,
    /// All solutions (A000170(n) for a full count), or the completions of the placed queens.
    pub total: u128,
    /// Solutions up to rotation and reflection (A002562(n)); `symmetric` only.
    pub unique: Option<u128>,
    /// Solutions that a quarter turn leaves as they are; `symmetric` only.
    pub sym90: Option<u128>,
    /// Solutions that a half turn leaves as they are (the quarter-turn ones included);
    /// `symmetric` only.
    pub sym180: Option<u128>,
    /// Queens placed by the whole search.
    pub nodes: u128,
    /// Wall time of this run's search (planning excluded).
    pub elapsed: Duration,
    /// Tasks taken from a checkpoint instead of being counted by this run.
    pub resumed_tasks: usize,
    /// The memory the plan was estimated to need before it ran (quadrant method), in bytes.
    pub memory_estimate: Option<u64>,
    /// The peak resident memory of the process at the end of the run, in bytes (where the
    /// system says).
    pub peak_memory: Option<u64>,
    /// Nodes of those tasks (not visited by this run).
    pub resumed_nodes: u128,
}

impl Totals {
    /// The totals of the plan `id` of `tasks` tasks, counted with `kernel` on `threads`
    /// workers in `elapsed`, whose tallies (planner nodes included) sum to `tally`.
    pub fn of(
        id: &PlanId,
        tasks: usize,
        kernel: Backend,
        threads: usize,
        tally: Tally,
        elapsed: Duration,
    ) -> Totals {
        let classes = tally.classes;
        Totals {
            n: id.n,
            placed: id.placed.iter().map(|q| (q[0] - 1, q[1] - 1)).collect(),
            algorithm: id.algorithm,
            kernel,
            threads,
            split_depth: id.split_depth,
            tasks,
            total: tally.total,
            unique: tally.unique(),
            sym90: classes.map(|c| c.sym90 + c.c1),
            sym180: classes.map(|c| c.sym180 + c.c1),
            nodes: tally.nodes,
            elapsed,
            resumed_tasks: 0,
            resumed_nodes: 0,
            memory_estimate: None,
            peak_memory: memory::peak(),
        }
    }

    /// Compares the counts with the known OEIS values (only a full count has them): a
    /// disagreement is [`Mismatch`](nqueens_board::Error::Mismatch).
    pub fn cross_check(&self) -> Result<()> {
        if !self.placed.is_empty() {
            return Ok(());
        }
        oeis::compare(Sequence::A000170, self.n, self.total)?;
        match self.unique {
            Some(u) => oeis::compare(Sequence::A002562, self.n, u),
            None => Ok(()),
        }
    }

    /// Nodes per second of this run (the resumed tasks' nodes were visited earlier).
    pub fn nodes_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.nodes - self.resumed_nodes) as f64 / s
        } else {
            0.0
        }
    }
}
