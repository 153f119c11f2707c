//! Long counts: checkpoints that survive a crash, shards for many machines, and the merge of
//! their results. Everything here runs through the one engine ([`crate::internals::engine`]),
//! defined on task ids only, never on a method's internals.
//!
//! [`run`] counts the tasks in scope (the plan's, or a shard's) that a checkpoint does not
//! already hold. Each finished task streams to the checkpoint, which is saved every
//! [`LongRun::every`], at the end, and when the cancel flag stops the count (the tasks in
//! flight are not waited for; they are counted again on resume).

pub mod audit;
pub mod check;
pub mod checkpoint;
pub mod estimate;
pub mod files;
mod found;
pub mod merge;
pub mod projection;
pub mod provenance;
pub mod record;
pub mod result;
pub mod runfile;
mod sample;
pub mod shard;
pub mod status;
pub mod stream;
mod walk;
mod whole;

use self::checkpoint::{Checkpoint, Done};
use self::merge::{ShardResult, SHARD_FORMAT, SHARD_VERSION};
use self::provenance::CountedBy;
pub use self::runfile::RunFile;
use self::shard::{Assignment, Shard, MAX_SHARDS};
use crate::count::algorithm::Algorithm;
use crate::count::engine::{Observer, Work};
use crate::count::tally::Tally;
use crate::count::{Job, Options, Totals};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The split depth of counts that checkpoint or shard when none is given: fixed (not chosen
/// by thread count) so that every run and every machine builds the same plan.
pub const LONG_RUN_SPLIT_DEPTH: u32 = 2;

/// What makes a count a long run.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct LongRun {
    /// Where finished tasks are saved (and resumed from).
    pub checkpoint: Option<PathBuf>,
    /// How often the checkpoint is saved.
    pub every: Duration,
    /// Count only this shard's tasks.
    pub shard: Option<Shard>,
}

impl LongRun {
    /// A long run saving to `checkpoint` every `every`, counting `shard` (or all tasks).
    pub fn new(checkpoint: Option<PathBuf>, every: Duration, shard: Option<Shard>) -> LongRun {
        LongRun {
            checkpoint,
            every,
            shard,
        }
    }
}

/// How a long count ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every task of the plan is counted (not yet cross-checked: see [`Totals::cross_check`]).
    Whole(Totals),
    /// Every task of one shard is counted: the result for `merge`, sealed.
    Shard(ShardResult),
}

/// Counts an `n` board as `opts` and `long` say (see the module docs). Cancelled, it saves the
/// checkpoint and returns [`Error::Cancelled`].
pub fn run(n: u32, opts: &Options, long: &LongRun) -> Result<Outcome> {
    let fixed = long.checkpoint.is_some() || long.shard.is_some();
    if fixed {
        files_within_early(n, opts, long.shard)?;
    }
    let job = Job::new(n, opts, fixed.then_some(LONG_RUN_SPLIT_DEPTH))?;
    let tasks = job.tasks();
    // Expected work per task: the shard assignment and the progress both use it.
    let est =
        (job.reports_progress() || long.shard.is_some()).then(|| Work::of(job.counter().as_ref()));
    let scope: Vec<u32> = match (long.shard, &est) {
        (Some(s), Some(est)) => Assignment::new(est, s.count).ids(s.index),
        _ => (0..tasks as u32).collect(),
    };
    let job = records_within(job, (n, fixed), opts, long.shard, scope.len())?;
    // A symlinked checkpoint is written through; a read-only one, or one another run holds,
    // is refused before anything is counted.
    let path = long.checkpoint.as_deref().map(files::resolve).transpose()?;
    let _lock = path.as_deref().map(files::Lock::take).transpose()?;
    if let Some(p) = &path {
        files::remove_leftovers(p);
    }
    let ckpt = Checkpoint::new(job.id(), long.shard, scope.len());
    let mut saver = Saver::resuming(ckpt, path, long.every, fixed)?;
    saver.run = match job.kernel() {
        crate::Kernel::Gpu => {
            CountedBy::on_gpu(&crate::count::backtracking::kernel::gpu::available()?)
        }
        _ => CountedBy::here(job.build()),
    };
    let (resumed, resumed_tally) = resumed(&saver.ckpt, &scope, tasks)?;
    // Save at once: an unwritable path fails now, not after the first interval.
    saver.save()?;
    let ran = job.run_scope(&scope, &resumed, resumed_tally, est, &mut saver);
    // Whatever happened, what finished is kept.
    saver.save()?;
    let kept = (saver.finished + resumed.len(), scope.len());
    let ran = ran.map_err(|e| device_failed(e, long.checkpoint.as_deref(), kept))?;
    if ran.cancelled {
        let saved = long.checkpoint.as_ref().map(|p| p.display().to_string());
        return Err(ran.stopped(saver.finished + resumed.len(), scope.len(), saved));
    }
    let mut tally = resumed_tally;
    tally += ran.tally;
    if long.shard.is_none_or(|s| s.index == 0) {
        tally += job.counter().planned();
    }
    Ok(match long.shard {
        Some(shard) => Outcome::Shard(
            ShardResult {
                format: SHARD_FORMAT.into(),
                version: SHARD_VERSION,
                plan: job.id().clone(),
                shard,
                tasks: scope.len(),
                plan_tasks: tasks,
                counts: tally,
                kernel: (job.id().algorithm != Algorithm::Quadrants)
                    .then(|| job.kernel().name().into()),
                threads: job.threads(),
                seconds: ran.elapsed.as_secs_f64(),
                done: std::mem::take(&mut saver.ckpt.done),
                counted_by: saver.counted_by(),
                checksum: String::new(),
            }
            .sealed(),
        ),
        None => Outcome::Whole(job.totals(tally, ran.elapsed, resumed.len(), resumed_tally.nodes)),
    })
}

