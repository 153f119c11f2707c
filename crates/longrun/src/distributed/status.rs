//! Status of a distributed run: which shards are finished, which are under way (a checkpoint)
//! and how far, which have nothing yet, and what is left. It only reads, and it checks every
//! file of the run as `merge` does ([`PlanCheck`]); a run whose shards are all there is merged
//! and compared with the known values, as `merge` would.
//!
//! The files of one run are found by their contents, not their names: every shard result and
//! checkpoint names its plan (fingerprint) and its shard `I/K`. The run is the plan and `K` that
//! most files belong to; files of any other count are *foreign* and listed as such.

use crate::distributed::found::{read_found, DoneSoFar, FailureNoted, FoundFile, Skipped};
use crate::distributed::merge::{Adding, Merged, Merger};
use crate::distributed::shard::Assignment;
pub use crate::distributed::walk::{files, list_paths, listed, ListedPaths, DIRECTORY_DEPTH};
pub use crate::distributed::whole::{whole_runs, WholeRun};
use crate::files::check::{CheckpointCheck, PlanCheck, ShardCheck};
use crate::files::record::Done;
use crate::files::result::ShardResult;
use crate::files::runfile::RunFile;
use crate::files::stream::{Discard, Records};
use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use nqueens_count::engine::Work;
use nqueens_count::plan_id::PlanId;
use nqueens_count::Options;
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
/// (its plan, its shard's tasks, its sums) is named in [`Status::damaged`] too. The files are read twice, one at a
/// time (first to find the run, then to check and add up each): what is held does not grow
/// with the records, only a few bytes per shard.
///
/// `None` when no file is a shard result or a shard checkpoint (a whole count's checkpoint
/// says where that count stands: [`whole_runs`]).
pub fn status(files: &[PathBuf], opts: &Options) -> Result<Option<Status>> {
    let Some((plan, k, first)) = find_run(files) else {
        return no_run(files);
    };
    let against = PlanCheck::new(&plan, opts, &first)?;
    let work = against.identity().work.clone();
    let shard_work = Assignment::new(&work, k).loads(&work);
    let all_work: f64 = shard_work.iter().sum::<f64>().max(1.0);
    let mut run = RunSeen {
        key: (plan.clone(), k),
        plan: Some(against),
        merger: None,
        merge_error: None,
        work,
        states: vec![ShardState::Missing; k as usize],
        shard_work,
    };
    let mut foreign = Vec::new();
    let mut skipped = Skipped::default();
    for f in files {
        let mut reading = FailureNoted::new(Reading::new(&mut run, f));
        let found = read_found(f, &mut reading);
        let (file, fatal) = (reading.sink.file, reading.failed);
        let name = match (found, fatal) {
            // A file that fails a check of the run (its plan, its shard's tasks, its sums) is
            // named as damaged, as merge would refuse it; the other shards are still reported.
            (FoundFile::Damaged(why, _), true) => {
                skipped.damaged.push(why);
                continue;
            }
            (FoundFile::Run(name, _), _) => name,
            (found, _) => {
                skipped.note(found);
                continue;
            }
        };
        match file {
            FileState::Foreign => foreign.push(name),
            FileState::Shard(b) => {
                let (check, adding, head) = *b;
                if let Err(e) = run.finished(check, adding, &head) {
                    skipped.damaged.push(e.to_string());
                }
            }
            FileState::Checkpoint(partial) => run.partial(partial),
            FileState::Unread => {}
        }
    }
    let mut s = summarise(plan, k, run, foreign, all_work)?;
    (s.vanished, s.damaged) = (skipped.vanished, skipped.damaged);
    Ok(Some(s))
}

/// The run [`status`] reports, as its files are read.
struct RunSeen {
    key: (PlanId, u32),
    /// The plan, rebuilt once: held here until the first result, then by the merge.
    plan: Option<PlanCheck>,
    merger: Option<Merger>,
    merge_error: Option<Error>,
    work: Work,
    states: Vec<ShardState>,
    shard_work: Vec<f64>,
}

impl RunSeen {
    fn against(&mut self) -> &mut PlanCheck {
        match (&mut self.merger, &mut self.plan) {
            (Some(m), _) => m.against(),
            (None, Some(a)) => a,
            (None, None) => unreachable!("the plan is held here or by the merge"),
        }
    }

    /// Shard result `r`, read whole and checked by `check`, is finished; `adding` (if the
    /// merge goes on) is what it adds to the merge.
    fn finished(
        &mut self,
        check: ShardCheck,
        adding: Option<Adding>,
        r: &ShardResult,
    ) -> Result<()> {
        check.finish(r)?;
        self.states[r.shard.index as usize] = ShardState::Finished {
            file: check.name().to_string(),
            solutions: r.counts.total,
            seconds: r.seconds,
        };
        if let (Some(m), Some(adding)) = (&mut self.merger, adding) {
            self.merge_error = m.commit(r, adding).err();
        }
        Ok(())
    }

