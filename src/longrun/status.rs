//! Status of a distributed run: which shards are finished, which are under way (a checkpoint)
//! and how far, which have nothing yet, and what is left. It only reads, and it checks every
//! file of the run as `merge` does ([`Against`]); a run whose shards are all there is merged
//! and compared with the known values, as `merge` would.
//!
//! The files of one run are found by their contents, not their names: every shard result and
//! checkpoint names its plan (fingerprint) and its shard `I/K`. The run is the plan and `K` that
//! most files belong to; files of any other count are *foreign* and listed as such.

use super::check::Against;
use super::checkpoint::Checkpoint;
use super::merge::{Merged, Merger};
use super::shard::Assignment;
pub use super::walk::{files, listed, DIRECTORY_DEPTH};
use super::RunFile;
use crate::count::engine::Work;
use crate::count::plan_id::PlanId;
use crate::count::Options;
use crate::error::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Where one shard stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum ShardState {
    /// Its result is there.
    Finished {
        /// The result file.
        file: String,
        /// Its solutions.
        solutions: u128,
        /// Its wall time, in seconds.
        seconds: f64,
    },
    /// A checkpoint holds some of its tasks.
    Partial {
        /// The checkpoint file.
        file: String,
        /// Tasks done.
        done: usize,
        /// Tasks in the shard.
        tasks: usize,
        /// Share of the shard's expected work done, 0 to 1.
        work: f64,
        /// Solutions in the tasks done.
        solutions: u128,
    },
    /// Nothing yet.
    Missing,
}

/// The status of a distributed run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Status {
    /// The plan, described (`N=…, algorithm …, split depth …`).
    pub plan: String,
    /// N.
    pub n: u32,
    /// The plan's fingerprint.
    pub fingerprint: String,
    /// Shards in the run (K).
    pub shards: u32,
    /// Each shard's state, by index.
    pub states: Vec<ShardState>,
    /// Finished shards.
    pub finished: usize,
    /// Shards with a checkpoint and no result.
    pub partial: usize,
    /// Shards with nothing.
    pub missing: usize,
    /// Solutions in the finished shards and the checkpoints' tasks.
    pub solutions_so_far: u128,
    /// Share of the whole run's expected work done, 0 to 1.
    pub work_done: f64,
    /// Estimated seconds of shard time left, at the finished shards' pace (per unit of
    /// expected work); `None` until a shard is finished.
    pub seconds_left: Option<f64>,
    /// Files that belong to other counts.
    pub foreign: Vec<String>,
    /// Files found in a directory that were gone when they were read (a shard finishing
    /// while status reads: its checkpoint removed): in flux, not an error; read again.
    pub vanished: Vec<String>,
    /// Files of the run that cannot be read or are damaged (corrupt or truncated), each with
    /// why: the other shards are still reported, and the run is not complete.
    pub damaged: Vec<String>,
    /// The merged run, when every shard is finished and the merge succeeds.
    #[serde(skip)]
    pub merged: Option<Merged>,
    /// Why the finished shards do not merge, or disagree with the known values, when all are
    /// there: what `merge` would say (and its exit code).
    #[serde(skip)]
    pub merge_error: Option<Error>,
}

impl Status {
    /// Whether the run is complete: every shard finished, nothing foreign, the merge
    /// succeeds and agrees with the known values.
    pub fn complete(&self) -> bool {
        self.merged.is_some()
            && self.merge_error.is_none()
            && self.foreign.is_empty()
            && self.damaged.is_empty()
    }
}

/// The run a file belongs to: its plan and shard count (none for a whole count's checkpoint).
fn key(f: &RunFile) -> Option<(PlanId, u32)> {
    match f {
        RunFile::Shard(r) => Some((r.plan.clone(), r.shard.count)),
        RunFile::Checkpoint(c) => c.shard.map(|s| (c.plan.clone(), s.count)),
    }
}

