//! Whether a task's work is worth spreading over the pool it runs on: only where some of the
//! pool's workers are free, or will be. The engine's runners say how far their run's tasks
//! are taken ([`Run`]); a method asks [`spare_workers`] before handing parts of a task to the
//! pool, so that a whole count, whose workers all have tasks of their own, pays nothing for
//! the splitting, and its last tasks, and a shard of fewer tasks than workers, get every core.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// How far a run's tasks are taken: the next to take, of how many.
#[derive(Debug)]
pub struct Run {
    next: AtomicUsize,
    tasks: usize,
}

impl Run {
    /// A run of `tasks` tasks, none taken.
    pub fn new(tasks: usize) -> Run {
        Run {
            next: AtomicUsize::new(0),
            tasks,
        }
    }

    /// Takes the next `batch` tasks: the range of their positions, or `None` when every task
    /// is taken.
    pub fn take(&self, batch: usize) -> Option<std::ops::Range<usize>> {
        let at = self.next.fetch_add(batch, Ordering::Relaxed);
        (at < self.tasks).then(|| at..(at + batch).min(self.tasks))
    }

    /// Whether every task is taken (a worker that asks for more finds none).
    fn taken(&self) -> bool {
        self.next.load(Ordering::Relaxed) >= self.tasks
    }
}

thread_local! {
    /// The run this worker is a runner of, while it is one.
    static RUN: RefCell<Option<Arc<Run>>> = const { RefCell::new(None) };
}

/// Runs `f` as a runner of `run` on this thread: [`spare_workers`] then answers for it.
pub fn as_runner<T>(run: &Arc<Run>, f: impl FnOnce() -> T) -> T {
    let before = RUN.with(|r| r.replace(Some(Arc::clone(run))));
    let out = f();
    RUN.with(|r| *r.borrow_mut() = before);
    out
}

/// Whether a method counting on this thread should spread its work over the pool: on a pool
/// of several threads, unless this thread is a runner of a run that still has tasks to take
/// (then every worker has, or will take, a task of its own). A count outside the engine (a
/// task alone, as `estimate` counts its draws) always spreads.
pub fn spare_workers() -> bool {
    rayon::current_num_threads() > 1
        && RUN.with(|r| r.borrow().as_ref().is_none_or(|run| run.taken()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A runner's tasks are spread only once every task of its run is taken; a count outside
    /// any run spreads on a pool of several threads, never on one.
    #[test]
    fn a_runner_spreads_only_once_every_task_is_taken() {
        let pool = |t| crate::engine::pool(t).unwrap();
        pool(2).install(|| {
            assert!(spare_workers(), "a task alone spreads");
            let run = Arc::new(Run::new(3));
            as_runner(&run, || {
                assert_eq!(run.take(2), Some(0..2));
                assert!(!spare_workers(), "a task is left for another worker");
                assert_eq!(run.take(2), Some(2..3));
                assert!(spare_workers(), "every task is taken");
                assert_eq!(run.take(2), None);
            });
            assert!(spare_workers(), "no longer a runner");
        });
        pool(1).install(|| assert!(!spare_workers(), "one thread"));
    }
}