/// A device's failure (`Error::Device`) told with what the checkpoint `saved` kept (`done` of
/// `total` tasks) and how to go on; any other error as it is.
fn device_failed(e: Error, saved: Option<&Path>, (done, total): (usize, usize)) -> Error {
    match (e, saved) {
        (Error::Device(what), Some(p)) => Error::Device(format!(
            "{what}; checkpoint {} saved with {done} of {total} tasks done: run the same \
             command again to resume",
            p.display()
        )),
        (e, _) => e,
    }
}

/// A bound of the bytes a finished task's record takes in a checkpoint or shard file (about
/// 100 at N = 23: its id, total, classes and nodes in JSON).
const FILE_BYTES_PER_TASK: u64 = 128;

/// The fewest shards `count --shard I/K` accepts for a plan of `tasks` tasks whose method
/// needs at least `least` bytes of `limit`: each shard's file within what resume and merge
/// read ([`files::MAX_FILE_BYTES`]), and its ids and records within what the method leaves.
pub fn least_shards(tasks: usize, least: u64, limit: u64) -> u64 {
    let fewest = |per_shard: u64| (tasks as u64).div_ceil(per_shard.max(1));
    let by_file = fewest(files::MAX_FILE_BYTES / FILE_BYTES_PER_TASK);
    let by_records = fewest(limit.saturating_sub(least) / held_per_task(true));
    by_file.max(by_records).max(1)
}

/// The most tasks one checkpoint or shard file may hold: what `count` writes, so what a
/// reader accepts ([`files_within`]; a header that claims more was not written by `count`).
pub(crate) fn most_tasks_a_file() -> usize {
    (files::MAX_FILE_BYTES / FILE_BYTES_PER_TASK) as usize
}

/// Refuses, before anything is counted, a run whose checkpoint or shard file would pass what
/// resume and merge read ([`files::MAX_FILE_BYTES`]): the work would be done and its file
/// refused. Says how many shards would make files that fit.
fn files_within((n, tasks): (u32, usize), shard: Option<Shard>, scope: usize) -> Result<()> {
    if scope <= most_tasks_a_file() {
        return Ok(());
    }
    let what = run_name(n, shard);
    let shards = (tasks as u64 * FILE_BYTES_PER_TASK).div_ceil(files::MAX_FILE_BYTES);
    Err(Error::Usage(format!(
        "{what} has {scope} tasks: its checkpoint or shard file would pass the {} that \
         resume and merge read (about 100 bytes a task); count it in at least {shards} shards \
         (`shard`)",
        crate::count::memory::show(files::MAX_FILE_BYTES)
    )))
}

/// The run a refusal names: a shard of the plan, or the whole count.
fn run_name(n: u32, shard: Option<Shard>) -> String {
    match shard {
        Some(s) => format!("shard {}/{} of N = {n}", s.index, s.count),
        None => format!("a count of N = {n} in one run"),
    }
}

