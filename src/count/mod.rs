//! Counting: the library's `count`, its [`Options`] and [`Totals`]; below them the methods
//! (plans, tasks, tallies), the one engine, the rotational count and the OEIS cross-check.
//!
//! Data flow: [`Options`] → a method's plan builder ([`plan::Plan`]) → a deterministic list of
//! tasks with stable ids → the engine ([`engine::run`]) counts them with the method's task
//! counter ([`backtrack::Backtrack`]) and streams each finished task to its observers
//! (progress here; checkpoints in [`crate::longrun`]) → the sum in `u128` → [`Totals`] →
//! the cross-check against the known values ([`Totals::cross_check`]).

pub mod backtrack;
pub mod constellations;
pub mod engine;
pub mod kernel;
pub mod memory;
pub mod oeis;
pub mod plan;
pub mod progress;
pub mod quadrants;
pub mod rotational;
pub mod tally;
pub mod task;

use self::backtrack::Backtrack;
use self::engine::{Counter, Observer, Ran, Work};
use self::kernel::Kernel;
use self::oeis::Sequence;
use self::plan::{smallest_split_depth, Algorithm, Plan, PlanId};
use self::progress::{ProgressFn, Tracker};
use self::quadrants::Quadrants;
use self::tally::Tally;
use crate::error::{Error, Result};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How a count is run. `Options::default()` counts every solution with the faster method for
/// the board (`auto`), the default kernel and one worker per logical CPU.
///
/// ```
/// use nqueens::{Algorithm, Options};
/// let opts = Options::default().with_threads(2).with_algorithm(Algorithm::Mirror);
/// assert_eq!(nqueens::count(8, &opts)?.total, 92);
/// # Ok::<(), nqueens::Error>(())
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct Options {
    /// The counting method; `None` is `auto`: the quadrant method where it is faster,
    /// `symmetric` backtracking elsewhere, `plain` when queens are placed (the only algorithm
    /// that takes them).
    pub algorithm: Option<Algorithm>,
    /// Worker threads (1 to [`engine::MAX_THREADS`]); `None`: every logical CPU.
    pub threads: Option<usize>,
    /// The counting kernel.
    pub kernel: Kernel,
    /// Queens placed before the search, `(row, col)` 0-based: then the count is of their
    /// completions.
    pub placed: Vec<(usize, usize)>,
    /// Rows expanded into tasks (1..=3); `None`: the smallest depth giving at least 8 tasks
    /// per thread.
    pub split_depth: Option<u32>,
    /// The most memory the count may use, in bytes (the quadrant method's tables and
    /// half-boards; backtracking needs almost none); `None`: half of the available memory.
    pub max_memory: Option<u64>,
    /// Raise it to stop the count: `count` then returns [`Error::Cancelled`].
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called about ten times a second with where the count stands, and once at the end.
    pub progress: Option<ProgressFn>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("algorithm", &self.algorithm)
            .field("threads", &self.threads)
            .field("kernel", &self.kernel)
            .field("placed", &self.placed)
            .field("split_depth", &self.split_depth)
            .field("max_memory", &self.max_memory)
            .field("cancel", &self.cancel)
            .field("progress", &self.progress.as_ref().map(|_| "callback"))
            .finish()
    }
}

impl Options {
    /// With `algorithm`.
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> Options {
        self.algorithm = Some(algorithm);
        self
    }

    /// With `threads` workers.
    pub fn with_threads(mut self, threads: usize) -> Options {
        self.threads = Some(threads);
        self
    }

    /// With `kernel`.
    pub fn with_kernel(mut self, kernel: Kernel) -> Options {
        self.kernel = kernel;
        self
    }

    /// With these queens placed (`(row, col)`, 0-based).
    pub fn with_placed(mut self, placed: &[(usize, usize)]) -> Options {
        self.placed = placed.to_vec();
        self
    }

    /// With this split depth (1..=3).
    pub fn with_split_depth(mut self, depth: u32) -> Options {
        self.split_depth = Some(depth);
        self
    }

    /// Using at most `bytes` of memory.
    pub fn with_max_memory(mut self, bytes: u64) -> Options {
        self.max_memory = Some(bytes);
        self
    }