/// Reads `files` (see [`files`]) and says where the run stands. A file that cannot be read,
/// or is damaged, is named in [`Status::damaged`] and the others are still reported; one
/// that vanished since it was found is named in [`Status::vanished`]; a JSON file that is
/// neither a shard result nor a checkpoint is skipped. A file that fails a check of the run
/// (its plan, its shard's tasks) is an error naming it. The files are read twice, one at a
/// time (first to find the run, then to check and add up each): what is held does not grow
/// with the records, only a few bytes a shard.
///
/// `None` when no file is a shard result or a shard checkpoint (a whole count's checkpoint
/// says where that count stands: [`whole_runs`]).
pub fn status(files: &[PathBuf], opts: &Options) -> Result<Option<Status>> {
    let Some((plan, k, first)) = find_run(files) else {
        return no_run(files);
    };
    let against = Against::new(&plan, opts, &first)?;
    let work = against.identity().work.clone();
    let mut plan_of_run = Some(against);
    let shard_work = Assignment::new(&work, k).loads(&work);
    let all_work: f64 = shard_work.iter().sum::<f64>().max(1.0);
    let mut states = vec![ShardState::Missing; k as usize];
    let mut foreign = Vec::new();
    let mut merger: Option<Merger> = None;
    let mut merge_error = None;
    let mut skipped = Skipped::default();
    for f in files {
        let Some((name, file)) = skipped.run_file(f) else {
            continue;
        };
        if key(&file).as_ref() != Some(&(plan.clone(), k)) {
            foreign.push(name);
            continue;
        }
        // The plan is rebuilt once: held here until the first result, then by the merge.
        let against = match (&mut merger, &mut plan_of_run) {
            (Some(m), _) => m.against(),
            (None, Some(a)) => a,
            (None, None) => unreachable!("the plan is held here or by the merge"),
        };
        match file {
            RunFile::Shard(r) => {
                against.shard(&name, &r)?;
                let i = r.shard.index as usize;
                states[i] = ShardState::Finished {
                    file: name.clone(),
                    solutions: r.counts.total,
                    seconds: r.seconds,
                };
                if merger.is_none() {
                    let a = plan_of_run.take().expect("the plan");
                    merger = Some(Merger::with(a, &name, &r)?);
                }
                if merge_error.is_none() {
                    let m = merger.as_mut().expect("the merge");
                    merge_error = m.add_checked(&name, &r).err();
                }
            }
            RunFile::Checkpoint(c) => {
                against.checkpoint(&name, &c)?;
                let Some(s) = c.shard else { continue };
                let i = s.index as usize;
                if matches!(states[i], ShardState::Finished { .. }) {
                    continue;
                }
                states[i] = partial(name, &c, &work, shard_work[i])?;
            }
        }
    }
    let mut s = summarise(
        plan,
        k,
        states,
        foreign,
        (merger, merge_error),
        &shard_work,
        all_work,
    )?;
    (s.vanished, s.damaged) = (skipped.vanished, skipped.damaged);
    Ok(Some(s))
}

/// [`status`] of files among which no run is found: the first damaged file of ours says why
/// (as when it is the only one given), else `None`.
fn no_run(files: &[PathBuf]) -> Result<Option<Status>> {
    let damaged = files.iter().find_map(|f| match read_found(f) {
        Found::Damaged(why) => Some(why),
        _ => None,
    });
    damaged.map_or(Ok(None), |why| Err(Error::Input(why)))
}

/// The files [`status`] found that it did not read as the run's: gone, or damaged.
#[derive(Default)]
struct Skipped {
    vanished: Vec<String>,
    damaged: Vec<String>,
}

impl Skipped {
    /// File `f` read ([`read_found`]): a file of a run, or `None` (another file, or one
    /// vanished or damaged, noted here).
    fn run_file(&mut self, f: &Path) -> Option<(String, RunFile)> {
        match read_found(f) {
            Found::Run(name, file) => return Some((name, *file)),
            Found::Other => {}
            Found::Vanished(name) => self.vanished.push(name),
            Found::Damaged(why) => self.damaged.push(why),
        }
        None
    }
}

