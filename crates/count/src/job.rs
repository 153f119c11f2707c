//! A count ready to run ([`Job`]): its method's task counter, its plan's id and its options,
//! whichever method counts. The library's `count` and the long runs of `nqueens-longrun` both
//! run through it, and so through the one engine. It is where the engine's counter is picked:
//! the quadrant method's, or a backtracking plan's on this CPU or on the GPU.

use super::algorithm::Algorithm;
use super::arch::{Build, SimdBuild};
use super::backend::Backend;
use super::backtracking::backtrack::Backtrack;
use super::backtracking::plan::{smallest_split_depth, Plan};
use super::engine::{self, Counter, Observer, RunSummary, Work};
use super::gpu;
use super::memory;
use super::method::{self, Method};
use super::options::Options;
use super::plan_id::PlanId;
use super::progress::{ProgressFn, Tracker};
use super::quadrants::{self, BuildCap, Quadrants};
use super::slices::Slices;
use super::tally::Tally;
use super::totals::Totals;
use nqueens_board::error::{Error, Result};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A count ready to run: its method's task counter, the plan's id, and the options. The
/// library's [`crate::count()`] and the long runs of `nqueens-longrun` both run through it,
/// and so through the one engine, whatever the method.
pub struct Job {
    memory_estimate: Option<u64>,
    /// The least memory limit the method accepts (the quadrant method's).
    least_memory: Option<u64>,
    /// The build its vector code runs in (the quadrant method's, or the kernel's).
    build: Build,
    counter: Arc<dyn Counter>,
    /// The quadrant method's plan, where it counts: what [`Job::slices`] draws from.
    quadrants: Option<Arc<Quadrants>>,
    id: PlanId,
    tasks: usize,
    backend: Backend,
    /// The GPU's name, where the GPU counts.
    device: Option<String>,
    threads: usize,
    cancel: Arc<AtomicBool>,
    progress: Option<ProgressFn>,
}

impl Job {
    /// The most tasks a backtracking plan holds.
    pub const MOST_PLAN_TASKS: usize = super::backtracking::plan::MAX_PLAN_TASKS;

    /// The largest board whose quadrant plan is made from its tables in full; past it, the
    /// plan's tasks and their work estimates come from sampled row sets.
    pub const TABLE_MAX_N: u32 = quadrants::TABLE_MAX_N;

    /// Plans the count of an `n` board as `opts` say ([`method::choose`] picks the method).
    /// `long_run`: `Some(depth)` for a run that checkpoints or shards, whose plan must be the
    /// same on every machine (`auto` is never resolved by this machine's memory), with the
    /// split depth to use when `opts` give none; `None` for a count made here, whose split
    /// depth defaults to the smallest giving 8 tasks per thread.
    pub fn new(n: u32, opts: &Options, long_run: Option<u32>) -> Result<Job> {
        let threads = opts.resolved_threads();
        if !(1..=engine::MAX_THREADS).contains(&threads) {
            return Err(Error::Threads(threads));
        }
        let Method {
            mut algorithm,
            may_backtrack,
        } = method::choose(n, opts, long_run.is_some())?;
        // Refused before anything is planned where the backend cannot count (no GPU).
        let device = device(opts)?;
        if algorithm == Algorithm::Quadrants {
            let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
            match Quadrants::within(n, threads, limit, &opts.quadrants) {
                Ok(q) => return Ok(Job::of_quadrants(q, opts, threads)),
                // Auto: the quadrant method does not fit; backtracking needs almost none.
                Err(Error::Memory(_)) if may_backtrack => algorithm = method::FALLBACK,
                Err(e) => return Err(e),
            }
        }
        let fixed = opts.split_depth.or(long_run);
        let plan = if opts.placed.is_empty() {
            let depth = fixed.unwrap_or_else(|| Plan::default_split_depth(n, algorithm, threads));
            Plan::new(n, algorithm, depth)?
        } else {
            let build = |d| Plan::with_placed(n, d, &opts.placed);
            build(fixed.unwrap_or_else(|| smallest_split_depth(threads, build)))?
        };
        Job::of_plan(plan, opts, threads, device)
    }