    /// A shard's checkpoint, read whole, says how far the shard is (unless it is finished).
    fn partial(&mut self, p: Partial) {
        let i = p.index as usize;
        if matches!(self.states[i], ShardState::Finished { .. }) {
            return;
        }
        self.states[i] = ShardState::Partial {
            file: p.name,
            done: p.so_far.done,
            tasks: p.tasks,
            work: (p.so_far.work / self.shard_work[i].max(1.0)).min(1.0),
            solutions: p.so_far.solutions,
        };
    }
}

/// What one file of [`status`] was found to be, as it is read.
enum FileState {
    /// Not (yet) read to its records.
    Unread,
    /// A file of another count.
    Foreign,
    /// A shard result of the run: its checks, what it adds to the merge, its fields.
    Shard(Box<(ShardCheck, Option<Adding>, ShardResult)>),
    /// A shard's checkpoint of the run: how far it is.
    Checkpoint(Partial),
}

/// How far a shard's checkpoint is.
struct Partial {
    name: String,
    index: u32,
    check: CheckpointCheck,
    so_far: DoneSoFar,
    tasks: usize,
}

/// One file of [`status`] being read: its records checked against the run's plan, added to
/// the merge or to its shard's progress as they are read. An error of those checks (not of
/// the file by itself) fails the whole status, as merge would.
struct Reading<'r> {
    run: &'r mut RunSeen,
    name: String,
    file: FileState,
}

impl<'r> Reading<'r> {
    fn new(run: &'r mut RunSeen, f: &Path) -> Reading<'r> {
        Reading {
            run,
            name: f.shown().to_string(),
            file: FileState::Unread,
        }
    }

    fn head_of(&mut self, file: &RunFile) -> Result<()> {
        if key(file).as_ref() != Some(&self.run.key) {
            self.file = FileState::Foreign;
            return Ok(());
        }
        let name = self.name.clone();
        match file {
            RunFile::Shard(r) => {
                let check = self.run.against().shard_head(&name, r)?;
                let run = &mut *self.run;
                if run.merger.is_none() {
                    // Checked first: a merge is begun only by a shard it takes, so the plan
                    // it is handed is never lost to one it refuses.
                    r.shard
                        .check()
                        .map_err(|e| Error::Input(format!("{name}: {e}")))?;
                    let a = run.plan.take().expect("the plan");
                    run.merger = Some(Merger::with(a, &name, r)?);
                }
                let mut adding = None;
                if run.merge_error.is_none() {
                    let m = run.merger.as_mut().expect("the merge");
                    match m.begin_checked(&name, r) {
                        Ok(a) => adding = Some(a),
                        Err(e) => run.merge_error = Some(e),
                    }
                }
                self.file = FileState::Shard(Box::new((check, adding, r.clone())));
            }
            RunFile::Checkpoint(c) => {
                let check = self.run.against().checkpoint_head(&name, c)?;
                let index = c.shard.expect("a shard's checkpoint (its key)").index;
                self.file = FileState::Checkpoint(Partial {
                    name,
                    index,
                    check,
                    so_far: DoneSoFar::default(),
                    tasks: c.tasks,
                });
            }
        }
        Ok(())
    }

    fn record_of(&mut self, d: &Done) -> Result<()> {
        match &mut self.file {
            FileState::Shard(b) => {
                let (check, adding, _) = &mut **b;
                check.record(d)?;
                if let Some(a) = adding {
                    a.record(d)?;
                }
            }
            FileState::Checkpoint(p) => {
                p.check.record(d)?;
                p.so_far.add(&p.name, d, &self.run.work)?;
            }
            FileState::Unread | FileState::Foreign => {}
        }
        Ok(())
    }
}

impl Records<RunFile> for Reading<'_> {
    fn head(&mut self, file: &RunFile) -> Result<()> {
        self.head_of(file)
    }
    fn record(&mut self, d: &Done) -> Result<()> {
        self.record_of(d)
    }
}

/// [`status`] of files among which no run is found: the first damaged file of ours says why
/// (as when it is the only one given), else `None`.
fn no_run(files: &[PathBuf]) -> Result<Option<Status>> {
    let damaged = files
        .iter()
        .find_map(|f| match read_found(f, &mut Discard) {
            FoundFile::Damaged(why, _) => Some(why),
            _ => None,
        });
    damaged.map_or(Ok(None), |why| Err(Error::Input(why)))
}

/// The run `files` are of: the (plan, K) most of them belong to, and the first file of it;
/// `None` when no file is a shard result or a shard checkpoint.
fn find_run(files: &[PathBuf]) -> Option<(PlanId, u32, String)> {
    let mut keys: Vec<((PlanId, u32), usize, String)> = Vec::new();
    for f in files {
        if let FoundFile::Run(_, file) = read_found(f, &mut Discard) {
            if let Some(k) = key(&file) {
                match keys.iter_mut().find(|(key, _, _)| *key == k) {
                    Some((_, c, _)) => *c += 1,
                    None => keys.push((k, 1, f.shown().to_string())),
                }
            }
        }
    }
    let ((plan, k), _, first) = keys.into_iter().max_by_key(|(_, c, _)| *c)?;
    Some((plan, k, first))
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
    run: RunSeen,
    foreign: Vec<String>,
    all_work: f64,
) -> Result<Status> {
    let RunSeen {
        states,
        merger,
        merge_error,
        shard_work,
        ..
    } = run;
    let c = counted(&states, &shard_work)?;
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