/// Where a count of a whole board in one run stands, from its checkpoint (`count N
/// --checkpoint FILE` without `--shard`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WholeRun {
    /// The checkpoint.
    pub file: String,
    /// The plan, described.
    pub plan: String,
    /// N.
    pub n: u32,
    /// The plan's fingerprint.
    pub fingerprint: String,
    /// Tasks in the plan.
    pub tasks: usize,
    /// Tasks done.
    pub done: usize,
    /// Solutions in the tasks done.
    pub solutions_so_far: u128,
    /// Share of the plan's expected work done, 0 to 1.
    pub work_done: f64,
    /// The core-seconds left, by the rough scale a count states before it starts (the whole
    /// count's a(N) × the method's rough cost a solution, times the share of work left):
    /// `estimate N` measures it.
    pub core_seconds_left: f64,
}

/// Where each whole count whose checkpoint is among `files` stands ([`WholeRun`]): a run with
/// no shards has no shard results for [`status`] to find. Each checkpoint is checked against
/// its plan as every reader checks it.
pub fn whole_runs(files: &[PathBuf], opts: &Options) -> Result<Vec<WholeRun>> {
    let mut out = Vec::new();
    for f in files {
        let Found::Run(name, file) = read_found(f) else {
            continue;
        };
        let RunFile::Checkpoint(c) = *file else {
            continue;
        };
        if c.shard.is_some() {
            continue;
        }
        let mut against = Against::new(&c.plan, opts, &name)?;
        against.checkpoint(&name, &c)?;
        let work = &against.identity().work;
        let all: f64 = (0..against.identity().tasks as u32)
            .map(|id| work.at(id) as f64)
            .sum::<f64>()
            .max(1.0);
        let done: f64 = c.done.iter().map(|d| work.at(d.id) as f64).sum();
        let solutions = solutions_of(&name, &c)?;
        let share = (done / all).min(1.0);
        out.push(WholeRun {
            file: name,
            plan: c.plan.describe(),
            n: c.plan.n,
            fingerprint: c.plan.fingerprint.clone(),
            tasks: c.tasks,
            done: c.done.len(),
            solutions_so_far: solutions,
            work_done: share,
            core_seconds_left: c.plan.algorithm.rough_core_seconds(c.plan.n) * (1.0 - share),
        });
    }
    Ok(out)
}

/// The run `files` are of: the (plan, K) most of them belong to, and the first file of it;
/// `None` when no file is a shard result or a shard checkpoint.
fn find_run(files: &[PathBuf]) -> Option<(PlanId, u32, String)> {
    let mut keys: Vec<((PlanId, u32), usize, String)> = Vec::new();
    for f in files {
        if let Found::Run(_, file) = read_found(f) {
            if let Some(k) = key(&file) {
                match keys.iter_mut().find(|(key, _, _)| *key == k) {
                    Some((_, c, _)) => *c += 1,
                    None => keys.push((k, 1, f.display().to_string())),
                }
            }
        }
    }
    let ((plan, k), _, first) = keys.into_iter().max_by_key(|(_, c, _)| *c)?;
    Some((plan, k, first))
}

/// Where a checkpoint of shard `i` stands: its tasks' share of the shard's work and their
/// solutions (summed without overflow).
fn partial(name: String, c: &Checkpoint, work: &Work, shard_work: f64) -> Result<ShardState> {
    let done_work: f64 = c
        .done
        .iter()
        .filter_map(|d| work.get(d.id))
        .fold(0.0, |a, e| a + e as f64);
    let solutions = solutions_of(&name, c)?;
    Ok(ShardState::Partial {
        file: name,
        done: c.done.len(),
        tasks: c.tasks,
        work: (done_work / shard_work.max(1.0)).min(1.0),
        solutions,
    })
}

/// The solutions of checkpoint `c`'s tasks (file `name`), summed without overflow.
fn solutions_of(name: &str, c: &Checkpoint) -> Result<u128> {
    c.done.iter().try_fold(0u128, |s, d| {
        s.checked_add(d.counts.total).ok_or_else(|| {
            Error::Input(format!(
                "{name}: its tasks' counts add up past 2^128: it was forged or damaged"
            ))
        })
    })
}

