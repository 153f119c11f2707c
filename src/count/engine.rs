//! The one executor: every count (whole, checkpointed, sharded, in `bench` or `table`) runs
//! its tasks here.
//!
//! A counting method is a plan builder plus a task counter ([`Counter`]): the engine runs any
//! plan of independent tasks with stable ids on a rayon pool of exactly `threads` workers. The
//! workers send each finished task to the calling thread, which sums the tallies in `u128` and
//! streams each task to the [`Observer`]s (progress, checkpoint) as it arrives. When the cancel
//! flag is raised the engine takes what has already arrived and returns at once: tasks in
//! flight finish in the background and are discarded.

use super::spread::{as_runner, Run};
use super::tally::Tally;
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// A counting method's task counter: the tasks of one plan, each counted on its own.
pub trait Counter: Send + Sync {
    /// How many tasks the plan has (ids `0..tasks()`).
    fn tasks(&self) -> usize;

    /// Counts the tasks `ids` (in order; several at once where the method gains from it).
    /// Called on a worker of the run's rayon pool: a method may spread a task's work over
    /// the pool with rayon (the workers with no task of their own take it), and must then
    /// hold no thread-local borrow across a rayon call. An error (a GPU that failed) ends
    /// the run: the tasks other workers finished are still streamed, then [`run`] returns
    /// it.
    fn count(&self, ids: &[u32]) -> Result<Vec<Tally>>;

    /// Whether [`Counter::count`] spreads a task's work over the pool it runs on: then one
    /// task counted on a pool of several threads takes less wall time than its CPU time
    /// (`estimate` times such tasks one at a time, by the process's CPU time).
    fn spreads(&self) -> bool {
        false
    }

    /// Each task's expected work, indexed by id: what progress shares and shard balance are
    /// measured in. The same plan always gives the same estimates.
    fn estimates(&self) -> Vec<u64>;

    /// What the plan counted while it was built (the planner's nodes), added once to a count
    /// of the whole plan (or of shard 0).
    fn planned(&self) -> Tally;

    /// Whether a worker keeps something from one task for the next that makes a task cheaper
    /// after its neighbours (ids close to it) than alone: then a task counted alone, as a
    /// shard's scattered tasks are, costs more than in a whole count's order.
    fn warms(&self) -> bool {
        false
    }

    /// `Some(k)`: each call of [`Counter::count`] pays a fixed cost (a launch on a GPU), so
    /// the method is given batches of up to `k` tasks, an eighth of the run's at most (so
    /// that progress and checkpoints still move), rather than the CPU kernels' 16.
    fn launch(&self) -> Option<usize> {
        None
    }

    /// `Some(s)`: the plan has too many tasks for per-task estimates ([`Counter::estimates`]
    /// is not called on it, and its tasks count alike); shards take its tasks in stripes of
    /// `s` consecutive ids, the stripes in turn (see [`Work`]).
    fn stripe(&self) -> Option<u64> {
        None
    }
}

/// What is known of a plan's tasks' work: each task's estimate, or, for a striped plan
/// ([`Counter::stripe`]), only how many tasks there are, all counted alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    /// Each task's expected work, by id.
    Estimated(Vec<u64>),
    /// `tasks` tasks, taken by shards in stripes of `stripe` consecutive ids.
    Striped {
        /// How many tasks the plan has.
        tasks: usize,
        /// Consecutive ids a shard takes together.
        stripe: u64,
    },
}

impl Work {
    /// What `counter`'s plan says of its tasks' work (for a striped plan, no estimate made).
    pub fn of(counter: &dyn Counter) -> Work {
        match counter.stripe() {
            Some(stripe) => Work::Striped {
                tasks: counter.tasks(),
                stripe: stripe.max(1),
            },
            None => Work::Estimated(counter.estimates()),
        }
    }

    /// How many tasks the plan has.
    pub fn tasks(&self) -> usize {
        match self {
            Work::Estimated(est) => est.len(),
            Work::Striped { tasks, .. } => *tasks,
        }
    }

    /// Task `id`'s expected work (1 for each task of a striped plan); `None` past the plan.
    pub fn get(&self, id: u32) -> Option<u64> {
        match self {
            Work::Estimated(est) => est.get(id as usize).copied(),
            Work::Striped { tasks, .. } => ((id as usize) < *tasks).then_some(1),
        }
    }

