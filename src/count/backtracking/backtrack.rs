//! The backtracking method as a task counter for the engine: a [`Plan`] counted with a
//! [`Kernel`].

use super::super::engine::Counter;
use super::super::tally::Tally;
use super::kernel::{Found, Kernel};
use super::plan::Plan;
use super::rotational;
use super::task::{Task, TaskKind};
use crate::error::Result;

/// Free rows searched to estimate a task's work.
pub const ESTIMATE_ROWS: usize = 3;

/// A plan of the backtracking method and the kernel that counts its tasks.
#[derive(Debug, Clone)]
pub struct Backtrack {
    plan: Plan,
    kernel: Kernel,
}

impl Backtrack {
    /// Counts `plan`'s tasks with `kernel`.
    pub fn new(plan: Plan, kernel: Kernel) -> Backtrack {
        Backtrack { plan, kernel }
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The kernel.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Counts the given tasks of the plan, in order: the rotational task by its own search,
    /// the others with the kernel, all kernel tasks as one batch. Fails only where the
    /// kernel's device does ([`Kernel::try_count_batch`]).
    pub fn count_tasks(&self, tasks: &[Task]) -> Result<Vec<Tally>> {
        let n = self.plan.n();
        let mut out = vec![Tally::default(); tasks.len()];
        let mut specs = Vec::with_capacity(tasks.len());
        let mut at = Vec::with_capacity(tasks.len());
        for (i, t) in tasks.iter().enumerate() {
            if t.kind() == TaskKind::Rotational {
                out[i] = rotational::tally(n);
            } else {
                specs.push(t.spec(n, self.plan.placed()));
                at.push(i);
            }
        }
        let mut found = vec![Found::default(); specs.len()];
        self.kernel.try_count_batch(&specs, &mut found)?;
        for (&i, f) in at.iter().zip(found) {
            out[i] = tasks[i].weigh(f);
        }
        Ok(out)
    }
}

impl Counter for Backtrack {
    fn tasks(&self) -> usize {
        self.plan.tasks().len()
    }

    fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
        let tasks: Vec<Task> = ids.iter().map(|&i| self.plan.tasks()[i as usize]).collect();
        self.count_tasks(&tasks)
    }

    /// The nodes in each task's first [`ESTIMATE_ROWS`] free rows (counted exactly, below the
    /// task's fixed queens and bounds), at least 1.
    fn estimates(&self) -> Vec<u64> {
        use rayon::prelude::*;
        let (n, placed) = (self.plan.n(), self.plan.placed());
        self.plan
            .tasks()
            .par_iter()
            .map(|t| {
                let spec = t.spec(n, placed).first_rows(ESTIMATE_ROWS);
                Kernel::Fast.count(&spec).nodes.max(1)
            })
            .collect()
    }

    fn planned(&self) -> Tally {
        Tally {
            nodes: self.plan.prefix_nodes() as u128,
            ..Tally::default()
        }
    }

    /// On the GPU a call is a launch ([`Kernel::launch_size`]).
    fn launch(&self) -> Option<usize> {
        self.kernel.launch_size()
    }
}