    /// The counter of `n`'s plan where the method can say its tasks before it is planned in
    /// full, and that saves seconds: the quadrant method past its table, whose full planning
    /// builds slices of sampled row sets. Its tasks and their work estimates are those of the
    /// plan [`Job::new`] makes for a long run; it counts nothing. `None` where planning in
    /// full is quick.
    pub fn tasks_early(n: u32, opts: &Options) -> Result<Option<Arc<dyn Counter>>> {
        if opts.resolved_algorithm(n) != Algorithm::Quadrants
            || n <= quadrants::TABLE_MAX_N
            || quadrants::applies(n).is_err()
        {
            return Ok(None);
        }
        Ok(Some(Arc::new(Quadrants::unfilled(n, &opts.quadrants)?)))
    }

    /// The job of the plan `id` names (as checkpoint and shard files write it), with its
    /// fingerprint checked: the same tasks in the same order as when the files were made.
    pub fn from_id(id: &PlanId, opts: &Options) -> Result<Job> {
        // An audit's recount on the GPU, as a count's: refused where none can count.
        let device = device(opts)?;
        let threads = opts.resolved_threads();
        if id.algorithm == Algorithm::Quadrants {
            let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
            let settings = opts.quadrants.for_plan(id.n, &id.fingerprint);
            let q = Quadrants::within(id.n, threads, limit, &settings)?;
            id.check_fingerprint(&q.id().fingerprint)?;
            return Ok(Job::of_quadrants(q, opts, threads));
        }
        Job::of_plan(Plan::from_id(id)?, opts, threads, device)
    }

    /// The job that recounts the tasks of plan `id` for an audit: [`Job::from_id`]'s, but a
    /// quadrant plan's tasks are searched by backtracking (`quadrants::Backtracked`: nothing
    /// of the method's own counting is used) unless `same_method`. Its fingerprint is checked.
    pub fn recounting(id: &PlanId, opts: &Options, same_method: bool) -> Result<Job> {
        if id.algorithm != Algorithm::Quadrants || same_method {
            return Job::from_id(id, opts);
        }
        let settings = opts.quadrants.for_plan(id.n, &id.fingerprint);
        let b = quadrants::Backtracked::new(id.n, &settings)?;
        let planned = b.plan().id();
        id.check_fingerprint(&planned.fingerprint)?;
        Ok(Job {
            memory_estimate: None,
            least_memory: None,
            build: Build::Portable,
            id: planned,
            tasks: b.plan().tasks(),
            counter: Arc::new(b),
            quadrants: None,
            backend: opts.backend,
            device: None,
            threads: opts.resolved_threads(),
            cancel: opts.cancel.clone().unwrap_or_default(),
            progress: opts.progress.clone(),
        })
    }

    /// The job that recounts the tasks of quadrant plan `id` by the method itself, in `build`
    /// (one of [`Job::builds_here`]), for an audit that checks one build against another. Its
    /// fingerprint is checked.
    pub fn recounting_in(id: &PlanId, opts: &Options, build: SimdBuild) -> Result<Job> {
        if id.algorithm != Algorithm::Quadrants {
            return Job::from_id(id, opts);
        }
        let settings = opts
            .quadrants
            .for_plan(id.n, &id.fingerprint)
            .in_build(Some(BuildCap::of(build)));
        let threads = opts.resolved_threads();
        let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
        let q = Quadrants::within(id.n, threads, limit, &settings)?;
        id.check_fingerprint(&q.id().fingerprint)?;
        Ok(Job::of_quadrants(q, opts, threads))
    }

    /// The builds the quadrant method runs in on this CPU, up to the cap `opts` set
    /// (`NQUEENS_QUADRANT_BUILD`), the portable one first and the richest last.
    pub fn builds_here(opts: &Options) -> Vec<SimdBuild> {
        let cap = opts.quadrants.build;
        quadrants::builds()
            .into_iter()
            .filter(|&b| cap.is_none_or(|cap| BuildCap::of(b) <= cap))
            .collect()
    }

