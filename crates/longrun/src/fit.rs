//! What a long run must fit in before it starts: its checkpoint or shard file within what
//! resume and merge read, and the records it keeps for that file within its memory limit
//! beside the method's own. A run that would not fit is refused before anything is counted,
//! saying how many shards would.

use crate::distributed::shard::{Assignment, Shard, MAX_SHARDS};
use crate::files::disk::MAX_FILE_BYTES;
use crate::files::record::Done;
use nqueens_board::error::{Error, Result};
use nqueens_count::engine::Work;
use nqueens_count::{memory, Job, Options};

/// A bound of the bytes a finished task's record takes in a checkpoint or shard file (about
/// 100 at N = 23: its id, total, classes and nodes in JSON).
const FILE_BYTES_PER_TASK: u64 = 128;

/// What a run is, for the checks of what it must fit in.
#[derive(Debug, Clone, Copy)]
pub struct RunShape {
    /// The board.
    pub n: u32,
    /// The shard it counts, if it is one.
    pub shard: Option<Shard>,
    /// The tasks of its scope (the shard's, or the whole plan's).
    pub scope: usize,
    /// Whether it keeps a record of each finished task, for a checkpoint or a shard file.
    pub keeps: bool,
}

impl RunShape {
    /// The run a refusal names: a shard of the plan, or the whole count.
    fn name(&self) -> String {
        match self.shard {
            Some(s) => format!("shard {}/{} of N = {}", s.index, s.count, self.n),
            None => format!("a count of N = {} in one run", self.n),
        }
    }
}

/// The fewest shards `count --shard I/K` accepts for a plan of `tasks` tasks whose method
/// needs at least `least` bytes of `limit`: each shard's file within what resume and merge
/// read ([`MAX_FILE_BYTES`]), and its ids and records within what the method leaves.
pub fn least_shards(tasks: usize, least: u64, limit: u64) -> u64 {
    let fewest = |per_shard: u64| (tasks as u64).div_ceil(per_shard.max(1));
    let by_file = fewest(MAX_FILE_BYTES / FILE_BYTES_PER_TASK);
    let by_records = fewest(limit.saturating_sub(least) / held_per_task(true));
    by_file.max(by_records).max(1)
}

/// The most tasks one checkpoint or shard file may hold: what `count` writes, so what a
/// reader accepts ([`files_within`]; a header that claims more was not written by `count`).
pub(crate) fn most_tasks_a_file() -> usize {
    (MAX_FILE_BYTES / FILE_BYTES_PER_TASK) as usize
}

/// The fewest shards whose files hold a plan of `tasks` tasks.
pub(crate) fn shards_for_files(tasks: usize) -> u64 {
    (tasks as u64 * FILE_BYTES_PER_TASK).div_ceil(MAX_FILE_BYTES)
}

/// Refuses, before anything is counted, a run whose checkpoint or shard file would pass what
/// resume and merge read ([`MAX_FILE_BYTES`]): the work would be done and its file refused.
/// Says how many shards of the plan's `plan_tasks` would make files that fit.
fn files_within(run: &RunShape, plan_tasks: usize) -> Result<()> {
    if run.scope <= most_tasks_a_file() {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{} has {} tasks: its checkpoint or shard file would pass the {} that resume and \
         merge read (about 100 bytes per task); count it in at least {} shards (`shard`)",
        run.name(),
        run.scope,
        memory::show(MAX_FILE_BYTES),
        shards_for_files(plan_tasks),
    )))
}

/// The fewest shards a count of an `n` board as `opts` say must be split into for its
/// checkpoint or shard files to fit within what resume and merge read, where one file cannot
/// hold the whole plan; `None` where it can, or where the method cannot say its tasks early (a
/// plan whose tasks are few enough is planned in full, and refused there if need be).
pub fn shards_needed_early(n: u32, opts: &Options) -> Result<Option<u64>> {
    let Some(plan) = Job::tasks_early(n, opts)? else {
        return Ok(None);
    };
    let tasks = plan.tasks();
    Ok((tasks > most_tasks_a_file()).then(|| shards_for_files(tasks)))
}

/// Refuses, from the plan's task count alone and before the method is planned in full, a
/// run whose checkpoint or shard file would not fit ([`files_within`]), where the method can
/// say its tasks early (the quadrant method past its table, whose full planning takes
/// seconds at the largest N).
pub fn files_within_early(n: u32, opts: &Options, shard: Option<Shard>) -> Result<()> {
    let Some(plan) = Job::tasks_early(n, opts)? else {
        return Ok(());
    };
    let tasks = plan.tasks();
    let scope = match shard {
        Some(s) => Assignment::new(&Work::of(plan.as_ref()), s.count).len(s.index),
        None => tasks,
    };
    let run = RunShape {
        n,
        shard,
        scope,
        keeps: true,
    };
    files_within(&run, tasks)
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

/// `job` for `run`, with what the run holds for its tasks in its memory estimate, if it
/// states one (the quadrant method, whose largest plans have hundreds of millions of tasks).
/// The records come first: where they and the method's estimate pass the memory limit, the
/// method is planned again within what they leave (it works in smaller pieces), and refused,
/// with the shards that would fit, where they leave it too little. A run that writes a file
/// is first checked by [`files_within`].
pub fn records_within(job: Job, run: &RunShape, opts: &Options, depth: u32) -> Result<Job> {
    if run.keeps {
        files_within(run, job.tasks())?;
    }
    let held = run.scope as u64 * held_per_task(run.keeps);
    let Some(need) = job.memory_estimate() else {
        return Ok(job);
    };
    let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
    if need.saturating_add(held) <= limit {
        let mut job = job;
        job.hold(held);
        return Ok(job);
    }
    // Planned again within what the records leave, the first plan dropped first: the limit is
    // the whole process's.
    let refused = records_refused(&job, run, held, limit);
    let rest = opts
        .clone()
        .with_algorithm(job.id().algorithm)
        .with_max_memory(limit.saturating_sub(held));
    drop(job);
    match Job::new(run.n, &rest, run.keeps.then_some(depth)) {
        Ok(mut j) => {
            j.hold(held);
            Ok(j)
        }
        Err(Error::Memory(_)) => Err(refused),
        Err(e) => Err(e),
    }
}

/// Why a run's records (`held` bytes) leave its method too little of `limit`, and how many
/// shards would not.
fn records_refused(job: &Job, run: &RunShape, held: u64, limit: u64) -> Error {
    let show = memory::show;
    let records = if run.keeps {
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
            .max(run.shard.map_or(2, |s| u64::from(s.count) + 1))
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
        "{} keeps the ids of its {} tasks{records}, {}, which leaves the method less than the \
         {} it needs of the {} allowed (`max_memory`; the default is half of the available \
         memory): give `max_memory` of at least {}{instead}",
        run.name(),
        run.scope,
        show(held),
        show(least),
        show(limit),
        show(least.saturating_add(held)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference's limits table states the fewest shards a whole N = 27 and N = 28 need
    /// for their files to be read, as the code works it out.
    #[test]
    fn the_reference_states_the_fewest_shards_of_the_record_boards() {
        let doc = include_str!("../../../docs/guide/reference.md");
        let fewest = |n: u32| {
            let plan = Job::tasks_early(n, &Options::default()).unwrap().unwrap();
            shards_for_files(plan.tasks())
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