    /// Task `id`'s expected work (`id` in the plan).
    pub fn at(&self, id: u32) -> u64 {
        self.get(id).expect("a task of the plan")
    }
}

/// Listens to a run: each finished task as it arrives, and a tick about every 50 ms.
pub trait Observer {
    /// Task `id` is finished with `tally`.
    fn finished(&mut self, _id: u32, _tally: &Tally) -> Result<()> {
        Ok(())
    }

    /// Called about every 50 ms, and once when the run ends.
    fn tick(&mut self) -> Result<()> {
        Ok(())
    }
}

/// No observer.
impl Observer for () {}

impl<T: Observer + ?Sized> Observer for &mut T {
    fn finished(&mut self, id: u32, tally: &Tally) -> Result<()> {
        (**self).finished(id, tally)
    }
    fn tick(&mut self) -> Result<()> {
        (**self).tick()
    }
}

impl<T: Observer> Observer for Option<T> {
    fn finished(&mut self, id: u32, tally: &Tally) -> Result<()> {
        self.as_mut().map_or(Ok(()), |o| o.finished(id, tally))
    }
    fn tick(&mut self) -> Result<()> {
        self.as_mut().map_or(Ok(()), |o| o.tick())
    }
}

/// Both observers, the first first.
impl<A: Observer, B: Observer> Observer for (A, B) {
    fn finished(&mut self, id: u32, tally: &Tally) -> Result<()> {
        self.0.finished(id, tally)?;
        self.1.finished(id, tally)
    }
    fn tick(&mut self) -> Result<()> {
        self.0.tick()?;
        self.1.tick()
    }
}

/// What one run of the engine did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ran {
    /// The sum of the tasks counted by this run.
    pub tally: Tally,
    /// How many tasks it counted.
    pub done: usize,
    /// Whether the cancel flag stopped it before every task was counted.
    pub cancelled: bool,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl Ran {
    /// The error of a run stopped by its cancel flag: `done` of `total` tasks finished (this
    /// run's among them), `saved` the checkpoint that holds them.
    pub fn stopped(&self, done: usize, total: usize, saved: Option<String>) -> Error {
        Error::Cancelled {
            done,
            total,
            counted: self.done,
            seconds: self.elapsed.as_secs_f64(),
            saved,
        }
    }
}

/// The thread count used when none is given: every logical CPU.
pub fn default_threads() -> usize {
    num_cpus::get().max(1)
}

pub use crate::limits::MAX_THREADS;

/// Builds a rayon pool of exactly `threads` workers (1..=[`MAX_THREADS`]).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(Error::Threads(threads));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("nqueens-{i}"))
        .build()
        .map_err(|e| Error::Pool(e.to_string()))
}

/// How many tasks a worker takes at once: enough for the batched kernels to keep their lanes
/// busy, few enough that every thread gets at least 8 batches (up to 16 tasks per batch).
fn batch_size(tasks: usize, threads: usize) -> usize {
    (tasks / (8 * threads.max(1))).clamp(1, 16)
}

/// Starts counting `todo` on `pool`, each finished task sent to `tx`, until every task is
/// counted or `stop` is raised: detached, so that a cancelled run returns without waiting for
/// the tasks in flight.
fn start_runners(
    pool: rayon::ThreadPool,
    counter: Arc<dyn Counter>,
    todo: Vec<u32>,
    stop: Arc<AtomicBool>,
    tx: mpsc::Sender<Result<(u32, Tally)>>,
) {
    let threads = pool.current_num_threads();
    // A method that spreads its tasks is batched by the tasks of this run (a shard of a few
    // tasks of a large plan gives each worker its own); the others by the plan's.
    let batch = match counter.launch() {
        Some(most) => (todo.len() / 8).clamp(1, most.max(1)),
        None if counter.spreads() => batch_size(todo.len(), threads),
        None => batch_size(counter.tasks(), threads),
    };
    std::thread::spawn(move || {
        let run = Arc::new(Run::new(todo.len()));
        // One runner a worker, each taking the next batch of tasks until none is left: no
        // task waits in a worker's queue, so a worker that waits inside a task (for a part
        // of its work another took) can only take other tasks' parts, never start a task on
        // top of its own; and a worker with no task left helps the tasks still running (a
        // method spreads a task's work with rayon once every task is taken:
        // `spread::spare_workers`).
        pool.broadcast(|_| {
            as_runner(&run, || {
                while let Some(at) = run.take(batch) {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let ids = &todo[at];
                    match counter.count(ids) {
                        Ok(tallies) => {
                            for (&id, t) in ids.iter().zip(tallies) {
                                let _ = tx.send(Ok((id, t)));
                            }
                        }
                        Err(e) => {
                            // No other worker starts a batch: the run ends with this.
                            stop.store(true, Ordering::SeqCst);
                            let _ = tx.send(Err(e));
                            return;
                        }
                    }
                }
            })
        });
    });
}