    /// The job of a backtracking `plan`: its tasks counted by the backend `opts` name, on
    /// `device` where that is the GPU.
    fn of_plan(plan: Plan, opts: &Options, threads: usize, device: Option<String>) -> Result<Job> {
        let id = plan.id();
        let tasks = plan.tasks().len();
        let (counter, build): (Arc<dyn Counter>, Build) = match opts.backend {
            Backend::Cpu(kernel) => (Arc::new(Backtrack::new(plan, kernel)), kernel.build()),
            // The GPU's counter: the CPU's default kernel only makes the tasks' estimates.
            Backend::Gpu => {
                let plan = Backtrack::new(plan, Default::default());
                (Arc::new(gpu::counter(plan)?), Build::Portable)
            }
        };
        Ok(Job {
            memory_estimate: None,
            least_memory: None,
            build,
            id,
            tasks,
            counter,
            quadrants: None,
            backend: opts.backend,
            device,
            threads,
            cancel: opts.cancel.clone().unwrap_or_default(),
            progress: opts.progress.clone(),
        })
    }

    fn of_quadrants(q: Quadrants, opts: &Options, threads: usize) -> Job {
        let q = Arc::new(q);
        Job {
            memory_estimate: Some(q.memory_estimate()),
            least_memory: Some(q.least_memory()),
            build: q.build().into(),
            id: q.id(),
            tasks: q.tasks(),
            counter: q.clone(),
            quadrants: Some(q),
            backend: opts.backend,
            device: None,
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

    /// The least memory limit the method accepts (the quadrant method's), in bytes.
    pub fn least_memory(&self) -> Option<u64> {
        self.least_memory
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

    /// The slices of the plan's tasks (see [`Slices`]), where the quadrant method counts it;
    /// `None` for a backtracking plan, which has none.
    pub fn slices(&self) -> Option<Slices> {
        self.quadrants.clone().map(Slices::of)
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The build its vector code runs in: the quadrant method's, or the backtracking kernel's
    /// (the portable one for a recount by backtracking, whose search is plain Rust).
    pub fn build(&self) -> Build {
        self.build
    }

    /// What counts the backtracking methods' tasks (a CPU kernel, or the GPU).
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The GPU's name (`NVIDIA H100 80GB HBM3, sm_90`) where the GPU counts; `None` where
    /// this CPU does.
    pub fn device(&self) -> Option<&str> {
        self.device.as_deref()
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
    ) -> Result<RunSummary> {
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
            self.backend,
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

/// The GPU's name where `opts` count on it, or why none can count here; `None` where this
/// CPU counts.
fn device(opts: &Options) -> Result<Option<String>> {
    match opts.backend {
        Backend::Gpu => gpu::available().map(Some),
        Backend::Cpu(_) => Ok(None),
    }
}

/// What a run's files are checked against: a plan's identity (every field of its id), its
/// task count, its tasks' work (what shards are assigned by) and what its planner counted
/// (added to shard 0). Rebuilt from a file's id without anything a count needs: the quadrant
/// method's table index only, no memory budget, so that commands that count nothing (merge,
/// status, the checks of an audit) need little memory.
#[derive(Debug, Clone)]
pub struct Identity {
    /// The plan's id, rebuilt.
    pub id: PlanId,
    /// How many tasks it has.
    pub tasks: usize,
    /// Its tasks' work.
    pub work: Work,
    /// What its planner counted.
    pub planned: Tally,
}

impl Identity {
    /// The plan `id` names, rebuilt as `opts` make it (their quadrant settings) and its
    /// fingerprint checked.
    pub fn of(id: &PlanId, opts: &Options) -> Result<Identity> {
        if id.algorithm == Algorithm::Quadrants {
            let settings = opts.quadrants.for_plan(id.n, &id.fingerprint);
            let q = Quadrants::unfilled(id.n, &settings)?;
            let rebuilt = q.id();
            id.check_fingerprint(&rebuilt.fingerprint)?;
            return Ok(Identity::counted_by(rebuilt, &q));
        }
        let plan = Plan::from_id(id)?;
        let rebuilt = plan.id();
        Ok(Identity::counted_by(
            rebuilt,
            &Backtrack::new(plan, opts.backend.kernel().unwrap_or_default()),
        ))
    }

    /// The identity of plan `id` whose tasks `counter` counts.
    fn counted_by(id: PlanId, counter: &dyn Counter) -> Identity {
        Identity {
            id,
            tasks: counter.tasks(),
            work: Work::of(counter),
            planned: counter.planned(),
        }
    }
}