/// The shard result or checkpoint in `f`, with its name; `None` for a file that is neither.
/// What reading one of the files found gave.
enum Found {
    /// A file of a run (boxed: it is large beside the others).
    Run(String, Box<RunFile>),
    /// Another file (JSON of another kind).
    Other,
    /// Gone since it was found (a finished shard's checkpoint removed meanwhile).
    Vanished(String),
    /// A file of ours that cannot be read or is damaged: its name and why.
    Damaged(String),
}

/// Reads `f` ([`read_run_file`]), telling a file that vanished since it was found, and one
/// that is damaged, from the others: neither ends the report.
fn read_found(f: &Path) -> Found {
    let gone = || std::fs::symlink_metadata(f).is_err();
    match read_run_file(f) {
        Ok(Some((name, file))) => Found::Run(name, Box::new(file)),
        Ok(None) if gone() => Found::Vanished(f.display().to_string()),
        Ok(None) => Found::Other,
        Err(_) if gone() => Found::Vanished(f.display().to_string()),
        Err(e) => Found::Damaged(e.to_string()),
    }
}

fn read_run_file(f: &Path) -> Result<Option<(String, RunFile)>> {
    // A file that cannot be read is a file of the run that fails (exit 2), never "not yet"
    // (exit 1): a script waiting for 0 would wait for ever.
    let read = RunFile::read(f).map_err(|e| match e {
        Error::Io { .. } => Error::Input(e.to_string()),
        e => e,
    });
    Ok(read?.map(|r| (f.display().to_string(), r)))
}

/// What the shards' states add up to.
struct Counted {
    finished: usize,
    partial: usize,
    missing: usize,
    solutions: u128,
    done_work: f64,
    fin_work: f64,
    fin_seconds: f64,
}

fn counted(states: &[ShardState], shard_work: &[f64]) -> Result<Counted> {
    let (mut finished, mut partial, mut missing) = (0, 0, 0);
    let (mut solutions, mut done_work) = (Some(0u128), 0f64);
    let (mut fin_work, mut fin_seconds) = (0f64, 0f64);
    for (i, s) in states.iter().enumerate() {
        let t = match s {
            ShardState::Finished {
                solutions: t,
                seconds,
                ..
            } => {
                finished += 1;
                done_work += shard_work[i];
                fin_work += shard_work[i];
                fin_seconds += seconds;
                *t
            }
            ShardState::Partial {
                solutions: t, work, ..
            } => {
                partial += 1;
                done_work += work * shard_work[i];
                *t
            }
            ShardState::Missing => {
                missing += 1;
                0
            }
        };
        solutions = solutions.and_then(|s| s.checked_add(t));
    }
    let Some(solutions) = solutions else {
        return Err(Error::Input(
            "the run's files' solutions add up past 2^128: a file was forged or damaged; audit \
             them to find which"
                .into(),
        ));
    };
    Ok(Counted {
        finished,
        partial,
        missing,
        solutions,
        done_work,
        fin_work,
        fin_seconds,
    })
}

fn summarise(
    plan: PlanId,
    k: u32,
    states: Vec<ShardState>,
    foreign: Vec<String>,
    (merger, merge_error): (Option<Merger>, Option<Error>),
    shard_work: &[f64],
    all_work: f64,
) -> Result<Status> {
    let c = counted(&states, shard_work)?;
    let left = (all_work - c.done_work).max(0.0);
    let seconds_left = (c.fin_work > 0.0).then(|| c.fin_seconds / c.fin_work * left);
    let (merged, merge_error) = match (c.finished == k as usize, merger, merge_error) {
        (true, _, Some(e)) => (None, Some(e)),
        (true, Some(m), None) => match m.finish() {
            Ok(m) => {
                let checked = m.totals.cross_check().err();
                (Some(m), checked)
            }
            Err(e) => (None, Some(e)),
        },
        _ => (None, None),
    };
    Ok(Status {
        plan: plan.describe(),
        n: plan.n,
        fingerprint: plan.fingerprint.clone(),
        shards: k,
        states,
        finished: c.finished,
        partial: c.partial,
        missing: c.missing,
        solutions_so_far: c.solutions,
        work_done: c.done_work / all_work,
        seconds_left,
        foreign,
        vanished: Vec::new(),
        damaged: Vec::new(),
        merged,
        merge_error,
    })
}
