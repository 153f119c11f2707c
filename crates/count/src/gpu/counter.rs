//! The GPU as a counter of its own: the backtracking plan's tasks counted on a GPU, beside the
//! CPU's counter of the same plan ([`Backtrack`]). It shares that plan's tasks, their weights,
//! estimates and rotational task, and sends the tasks' boards to a [`Device`] in large batches
//! (each call pays for a launch). A device that fails ends the count with its error.

use super::launch::GpuSearch;
use crate::backtracking::backtrack::Backtrack;
use crate::backtracking::kernel::Found;
use crate::engine::Counter;
use crate::tally::Tally;
use nqueens_board::error::Result;
use nqueens_board::spec::Spec;

/// How many free rows of a task the host places before its subtrees go to the GPU.
pub const HOST_ROWS: usize = 4;

/// The most tasks a batch for the GPU takes ([`Counter::batch`]): with [`HOST_ROWS`] rows
/// placed on the host, about 10^5 to 10^6 subtrees at N = 18 to 21, a GPU thread each (an
/// H100 runs about 2.7 × 10^5 threads at once).
pub const GPU_BATCH: usize = 256;

/// What counts the boards of a batch: the GPU the backend opened, or, in the tests, the
/// kernel compiled for this CPU or a device that fails.
pub trait Device: Send + Sync {
    /// Counts the completions of each board of `specs` into `found` (same length), each
    /// expanded to `depth` rows on the host, by `search`.
    fn count(&self, specs: &[Spec], depth: usize, search: GpuSearch) -> Result<Vec<Found>>;
}

/// The tasks of a backtracking plan counted on a [`Device`] by its first search.
pub struct GpuCounter {
    plan: Backtrack,
    device: Box<dyn Device>,
}

impl GpuCounter {
    /// Counts `plan`'s tasks on `device` (the plan's kernel still makes its estimates).
    pub fn new(plan: Backtrack, device: Box<dyn Device>) -> GpuCounter {
        GpuCounter { plan, device }
    }
}

impl Counter for GpuCounter {
    fn tasks(&self) -> usize {
        self.plan.tasks()
    }

    fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
        self.plan
            .count_tasks_with(&self.plan.tasks_of(ids), |specs, out| {
                let found = self.device.count(specs, HOST_ROWS, GpuSearch::Local)?;
                out.copy_from_slice(&found);
                Ok(())
            })
    }

    fn estimates(&self) -> Vec<u64> {
        self.plan.estimates()
    }

    fn planned(&self) -> Tally {
        self.plan.planned()
    }

    /// Each call is a launch: batches of up to [`GPU_BATCH`] tasks.
    fn batch(&self) -> Option<usize> {
        Some(GPU_BATCH)
    }
}