/// Refuses, from the plan's task count alone, before the method is planned (its budget builds
/// slices of sampled row sets for seconds at the largest N), a run of the quadrant method
/// past its table whose checkpoint or shard file would not fit ([`files_within`]).
fn files_within_early(n: u32, opts: &Options, shard: Option<Shard>) -> Result<()> {
    if opts.resolved_algorithm(n) != Algorithm::Quadrants
        || n <= crate::count::quadrants::TABLE_MAX_N
        || crate::count::quadrants::applies(n).is_err()
    {
        return Ok(());
    }
    let q = crate::count::quadrants::Quadrants::unfilled(n, &opts.quadrants)?;
    let tasks = crate::count::engine::Counter::tasks(&q);
    let scope = match shard {
        Some(s) => Assignment::new(&Work::of(&q), s.count).len(s.index),
        None => tasks,
    };
    files_within((n, tasks), shard, scope)
}

/// Bytes a run holds for each task of its scope: its id in the scope and in the to-do list,
/// and, in a run that writes a file (`keeps`: checkpointed or sharded), its record once
/// finished (for the checkpoint or the shard file; a whole count without a file keeps none).
fn held_per_task(keeps: bool) -> u64 {
    let record = if keeps {
        std::mem::size_of::<Done>()
    } else {
        0
    };
    (2 * std::mem::size_of::<u32>() + record) as u64
}

/// `job` for a run of `scope` tasks, with what the run holds for them in its memory estimate,
/// if it states one (the quadrant method, whose largest plans have hundreds of millions of
/// tasks). The records come first: where they and the method's estimate pass the memory
/// limit, the method is planned again within what they leave (it works in smaller pieces),
/// and refused, with the shards that would fit, where they leave it too little. A run that
/// writes a file (`fixed`: checkpointed or sharded) is first checked by [`files_within`].
fn records_within(
    job: Job,
    (n, fixed): (u32, bool),
    opts: &Options,
    shard: Option<Shard>,
    scope: usize,
) -> Result<Job> {
    if fixed {
        files_within((n, job.tasks()), shard, scope)?;
    }
    let depth = fixed.then_some(LONG_RUN_SPLIT_DEPTH);
    let held = scope as u64 * held_per_task(fixed);
    let Some(need) = job.memory_estimate() else {
        return Ok(job);
    };
    let limit = opts
        .max_memory
        .unwrap_or_else(crate::count::memory::default_limit);
    if need.saturating_add(held) <= limit {
        let mut job = job;
        job.hold(held);
        return Ok(job);
    }
    // Planned again within what the records leave, the first plan dropped first: the limit is
    // the whole process's.
    let refused = records_refused(&job, (shard, fixed), (scope, held), limit);
    let rest = opts
        .clone()
        .with_algorithm(job.id().algorithm)
        .with_max_memory(limit.saturating_sub(held));
    drop(job);
    match Job::new(n, &rest, depth) {
        Ok(mut j) => {
            j.hold(held);
            Ok(j)
        }
        Err(Error::Memory(_)) => Err(refused),
        Err(e) => Err(e),
    }
}

/// Why a run's records leave its method too little memory, and how many shards would not.
fn records_refused(
    job: &Job,
    (shard, keeps): (Option<Shard>, bool),
    (scope, held): (usize, u64),
    limit: u64,
) -> Error {
    let show = crate::count::memory::show;
    let what = run_name(job.id().n, shard);
    let records = if keeps {
        " and a record of each finished one for its file"
    } else {
        ""
    };
    // What fits: the method's least limit and the records beside it; or, within this limit,
    // shards (which keep records for their files) whose records leave the method its least.
    let least = job.least_memory().unwrap_or(0);
    let room = limit.saturating_sub(least);
    let shards = (room > 0).then(|| {
        (job.tasks() as u64 * held_per_task(true))
            .div_ceil(room)
            .max(shard.map_or(2, |s| u64::from(s.count) + 1))
    });
    let instead = match shards {
        Some(k) if k <= u64::from(MAX_SHARDS) => {
            format!(
                ", or count the plan in at least {k} shards (`shard`, K = {k}) within this limit"
            )
        }
        _ => String::new(),
    };
    Error::Memory(format!(
        "{what} keeps the ids of its {scope} tasks{records}, {}, which leaves the method less \
         than the {} it needs of the {} allowed (`max_memory`; the default is half of the \
         available memory): give `max_memory` of at least {}{instead}",
        show(held),
        show(least),
        show(limit),
        show(least.saturating_add(held)),
    ))
}

