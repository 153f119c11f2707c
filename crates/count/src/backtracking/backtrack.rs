//! The backtracking method as a task counter for the engine: a [`Plan`] counted with a
//! [`Kernel`].

use super::super::engine::Counter;
use super::super::tally::Tally;
use super::kernel::{Found, Kernel};
use super::plan::Plan;
use super::rotational;
use super::task::{Task, TaskKind};
use nqueens_board::error::Result;
use nqueens_board::spec::Spec;

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

    /// The plan's tasks of ids `ids`, in order.
    pub fn tasks_of(&self, ids: &[u32]) -> Vec<Task> {
        ids.iter().map(|&i| self.plan.tasks()[i as usize]).collect()
    }

    /// Counts the given tasks of the plan, in order: the rotational task by its own search,
    /// the others with the kernel, all kernel tasks as one batch.
    pub fn count_tasks(&self, tasks: &[Task]) -> Vec<Tally> {
        let counted = self.count_tasks_with(tasks, |specs, found| {
            self.kernel.count_batch(specs, found);
            Ok(())
        });
        counted.expect("the CPU's kernels do not fail")
    }

    /// [`Backtrack::count_tasks`] with the tasks' boards counted by `batch` (which fills one
    /// [`Found`] per board) rather than by the kernel: how another counter of the same plan
    /// (the GPU's) shares the plan's tasks, weights and rotational task. `batch`'s error ends
    /// the count.
    pub fn count_tasks_with(
        &self,
        tasks: &[Task],
        batch: impl FnOnce(&[Spec], &mut [Found]) -> Result<()>,
    ) -> Result<Vec<Tally>> {
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
        batch(&specs, &mut found)?;
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
        Ok(self.count_tasks(&self.tasks_of(ids)))
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
}