    /// Stopped when `flag` is raised.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Options {
        self.cancel = Some(flag);
        self
    }

    /// Reporting progress to `report`.
    pub fn with_progress(
        mut self,
        report: impl Fn(&progress::Progress) + Send + Sync + 'static,
    ) -> Options {
        self.progress = Some(Arc::new(report));
        self
    }

    /// The thread count used: the one asked for, or every logical CPU.
    pub fn resolved_threads(&self) -> usize {
        self.threads.unwrap_or_else(engine::default_threads)
    }

    /// The algorithm used on an `n` board: the one asked for, or the one `auto` picks (also
    /// when none is asked for).
    pub fn resolved_algorithm(&self, n: u32) -> Algorithm {
        match self.algorithm {
            Some(Algorithm::Auto) | None => Algorithm::auto(n, !self.placed.is_empty()),
            Some(a) => a,
        }
    }
}

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
    /// The kernel that counted.
    pub kernel: Kernel,
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
    pub(crate) fn of(
        id: &PlanId,
        tasks: usize,
        kernel: Kernel,
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
    /// disagreement is [`Error::Mismatch`].
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

/// Counts the solutions of an `n` board (1..=64) as `opts` say, and checks the result against
/// the known OEIS values: a count that disagrees is an error, never a result.
///
/// ```
/// let t = nqueens::count(8, &nqueens::Options::default())?;
/// assert_eq!((t.total, t.unique), (92, Some(12)));
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn count(n: u32, opts: &Options) -> Result<Totals> {
    let totals = count_unchecked(n, opts)?;
    totals.cross_check()?;
    Ok(totals)
}

/// [`count`] without the cross-check, for callers that show a result before they fail on it
/// ([`Totals::cross_check`]), as the command line does.
pub fn count_unchecked(n: u32, opts: &Options) -> Result<Totals> {
    let job = Job::new(n, opts, None)?;
    let all: Vec<u32> = (0..job.tasks() as u32).collect();
    job.run(&all, &[], Tally::default(), &mut ())
}

/// A count ready to run: its method's task counter, the plan's id, and the options. The
/// library's [`count`] and the long runs of [`crate::longrun`] both run through it, and so
/// through the one engine, whatever the method.
pub struct Job {
    memory_estimate: Option<u64>,
    counter: Arc<dyn Counter>,
    id: PlanId,
    tasks: usize,
    kernel: Kernel,
    threads: usize,
    cancel: Arc<AtomicBool>,
    progress: Option<ProgressFn>,
}

impl Job {
    /// Plans the count of an `n` board as `opts` say; `depth` is the split depth to use when
    /// `opts` gives none (else the smallest giving 8 tasks per thread).
    pub fn new(n: u32, opts: &Options, depth: Option<u32>) -> Result<Job> {
        let threads = opts.resolved_threads();
        if !(1..=engine::MAX_THREADS).contains(&threads) {
            return Err(Error::Threads(threads));
        }
        let mut algorithm = opts.resolved_algorithm(n);
        let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
        let chose = opts.algorithm.is_none_or(|a| a == Algorithm::Auto);
        if algorithm == Algorithm::Quadrants && opts.split_depth.is_some() {
            if !chose {
                return Err(Error::Usage(
                    "the split depth applies to the backtracking algorithms: the quadrant \
                     method splits by rows instead; leave the split depth out"
                        .into(),
                ));
            }
            // Auto with a split depth: only backtracking has one.
            algorithm = Algorithm::Symmetric;
        }
        if chose && algorithm == Algorithm::Quadrants && Quadrants::memory_floor(n) > limit {
            // Auto: the quadrant method would not fit; backtracking needs almost none.
            algorithm = Algorithm::Symmetric;
        }
        if !opts.placed.is_empty() && algorithm != Algorithm::Plain {
            return Err(Error::Usage(format!(
                "algorithm {algorithm} cannot count with placed queens: the placements break \
                 the board's symmetry; leave the algorithm out (or use plain)"
            )));
        }
        if algorithm == Algorithm::Quadrants {
            match Quadrants::within(n, threads, limit) {
                Ok(q) => return Ok(Job::of_quadrants(q, opts, threads)),
                // Auto: the whole estimate does not fit either; backtrack instead.
                Err(Error::Memory(_)) if chose => algorithm = Algorithm::Symmetric,
                Err(e) => return Err(e),
            }
        }
        let fixed = opts.split_depth.or(depth);
        let plan = if opts.placed.is_empty() {
            let depth = fixed.unwrap_or_else(|| Plan::default_split_depth(n, algorithm, threads));
            Plan::new(n, algorithm, depth)?
        } else {
            let build = |d| Plan::with_placed(n, d, &opts.placed);
            build(fixed.unwrap_or_else(|| smallest_split_depth(threads, build)))?
        };
        Ok(Job::of_plan(plan, opts, threads))
    }

    /// The job of the plan `id` names (as checkpoint and shard files write it), with its
    /// fingerprint checked: the same tasks in the same order as when the files were made.
    pub fn from_id(id: &PlanId, opts: &Options) -> Result<Job> {
        let threads = opts.resolved_threads();
        if id.algorithm == Algorithm::Quadrants {
            let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
            let q = Quadrants::within(id.n, threads, limit)?;
            id.check_fingerprint(&q.id().fingerprint)?;
            return Ok(Job::of_quadrants(q, opts, threads));
        }
        Ok(Job::of_plan(id.rebuild()?, opts, threads))
    }

    /// The job that recounts the tasks of plan `id` for an audit: [`Job::from_id`]'s, but a
    /// quadrant plan's tasks are searched by backtracking (`quadrants::Backtracked`: nothing
    /// of the method's own counting is used) unless `same_method`. Its fingerprint is checked.
    pub fn recounting(id: &PlanId, opts: &Options, same_method: bool) -> Result<Job> {
        if id.algorithm != Algorithm::Quadrants || same_method {
            return Job::from_id(id, opts);
        }
        let b = quadrants::Backtracked::new(id.n)?;
        let planned = b.plan().id();
        id.check_fingerprint(&planned.fingerprint)?;
        Ok(Job {
            memory_estimate: None,
            id: planned,
            tasks: b.plan().tasks(),
            counter: Arc::new(b),
            kernel: opts.kernel,
            threads: opts.resolved_threads(),
            cancel: opts.cancel.clone().unwrap_or_default(),
            progress: opts.progress.clone(),
        })
    }

    fn of_plan(plan: Plan, opts: &Options, threads: usize) -> Job {
        Job {
            memory_estimate: None,
            id: plan.id(),
            tasks: plan.tasks().len(),
            counter: Arc::new(Backtrack::new(plan, opts.kernel)),
            kernel: opts.kernel,
            threads,
            cancel: opts.cancel.clone().unwrap_or_default(),
            progress: opts.progress.clone(),
        }
    }

    fn of_quadrants(q: Quadrants, opts: &Options, threads: usize) -> Job {
        Job {
            memory_estimate: Some(q.memory_estimate()),
            id: q.id(),
            tasks: q.tasks(),
            counter: Arc::new(q),
            kernel: opts.kernel,
            threads,
            cancel: opts.cancel.clone().unwrap_or_default(),
            progress: opts.progress.clone(),
        }
    }

    /// Adds `bytes` a run holds besides the method (its tasks' records) to the memory
    /// estimate, where there is one.
    pub fn hold(&mut self, bytes: u64) {
        if let Some(m) = self.memory_estimate.as_mut() {
            *m += bytes;
        }
    }

    /// The memory the plan is estimated to need (quadrant method), in bytes.
    pub fn memory_estimate(&self) -> Option<u64> {
        self.memory_estimate
    }

    /// What identifies the plan in checkpoint and shard files.
    pub fn id(&self) -> &PlanId {
        &self.id
    }

    /// How many tasks the plan has.
    pub fn tasks(&self) -> usize {
        self.tasks
    }

    /// The task counter, for the engine.
    pub fn counter(&self) -> Arc<dyn Counter> {
        self.counter.clone()
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The kernel (the backtracking methods').
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Whether the options ask for progress reports (which need each task's expected work).
    pub fn reports_progress(&self) -> bool {
        self.progress.is_some()
    }

    /// Counts the tasks in `scope` that are not in `resumed` (whose tallies sum to
    /// `resumed_tally`), streaming finished tasks to `observer` and to the progress report.
    /// `est`: the tasks' expected work when the caller has it already. Returns the tally of
    /// the scope; [`Error::Cancelled`] if the cancel flag stopped it.
    pub fn run_scope(
        &self,
        scope: &[u32],
        resumed: &[u32],
        resumed_tally: Tally,
        est: Option<Work>,
        observer: &mut dyn Observer,
    ) -> Result<Ran> {
        // A set of the resumed tasks, not a flag per task of the plan: a striped plan's
        // tasks run to hundreds of millions, a shard's to thousands.
        let finished: std::collections::HashSet<u32> = resumed.iter().copied().collect();
        let todo: Vec<u32> = scope
            .iter()
            .copied()
            .filter(|i| !finished.contains(i))
            .collect();
        let mut tracker = self.progress.clone().map(|report| {
            let est = est.unwrap_or_else(|| Work::of(self.counter.as_ref()));
            Tracker::new(est, scope, resumed, &resumed_tally, report)
        });
        let mut both = (observer, tracker.as_mut());
        let ran = engine::run(self.counter(), todo, self.threads, &self.cancel, &mut both)?;
        if let Some(t) = tracker.as_mut() {
            t.finish();
        }
        Ok(ran)
    }

    /// Counts the tasks `scope` minus `resumed` (see [`Job::run_scope`]) and returns the
    /// totals of the whole scope, planner nodes included; not cross-checked.
    pub fn run(
        &self,
        scope: &[u32],
        resumed: &[u32],
        resumed_tally: Tally,
        observer: &mut dyn Observer,
    ) -> Result<Totals> {
        let ran = self.run_scope(scope, resumed, resumed_tally, None, observer)?;
        if ran.cancelled {
            return Err(ran.stopped(resumed.len() + ran.done, scope.len(), None));
        }
        let mut tally = resumed_tally;
        tally += ran.tally;
        tally += self.counter.planned();
        Ok(self.totals(tally, ran.elapsed, resumed.len(), resumed_tally.nodes))
    }

    /// The totals of a finished scope whose tallies sum to `tally`.
    pub fn totals(
        &self,
        tally: Tally,
        elapsed: Duration,
        resumed_tasks: usize,
        resumed_nodes: u128,
    ) -> Totals {
        let mut t = Totals::of(
            &self.id,
            self.tasks,
            self.kernel,
            self.threads,
            tally,
            elapsed,
        );
        t.memory_estimate = self.memory_estimate;
        t.resumed_tasks = resumed_tasks;
        t.resumed_nodes = resumed_nodes;
        t
    }
}
