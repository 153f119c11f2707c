//! Running a plan: tasks on a rayon pool, per-task tallies summed in `u128`.

use crate::error::{Error, Result};
use crate::kernel::{Kernel, Tally};
use crate::plan::Plan;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// What a whole run found.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The sum over all tasks, plus the planner's own nodes.
    pub tally: Tally,
    /// Worker threads used.
    pub threads: usize,
    /// The kernel that counted the tasks.
    pub kernel: Kernel,
    /// Wall time of the run (planning excluded).
    pub elapsed: Duration,
}

/// The thread count used when none is given: every logical CPU.
pub fn default_threads() -> usize {
    num_cpus::get().max(1)
}

/// Builds a rayon pool of exactly `threads` workers.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    if threads == 0 {
        return Err(Error::Threads);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("nqueens-{i}"))
        .build()
        .map_err(|e| Error::Pool(e.to_string()))
}

/// How many tasks a worker takes at once: enough for the `lanes` kernel to keep its lanes
/// busy, few enough that every thread gets at least 8 batches (up to 16 tasks per batch).
pub fn batch_size(plan: &Plan, threads: usize) -> usize {
    (plan.tasks.len() / (8 * threads.max(1))).clamp(1, 16)
}

/// Counts every task of `plan` on `threads` workers with `kernel`.
pub fn run(plan: &Plan, threads: usize, kernel: Kernel) -> Result<Outcome> {
    let pool = pool(threads)?;
    let start = Instant::now();
    let mut tally = pool.install(|| {
        plan.tasks
            .par_chunks(batch_size(plan, threads))
            .with_max_len(1)
            .map(|chunk| {
                let mut sum = Tally::default();
                for t in plan.count_tasks(chunk, kernel) {
                    sum += t;
                }
                sum
            })
            .reduce(Tally::default, |mut a, b| {
                a += b;
                a
            })
    });
    let elapsed = start.elapsed();
    tally.nodes += plan.prefix_nodes as u128;
    Ok(Outcome {
        tally,
        threads,
        kernel,
        elapsed,
    })
}

/// Counts an `n` board with the given algorithm on `threads` workers, with the default split
/// and the `wide` kernel.
pub fn count(n: u32, algorithm: crate::plan::Algorithm, threads: usize) -> Result<Outcome> {
    let depth = Plan::default_split_depth(n, algorithm, threads);
    run(&Plan::new(n, algorithm, depth)?, threads, Kernel::Wide)
}
