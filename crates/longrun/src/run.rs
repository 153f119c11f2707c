//! A long count: with a checkpoint that survives a crash, or of one shard for a run on many
//! machines.
//!
//! [`run`] counts the tasks in scope (the plan's, or a shard's) that a checkpoint does not
//! already hold. Each finished task streams to the checkpoint, which is saved every
//! [`LongRun::every`], at the end, and when the cancel flag stops the count (the tasks in
//! flight are not waited for; they are counted again on resume).

use crate::distributed::merge::{ShardResult, SHARD_FORMAT, SHARD_VERSION};
use crate::distributed::shard::{Assignment, Shard};
use crate::files::checkpoint::{Checkpoint, Done};
use crate::files::disk;
use crate::files::lock;
use crate::files::provenance::{self, CountedBy};
use crate::fit::{files_within_early, records_within, RunShape};
use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use nqueens_count::algorithm::Algorithm;
use nqueens_count::engine::{Observer, Work};
use nqueens_count::tally::Tally;
use nqueens_count::{Job, Options, Totals};
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

    /// Refuses `output` as the file of the result where it is this run's checkpoint or its
    /// lock file, however spelled: the result would replace the checkpoint and be removed
    /// with it when the shard finishes.
    pub fn check_output(&self, output: &Path) -> Result<()> {
        match &self.checkpoint {
            Some(c) => lock::check_not_checkpoint(output, c),
            None => Ok(()),
        }
    }

    /// Ends the checkpoint's life once a shard's result is saved in a file of its own: the
    /// checkpoint (through a symlink, the file it points to) and its lock file are removed.
    /// Nothing is removed where the run keeps no checkpoint.
    pub fn result_saved(&self) {
        if let Some(c) = &self.checkpoint {
            lock::remove_checkpoint(&lock::resolve(c).unwrap_or_else(|_| c.clone()));
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
    let shape = RunShape {
        n,
        shard: long.shard,
        scope: scope.len(),
        keeps: fixed,
    };
    let job = records_within(job, &shape, opts, LONG_RUN_SPLIT_DEPTH)?;
    // A symlinked checkpoint is written through; a read-only one, or one another run holds,
    // is refused before anything is counted.
    let path = long.checkpoint.as_deref().map(lock::resolve).transpose()?;
    let _lock = path.as_deref().map(lock::Lock::take).transpose()?;
    if let Some(p) = &path {
        disk::remove_leftovers(p);
    }
    let ckpt = Checkpoint::new(job.id(), long.shard, scope.len());
    let mut saver = Saver::resuming(ckpt, path, long.every, fixed)?;
    saver.run = match job.device() {
        Some(device) => CountedBy::on_device(device),
        None => CountedBy::here(job.build()),
    };
    let (resumed, resumed_tally) = resumed(&saver.ckpt, &scope, tasks)?;
    // Save at once: an unwritable path fails now, not after the first interval.
    saver.save()?;
    let ran = job.run_scope(&scope, &resumed, resumed_tally, est, &mut saver);
    // Whatever happened, what finished is kept.
    saver.save()?;
    let kept = TasksDone {
        done: saver.finished + resumed.len(),
        of: scope.len(),
    };
    let ran = ran.map_err(|e| device_failed(e, long.checkpoint.as_deref(), kept))?;
    if ran.cancelled {
        let saved = long.checkpoint.as_ref().map(|p| p.shown().to_string());
        return Err(ran.stopped(saver.finished + resumed.len(), scope.len(), saved));
    }
    let mut tally = resumed_tally;
    tally += ran.tally;
    if long.shard.is_none_or(|s| s.index == 0) {
        tally += job.counter().planned();
    }
    Ok(match long.shard {
        Some(shard) => {
            let seconds = saver.earlier_seconds + ran.elapsed.as_secs_f64();
            let resumed = resumed.len();
            Outcome::Shard(shard_result(
                &job, shard, tally, seconds, resumed, &mut saver,
            ))
        }
        None => Outcome::Whole(job.totals(tally, ran.elapsed, resumed.len(), resumed_tally.nodes)),
    })
}

/// The sealed result of `shard` of `job`'s plan, counted to `tally` in `seconds` (every run
/// of it), `resumed` of its tasks by earlier runs, with the records and provenance `saver`
/// kept.
fn shard_result(
    job: &Job,
    shard: Shard,
    tally: Tally,
    seconds: f64,
    resumed: usize,
    saver: &mut Saver,
) -> ShardResult {
    ShardResult {
        format: SHARD_FORMAT.into(),
        version: SHARD_VERSION,
        plan: job.id().clone(),
        shard,
        tasks: saver.ckpt.tasks,
        plan_tasks: job.tasks(),
        counts: tally,
        kernel: (job.id().algorithm != Algorithm::Quadrants).then(|| job.backend().name().into()),
        threads: job.threads(),
        seconds,
        resumed_tasks: resumed,
        done: std::mem::take(&mut saver.ckpt.done),
        counted_by: saver.counted_by(),
        checksum: String::new(),
    }
    .sealed()
}

/// How many of a run's tasks are done.
#[derive(Debug, Clone, Copy)]
struct TasksDone {
    done: usize,
    of: usize,
}

/// A device's failure (`Error::Device`) told with what the checkpoint `saved` kept and how to
/// go on; any other error as it is.
fn device_failed(e: Error, saved: Option<&Path>, kept: TasksDone) -> Error {
    match (e, saved) {
        (Error::Device(what), Some(p)) => Error::Device(format!(
            "{what}; checkpoint {} saved with {} of {} tasks done: run the same command again \
             to resume",
            p.shown(),
            kept.done,
            kept.of,
        )),
        (e, _) => e,
    }
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
    /// The counting seconds the checkpoint held when this run began (its earlier runs').
    earlier_seconds: f64,
    /// When this run began.
    started: Instant,
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
        let ckpt = old.unwrap_or(ckpt);
        Ok(Saver {
            earlier_seconds: ckpt.seconds,
            started: Instant::now(),
            ckpt,
            run: CountedBy::here(nqueens_count::arch::Build::Portable),
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

    /// The seconds the runs of this count have spent counting: the earlier ones' and this
    /// one's so far.
    fn seconds(&self) -> f64 {
        self.earlier_seconds + self.started.elapsed().as_secs_f64()
    }

    fn save(&mut self) -> Result<()> {
        // A run that finished no task (one resumed on a finished checkpoint, say) leaves
        // the file as it was, its seconds included.
        if self.finished > 0 {
            self.ckpt.seconds = self.seconds();
        }
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

    /// A GPU that failed mid-count says what the checkpoint kept and how to go on; without a
    /// checkpoint, and for any other error, the error is as it was.
    #[test]
    fn a_device_failure_says_what_the_checkpoint_kept() {
        let e = Error::Device("CUDA_ERROR_LAUNCH_FAILED".into());
        let kept = TasksDone { done: 3, of: 10 };
        let told = device_failed(e.clone(), Some(Path::new("run.ckpt")), kept);
        assert_eq!(
            told.to_string(),
            "the GPU failed in the middle of the count: CUDA_ERROR_LAUNCH_FAILED; checkpoint \
             run.ckpt saved with 3 of 10 tasks done: run the same command again to resume"
        );
        assert_eq!(told.exit_code(), 1);
        assert_eq!(device_failed(e.clone(), None, kept), e);
        let other = Error::Pool("gone".into());
        assert_eq!(
            device_failed(other.clone(), Some(Path::new("x")), kept),
            other
        );
    }
}