/// Counts the tasks `todo` of `counter` on `threads` workers, streaming each finished task to
/// `observer`, until every task is counted or `cancel` is raised.
pub fn run(
    counter: Arc<dyn Counter>,
    todo: Vec<u32>,
    threads: usize,
    cancel: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<Ran> {
    let start = Instant::now();
    let pool = pool(threads)?;
    let expected = todo.len();
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Result<(u32, Tally)>>();
    start_runners(pool, counter, todo, Arc::clone(&stop), tx);
    let mut ran = Ran {
        tally: Tally::default(),
        done: 0,
        cancelled: false,
        elapsed: Duration::ZERO,
    };
    let take = |ran: &mut Ran, observer: &mut dyn Observer, (id, t): (u32, Tally)| {
        ran.tally += t;
        ran.done += 1;
        observer.finished(id, &t)
    };
    let mut failed = None;
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(msg)) => take(&mut ran, observer, msg)?,
            // The first failure is the one reported; what the others finished is kept.
            Ok(Err(e)) => {
                failed.get_or_insert(e);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if cancel.load(Ordering::SeqCst) {
            stop.store(true, Ordering::SeqCst);
            while let Ok(msg) = rx.try_recv() {
                match msg {
                    Ok(msg) => take(&mut ran, observer, msg)?,
                    Err(e) => {
                        failed.get_or_insert(e);
                    }
                }
            }
            ran.cancelled = ran.done < expected;
            break;
        }
        observer.tick()?;
    }
    if let Some(e) = failed {
        return Err(e);
    }
    if !ran.cancelled && ran.done != expected {
        return Err(Error::Pool(format!(
            "the workers stopped after {} of {expected} tasks",
            ran.done
        )));
    }
    ran.elapsed = start.elapsed();
    observer.tick()?;
    Ok(ran)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Task `i` finds `i` solutions.
    struct Numbers(usize);

    impl Counter for Numbers {
        fn tasks(&self) -> usize {
            self.0
        }
        fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
            let t = |i: u32| Tally {
                total: i as u128,
                classes: None,
                nodes: 1,
            };
            Ok(ids.iter().map(|&i| t(i)).collect())
        }
        fn estimates(&self) -> Vec<u64> {
            vec![1; self.0]
        }
        fn planned(&self) -> Tally {
            Tally::default()
        }
    }

    struct Seen(Vec<u32>);

    impl Observer for Seen {
        fn finished(&mut self, id: u32, _: &Tally) -> Result<()> {
            self.0.push(id);
            Ok(())
        }
    }

    /// A method that pays for each call ([`Counter::launch`]) gets larger batches: an eighth
    /// of the run's tasks, at most what it asks.
    #[test]
    fn a_launching_method_gets_large_batches() {
        struct Launching(std::sync::Mutex<Vec<usize>>);
        impl Counter for Launching {
            fn tasks(&self) -> usize {
                4000
            }
            fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
                self.0.lock().unwrap().push(ids.len());
                Numbers(4000).count(ids)
            }
            fn estimates(&self) -> Vec<u64> {
                vec![1; 4000]
            }
            fn planned(&self) -> Tally {
                Tally::default()
            }
            fn launch(&self) -> Option<usize> {
                Some(300)
            }
        }
        let c = Arc::new(Launching(std::sync::Mutex::new(Vec::new())));
        let flag = AtomicBool::new(false);
        let todo: Vec<u32> = (0..4000).collect();
        run(c.clone(), todo, 2, &flag, &mut Seen(Vec::new())).unwrap();
        let sizes = c.0.lock().unwrap().clone();
        assert_eq!(sizes.iter().sum::<usize>(), 4000);
        assert_eq!(sizes.iter().max(), Some(&300), "{sizes:?}");
        let todo: Vec<u32> = (0..800).collect();
        c.0.lock().unwrap().clear();
        run(c.clone(), todo, 2, &flag, &mut Seen(Vec::new())).unwrap();
        assert_eq!(c.0.lock().unwrap().iter().max(), Some(&100));
    }

    /// A method that fails (a GPU fault) on one batch ends the run with its error, not a
    /// panic; the batches finished before it still reach the observer (the checkpoint).
    #[test]
    fn a_failing_batch_ends_the_run_with_its_error_and_keeps_what_finished() {
        struct Failing;
        impl Counter for Failing {
            fn tasks(&self) -> usize {
                1000
            }
            fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
                if ids.contains(&500) {
                    return Err(Error::Device("the GPU fell off the bus".into()));
                }
                Numbers(1000).count(ids)
            }
            fn estimates(&self) -> Vec<u64> {
                vec![1; 1000]
            }
            fn planned(&self) -> Tally {
                Tally::default()
            }
        }
        let mut seen = Seen(Vec::new());
        let flag = AtomicBool::new(false);
        let todo: Vec<u32> = (0..1000).collect();
        let e = run(Arc::new(Failing), todo, 1, &flag, &mut seen).unwrap_err();
        assert_eq!(e, Error::Device("the GPU fell off the bus".into()));
        assert_eq!(e.exit_code(), 1);
        // One thread takes the batches in order: every task before the failing batch's.
        assert!(
            seen.0.len() >= 480 && seen.0.len() < 500,
            "{}",
            seen.0.len()
        );
        assert!(seen.0.iter().all(|&i| i < 500));
    }

    #[test]
    fn every_task_is_counted_once_and_streamed() {
        let mut seen = Seen(Vec::new());
        let todo: Vec<u32> = (0..100).filter(|i| i % 3 != 0).collect();
        let flag = AtomicBool::new(false);
        let ran = run(Arc::new(Numbers(100)), todo.clone(), 3, &flag, &mut seen).unwrap();
        assert!(!ran.cancelled);
        assert_eq!(ran.done, todo.len());
        assert_eq!(
            ran.tally.total,
            todo.iter().map(|&i| i as u128).sum::<u128>()
        );
        seen.0.sort_unstable();
        assert_eq!(seen.0, todo);
    }

    /// One task whose work is 64 pieces spread with rayon: its tally is how many threads
    /// counted a piece.
    struct Spread;

    impl Counter for Spread {
        fn tasks(&self) -> usize {
            1
        }
        fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
            use rayon::prelude::*;
            let mut by: Vec<usize> = (0..64)
                .into_par_iter()
                .map(|_| {
                    std::thread::sleep(Duration::from_millis(5));
                    rayon::current_thread_index().expect("on a worker of the pool")
                })
                .collect();
            by.sort_unstable();
            by.dedup();
            let t = Tally {
                total: by.len() as u128,
                classes: None,
                nodes: 1,
            };
            Ok(vec![t; ids.len()])
        }
        fn estimates(&self) -> Vec<u64> {
            vec![1]
        }
        fn planned(&self) -> Tally {
            Tally::default()
        }
        fn spreads(&self) -> bool {
            true
        }
    }

    /// A run of one task on four workers: the workers with no task of their own take parts
    /// of the one there is (every core on one task), and the task still streams once.
    #[test]
    fn workers_without_a_task_take_parts_of_the_tasks_running() {
        let mut seen = Seen(Vec::new());
        let flag = AtomicBool::new(false);
        let ran = run(Arc::new(Spread), vec![0], 4, &flag, &mut seen).unwrap();
        assert_eq!(seen.0, vec![0]);
        assert!(ran.tally.total > 1, "one worker counted the whole task");
        let alone = run(Arc::new(Spread), vec![0], 1, &flag, &mut ()).unwrap();
        assert_eq!(alone.tally.total, 1);
    }

    #[test]
    fn a_raised_flag_stops_the_run_and_bad_thread_counts_are_refused() {
        let flag = AtomicBool::new(true);
        let ran = run(
            Arc::new(Numbers(10_000)),
            (0..10_000).collect(),
            1,
            &flag,
            &mut (),
        );
        assert!(ran.unwrap().done <= 10_000);
        for t in [0, MAX_THREADS + 1] {
            let e = run(Arc::new(Numbers(1)), vec![0], t, &flag, &mut ()).unwrap_err();
            assert!(matches!(e, Error::Threads(x) if x == t), "{e}");
        }
    }
}
