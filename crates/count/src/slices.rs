//! Slices of a quadrant plan's tasks, for an audit: a slice is one row set of a task with one
//! placement of its north-west quarter fixed, small enough to count exactly both by
//! backtracking and by the method's own join, sieve and matcher. A [`Job`](crate::Job) of the
//! quadrant method hands them out ([`Job::slices`](crate::Job::slices)); nothing outside this
//! crate reaches the method itself.

use crate::memory;
use crate::options::Options;
use crate::quadrants::audit::slice;
use crate::quadrants::Quadrants;
use nqueens_board::error::Result;
use std::sync::Arc;

pub use crate::quadrants::audit::slice::Slice;

/// The slices of one quadrant plan, drawn and counted both ways.
#[derive(Clone)]
pub struct Slices {
    plan: Arc<Quadrants>,
}

impl Slices {
    pub(crate) fn of(plan: Arc<Quadrants>) -> Slices {
        Slices { plan }
    }

    /// The slices of the quadrant plan of an `n` board as `opts` make it (their quadrant
    /// settings, memory limit and threads), without a file: what `audit --plan` draws from.
    pub fn of_plan(n: u32, opts: &Options) -> Result<Slices> {
        let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
        let q = Quadrants::within(n, opts.resolved_threads(), limit, &opts.quadrants)?;
        Ok(Slices::of(Arc::new(q)))
    }

    /// A slice of task `task` drawn at random (`next` gives the random numbers); `None` for a
    /// task without row sets (the rotational one, or one whose combinations symmetry drops),
    /// or when the draws find no placement.
    pub fn draw(&self, task: u32, next: &mut dyn FnMut() -> u64) -> Option<Slice> {
        slice::draw(&self.plan, task, next)
    }

    /// The slice's solutions, weighted as its task counts them, found by backtracking with the
    /// slice's queens fixed (nothing of the method's counting is used).
    pub fn by_backtracking(&self, s: &Slice) -> Result<u128> {
        slice::by_backtracking(&self.plan, s)
    }

    /// The slice's solutions counted by the method, through the code that counts its task, on
    /// the pool the caller runs in (its threads share a large slice's sieve, as a task's), or
    /// on the caller's thread alone outside a pool: many slices are counted in one
    /// [`rayon::ThreadPool::install`] of the engine's pool, which wakes it once for them all.
    pub fn by_method(&self, s: &Slice) -> Result<u128> {
        slice::by_method(&self.plan, s)
    }

    /// How many tasks the plan has.
    pub fn tasks(&self) -> usize {
        crate::engine::Counter::tasks(self.plan.as_ref())
    }
}
