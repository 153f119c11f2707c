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
use nqueens_board::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
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

    /// `Some(k)`: each call of [`Counter::count`] pays a fixed cost, whatever its tasks, so
    /// the method is given batches of up to `k` tasks, an eighth of the run's at most (so
    /// that progress and checkpoints still move), rather than the usual 16.
    fn batch(&self) -> Option<usize> {
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
        /// Consecutive ids per shard takes together.
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
pub struct RunSummary {
    /// The sum of the tasks counted by this run.
    pub tally: Tally,
    /// How many tasks it counted.
    pub done: usize,
    /// Whether the cancel flag stopped it before every task was counted.
    pub cancelled: bool,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl RunSummary {
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

pub use nqueens_board::limits::MAX_THREADS;

/// The pool of exactly `threads` workers (1..=[`MAX_THREADS`]) that every run of the engine
/// on that many threads shares: built the first time it is asked for, and kept for the rest of
/// the process, so that a command that counts many small runs (an audit of thousands of
/// one-task files, a table, a benchmark) starts its threads once, not once per run.
pub fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(Error::Threads(threads));
    }
    static POOLS: Mutex<Vec<Arc<rayon::ThreadPool>>> = Mutex::new(Vec::new());
    ASKED.fetch_add(1, Ordering::Relaxed);
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.iter().find(|p| p.current_num_threads() == threads) {
        return Ok(Arc::clone(p));
    }
    let p = Arc::new(new_pool(threads)?);
    pools.push(Arc::clone(&p));
    Ok(p)
}

/// A new pool of `threads` workers, its threads counted ([`threads_started`]).
fn new_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("nqueens-{i}"))
        .start_handler(|_| {
            STARTED.fetch_add(1, Ordering::Relaxed);
        })
        .build()
        .map_err(|e| Error::Pool(e.to_string()))
}

/// The worker threads the engine's pools started.
static STARTED: AtomicUsize = AtomicUsize::new(0);

/// How many worker threads the engine's pools have started in this process: what a test
/// checks to see that a command builds one pool, not one per run or per task.
pub fn threads_started() -> usize {
    STARTED.load(Ordering::Relaxed)
}

static ASKED: AtomicUsize = AtomicUsize::new(0);

/// How many times a pool has been asked for ([`pool`]: once per run of the engine, and once per
/// use of a pool outside a run) in this process: each wakes the pool's threads, whose waking and
/// sleeping cost system time, so a test checks that a command of many small runs batches them.
pub fn pools_asked() -> usize {
    ASKED.load(Ordering::Relaxed)
}

/// How many tasks per worker takes at once: enough for the batched kernels to keep their lanes
/// busy, few enough that every thread gets at least 8 batches (up to 16 tasks per batch).
fn batch_size(tasks: usize, threads: usize) -> usize {
    (tasks / (8 * threads.max(1))).clamp(1, 16)
}

/// Starts counting `todo` on `pool`, each finished task sent to `tx`, until every task is
/// counted or `stop` is raised: detached, so that a cancelled run returns without waiting for
/// the tasks in flight.
fn start_runners(
    pool: &rayon::ThreadPool,
    counter: Arc<dyn Counter>,
    todo: Vec<u32>,
    stop: Arc<AtomicBool>,
    tx: mpsc::Sender<Result<(u32, Tally)>>,
) {
    let threads = pool.current_num_threads();
    // A method that spreads its tasks is batched by the tasks of this run (a shard of a few
    // tasks of a large plan gives each worker its own); the others by the plan's.
    let batch = match counter.batch() {
        Some(most) => (todo.len() / 8).clamp(1, most.max(1)),
        None if counter.spreads() => batch_size(todo.len(), threads),
        None => batch_size(counter.tasks(), threads),
    };
    let run = Arc::new(Run::new(todo.len()));
    // One runner a worker, each taking the next batch of tasks until none is left: no task
    // waits in a worker's queue, so a worker that waits inside a task (for a part of its work
    // another took) can only take other tasks' parts, never start a task on top of its own;
    // and a worker with no task left helps the tasks still running (a method spreads a task's
    // work with rayon once every task is taken: `spread::spare_workers`). The runners are
    // started without waiting for them, so that a cancelled run returns at once.
    pool.spawn_broadcast(move |_| {
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
}

/// Counts the tasks `todo` of `counter` on `threads` workers, streaming each finished task to
/// `observer`, until every task is counted or `cancel` is raised.
pub fn run(
    counter: Arc<dyn Counter>,
    todo: Vec<u32>,
    threads: usize,
    cancel: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<RunSummary> {
    let start = Instant::now();
    let shared = pool(threads)?;
    // A run started on a worker of its own pool would wait for runners that worker must run:
    // it gets a pool of its own.
    let private;
    let pool = if shared.current_thread_index().is_some() {
        private = new_pool(threads)?;
        &private
    } else {
        &*shared
    };
    let expected = todo.len();
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Result<(u32, Tally)>>();
    start_runners(pool, counter, todo, Arc::clone(&stop), tx);
    let mut ran = RunSummary {
        tally: Tally::default(),
        done: 0,
        cancelled: false,
        elapsed: Duration::ZERO,
    };
    let mut failed = None;
    // The first failure is the one reported; what the other workers finished is kept.
    let mut take = |ran: &mut RunSummary, observer: &mut dyn Observer, msg| match msg {
        Ok((id, t)) => {
            ran.tally += t;
            ran.done += 1;
            observer.finished(id, &t)
        }
        Err(e) => {
            failed.get_or_insert(e);
            Ok(())
        }
    };
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(msg) => take(&mut ran, observer, msg)?,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if cancel.load(Ordering::SeqCst) {
            stop.store(true, Ordering::SeqCst);
            while let Ok(msg) = rx.try_recv() {
                take(&mut ran, observer, msg)?;
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
mod tests;