/// The tasks a checkpoint holds and their summed tally, checked against the plan's `tasks`
/// and the count's `scope`.
fn resumed(ckpt: &Checkpoint, scope: &[u32], tasks: usize) -> Result<(Vec<u32>, Tally)> {
    let mut in_scope = vec![false; tasks];
    for &i in scope {
        in_scope[i as usize] = true;
    }
    let mut tally = Tally::default();
    for d in &ckpt.done {
        if d.id as usize >= tasks {
            return Err(Error::Input(format!(
                "the checkpoint lists task {}, but this plan has {tasks} tasks",
                d.id
            )));
        }
        if !in_scope[d.id as usize] {
            return Err(Error::Input(
                "the checkpoint lists tasks outside this count's scope".into(),
            ));
        }
        tally += d.counts;
    }
    Ok((ckpt.done.iter().map(|d| d.id).collect(), tally))
}

/// The observer that keeps the checkpoint: every finished task, saved every `every`.
struct Saver {
    ckpt: Checkpoint,
    /// This run: where it counts, and how many tasks it has counted.
    run: CountedBy,
    /// Whether finished tasks' records are kept (for a checkpoint or a shard file).
    keeps: bool,
    /// The tasks this run finished.
    finished: usize,
    path: Option<PathBuf>,
    every: Duration,
    last: Instant,
}

impl Saver {
    /// The saver of a run with a fresh checkpoint `ckpt`, replaced by the one at `path` if
    /// there is one (a resumed run); records kept if `keeps`.
    fn resuming(
        ckpt: Checkpoint,
        path: Option<PathBuf>,
        every: Duration,
        keeps: bool,
    ) -> Result<Saver> {
        let old = match &path {
            Some(p) => Checkpoint::load(p, &ckpt)?,
            None => None,
        };
        Ok(Saver {
            ckpt: old.unwrap_or(ckpt),
            run: CountedBy::here(crate::count::arch::Build::Portable),
            keeps,
            finished: 0,
            path,
            every,
            last: Instant::now(),
        })
    }

    /// Who counted the tasks the checkpoint holds: the runs it was resumed from, and this one.
    fn counted_by(&self) -> Vec<CountedBy> {
        provenance::with(self.ckpt.counted_by.clone(), &self.run)
    }

    fn save(&mut self) -> Result<()> {
        if let Some(path) = &self.path {
            let all = self.counted_by();
            let before = std::mem::replace(&mut self.ckpt.counted_by, all);
            let saved = self.ckpt.save(Path::new(path));
            self.ckpt.counted_by = before;
            saved?;
        }
        self.last = Instant::now();
        Ok(())
    }
}

impl Observer for Saver {
    fn finished(&mut self, id: u32, tally: &Tally) -> Result<()> {
        self.finished += 1;
        self.run.tasks += 1;
        if self.keeps {
            self.ckpt.done.push(Done { id, counts: *tally });
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<()> {
        if self.path.is_some() && self.last.elapsed() >= self.every {
            self.save()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::engine::Counter;

    /// A GPU that failed mid-count says what the checkpoint kept and how to go on; without a
    /// checkpoint, and for any other error, the error is as it was.
    #[test]
    fn a_device_failure_says_what_the_checkpoint_kept() {
        let e = Error::Device("CUDA_ERROR_LAUNCH_FAILED".into());
        let told = device_failed(e.clone(), Some(Path::new("run.ckpt")), (3, 10));
        assert_eq!(
            told.to_string(),
            "the GPU failed in the middle of the count: CUDA_ERROR_LAUNCH_FAILED; checkpoint \
             run.ckpt saved with 3 of 10 tasks done: run the same command again to resume"
        );
        assert_eq!(told.exit_code(), 1);
        assert_eq!(device_failed(e.clone(), None, (3, 10)), e);
        let other = Error::Pool("gone".into());
        assert_eq!(
            device_failed(other.clone(), Some(Path::new("x")), (1, 2)),
            other
        );
    }
    use crate::count::quadrants::{Quadrants, Settings};

    /// Issue 56, 14: the reference's limits table states the fewest shards a whole N = 27 and
    /// N = 28 need for their files to be read, as the code works it out (it said 12 and 249,
    /// the plans before the record plan).
    #[test]
    fn the_reference_states_the_fewest_shards_of_the_record_boards() {
        let doc = include_str!("../../docs/guide/reference.md");
        let fewest = |n: u32| {
            let tasks = Quadrants::unfilled(n, &Settings::default())
                .unwrap()
                .tasks();
            (tasks as u64 * FILE_BYTES_PER_TASK).div_ceil(files::MAX_FILE_BYTES)
        };
        let said = format!(
            "a whole N = 27 needs at least {}, N = 28 at least {}",
            fewest(27),
            fewest(28)
        );
        assert!(
            doc.contains(&said),
            "docs/guide/reference.md should say: {said}"
        );
    }
}
