//! Audit: results that come back from other machines, checked and recounted in part.
//!
//! Every file is first checked as `merge` checks it ([`Against`]: its seal, its plan, its sums
//! against its tasks, its task ids against its shard); a file that fails is refused. Then a
//! seeded random sample of its recorded tasks is recounted on this machine and compared task
//! by task:
//!
//! - a backtracking file's tasks with another kernel than the one that counted them (`wide`
//!   with `fast`, every other kernel with `wide`), every count compared, nodes included;
//! - a quadrant method's file's tasks, by default, by the method again in another build than
//!   the one the file records (a CPU or compiler fault in one build shows), every count
//!   compared; and several slices of each ([`crate::count::quadrants::slice`]: small exact parts
//!   of its solutions) counted both by backtracking and by the method, which shares nothing
//!   with the backtracking search and goes through the same join, sieve and matcher as the
//!   task (a fault of the method's code where a slice falls shows). `--same-method` recounts
//!   the tasks by the method in the file's own build, no slices (faster; it catches forged
//!   files and bad hardware, not a fault of the method); `--backtracking` recounts whole tasks
//!   by backtracking (independent of the method, but about 1,600 times slower at N = 20 and
//!   3.4 times more each N: for small boards).
//!
//! A forged or miscounted task is found with the probability that it is in the sample; a fault
//! of the method with the probability that a slice falls where it shows.

mod draw;
mod quadrant;
mod recorded;

pub(crate) use self::draw::Mix;
pub use self::draw::Sample;
use self::quadrant::recount_quadrants;
pub use self::quadrant::{slices_of_plan, Fewer, PlanSlices, SliceCheck};
pub use self::recorded::Recorded;
use self::recorded::{Pick, Sampling};
use super::check::Against;
use super::runfile::RunFile;
use crate::count::engine::{self, Counter, Observer};
use crate::count::plan_id::PlanId;
use crate::count::quadrants::Quadrants;
use crate::count::tally::Tally;
use crate::count::{Job, Options};
use crate::error::{Error, Result};
use crate::{Algorithm, Kernel};
use serde::Serialize;
use std::sync::Arc;

/// How the quadrant method's tasks are recounted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QuadrantRecount {
    /// By the method in another build than the file records, with slices counted both ways.
    #[default]
    OtherBuild,
    /// By the method in the build the file records (this CPU's richest when it cannot), no
    /// slices.
    SameMethod,
    /// Whole tasks by backtracking.
    Backtracking,
}

/// How an audit recounts.
#[derive(Debug, Clone, Copy, Default)]
pub struct Recount {
    /// The backtracking kernel for backtracking files (default: [`other_kernel`] of the file's).
    pub kernel: Option<Kernel>,
    /// How a quadrant method's tasks are recounted.
    pub quadrants: QuadrantRecount,
    /// Slices of each sampled task of a quadrant method's file counted both ways (with
    /// [`QuadrantRecount::OtherBuild`]).
    pub slices: usize,
}

/// One recounted task whose counts differ from the file's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// The file.
    pub file: String,
    /// The task id.
    pub task: u32,
    /// What the file says.
    pub recorded: Tally,
    /// What the recount found.
    pub recounted: Tally,
}

/// How one file was audited.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileAudit {
    /// The file.
    pub file: String,
    /// Tasks it records.
    pub recorded: usize,
    /// The tasks recounted, by id.
    pub tasks: Vec<u32>,
    /// How they were recounted: `kernel K`, `quadrants, B build` or `backtracking by row set`.
    pub recounted_by: String,
    /// The builds the file says counted its tasks (empty where it does not say).
    pub counted_in: Vec<String>,
    /// Whether the recount compared the tasks' nodes too (a backtracking recount of the
    /// quadrant method's tasks cannot: the two measure different work).
    pub nodes_compared: bool,
}

/// What an audit found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Files audited.
    pub files: usize,
    /// Tasks recorded in them.
    pub recorded: usize,
    /// Tasks recounted.
    pub recounted: usize,
    /// The seed of the sample (the same seed and files give the same sample and slices).
    pub seed: u64,
    /// How each file was audited.
    pub audits: Vec<FileAudit>,
    /// The tasks whose recount differs.
    pub differences: Vec<Difference>,
    /// Every slice counted both ways, and whether the two agree.
    pub slices: Vec<SliceCheck>,
    /// The recounted tasks with fewer distinct slices than asked for.
    pub fewer: Vec<Fewer>,
}

impl Report {
    /// Whether every recount agrees: no task differs and every slice's two counts agree.
    pub fn agrees(&self) -> bool {
        self.differences.is_empty() && self.slices.iter().all(|s| s.agrees)
    }
}

/// The kernel that checks tasks counted by `used`.
pub fn other_kernel(used: Option<Kernel>) -> Kernel {
    match used {
        Some(Kernel::Wide) | None => Kernel::Fast,
        Some(_) => Kernel::Wide,
    }
}

/// Checks every file of `files` as `merge` does, then recounts a `sample` of the tasks each
/// records (chosen by `seed`) with `threads` workers, as `how` says (see the module), and
/// compares each with its record. A file that fails a check is an error, as in `merge`.
/// [`Auditor`] does the same one file at a time.
pub fn audit(
    files: &[Recorded],
    sample: Sample,
    seed: u64,
    how: Recount,
    opts: &Options,
) -> Result<Report> {
    let mut a = Auditor::new(sample, seed, how, opts);
    for f in files {
        a.add(f)?;
    }
    Ok(a.finish())
}

/// An audit under way: files given one at a time ([`Auditor::add`]); each plan is rebuilt,
/// and each recounting counter set up, once for all the files of that plan, not once a file.
pub struct Auditor<'a> {
    sample: Sample,
    how: Recount,
    opts: &'a Options,
    mix: Mix,
    report: Report,
    /// The plans met so far, rebuilt (a run's files are of one).
    plans: Vec<(PlanId, Against)>,
    /// The counters that recount, by what they recount (plan, and build or kernel).
    counters: Vec<(String, Arc<dyn Counter>)>,
    /// The quadrant method's recounting plans, by plan and build.
    quadrants: Vec<(String, Arc<Quadrants>)>,
}

impl<'a> Auditor<'a> {
    /// An audit that recounts `sample` of each file's tasks (chosen by `seed`) as `how` says.
    pub fn new(sample: Sample, seed: u64, how: Recount, opts: &'a Options) -> Auditor<'a> {
        Auditor {
            sample,
            how,
            opts,
            mix: Mix(seed),
            report: Report {
                files: 0,
                recorded: 0,
                recounted: 0,
                seed,
                audits: Vec::new(),
                differences: Vec::new(),
                slices: Vec::new(),
                fewer: Vec::new(),
            },
            plans: Vec::new(),
            counters: Vec::new(),
            quadrants: Vec::new(),
        }
    }

    /// The plan of file `f`, rebuilt once for all the files of that plan.
    fn against(&mut self, f: &Recorded) -> Result<usize> {
        if let Some(i) = self.plans.iter().position(|(id, _)| id == f.plan()) {
            return Ok(i);
        }
        let against = Against::new(f.plan(), self.opts, &f.name)?;
        self.plans.push((f.plan().clone(), against));
        Ok(self.plans.len() - 1)
    }

    /// The counter `key` names, made by `make` the first time it is asked for.
    pub(super) fn counter(
        &mut self,
        key: String,
        make: impl FnOnce() -> Result<Arc<dyn Counter>>,
    ) -> Result<Arc<dyn Counter>> {
        if let Some((_, c)) = self.counters.iter().find(|(k, _)| *k == key) {
            return Ok(c.clone());
        }
        let c = make()?;
        self.counters.push((key, c.clone()));
        Ok(c)
    }

    /// Draws the sample of file `f` (of plan `p`): how many tasks it records, and which
    /// are drawn (by id, or by place in its list of records), in the order drawn.
    fn draw(&mut self, p: usize, f: &Recorded, quadrants: bool) -> Result<(usize, Vec<Pick>)> {
        // The sample, drawn over every task of the file's scope: a task a version 5 file
        // leaves out is found by arithmetic and recorded as nothing (no list of the shard's
        // tasks, no records made for the omitted ones).
        Ok(match &f.file {
            RunFile::Shard(r) if r.sparse() => {
                let picked = self
                    .mix
                    .choose(r.tasks, self.sample.size(r.tasks, quadrants));
                let against = &mut self.plans[p].1;
                let mut ids = Vec::with_capacity(picked.len());
                for i in picked {
                    let id = against.nth_id(r.shard, i).ok_or_else(|| {
                        Error::Input(format!("{}: shard {} has no task {i}", f.name, r.shard))
                    })?;
                    ids.push(Pick::Id(id));
                }
                (r.tasks, ids)
            }
            _ => {
                let listed = f.listed;
                let picked = self.mix.choose(listed, self.sample.size(listed, quadrants));
                (listed, picked.into_iter().map(Pick::Place).collect())
            }
        })
    }

    /// Checks file `f` as `merge` does and recounts its sample.
    pub fn add(&mut self, f: &Recorded) -> Result<()> {
        let p = self.against(f)?;
        // The fields' checks against the plan before the draw (a forged scope is refused
        // before any task of it is looked for).
        match &f.file {
            RunFile::Shard(r) => drop(self.plans[p].1.shard_head(&f.name, r)?),
            RunFile::Checkpoint(c) => drop(self.plans[p].1.checkpoint_head(&f.name, c)?),
        }
        let quadrants = f.plan().algorithm == Algorithm::Quadrants;
        let (recorded_tasks, picks) = self.draw(p, f, quadrants)?;
        // Read again, checked against the plan as merge checks it, the drawn records kept.
        let sample = Sampling::read(f, &mut self.plans[p].1, &picks)?;
        let ids: Vec<u32> = sample.iter().map(|&(id, _)| id).collect();
        let opts = self.opts;
        let (recounted, audit) = if quadrants {
            let how = self.how;
            recount_quadrants(self, f, &ids, how)?
        } else {
            let k = self.how.kernel.unwrap_or_else(|| other_kernel(f.kernel()));
            let key = format!("{} kernel {k}", f.plan().fingerprint);
            let counter = self.counter(key, || {
                Job::from_id(f.plan(), &opts.clone().with_kernel(k))
                    .map(|job| job.counter())
                    .map_err(|e| Error::Input(format!("{}: {e}", f.name)))
            })?;
            let recounted = recount(counter, &ids, opts)?;
            (recounted, file_audit(f, &ids, format!("kernel {k}"), true))
        };
        for (&(want, recorded), &(id, got)) in sample.iter().zip(&recounted) {
            debug_assert_eq!(id, want);
            let same = if audit.nodes_compared {
                recorded == got
            } else {
                (recorded.total, recorded.classes) == (got.total, got.classes)
            };
            // A task a version 5 file leaves out is recorded with no counts at all (not even
            // class counts of 0): its recount must find nothing too.
            let nothing = |t: &Tally| {
                t.total == 0 && t.classes.is_none_or(|c| <[u128; 5]>::from(c) == [0; 5])
            };
            let both_empty =
                recorded.is_zero() && nothing(&got) && (got.nodes == 0 || !audit.nodes_compared);
            let differs = !(same || both_empty);
            if differs {
                self.report.differences.push(Difference {
                    file: f.name.clone(),
                    task: id,
                    recorded,
                    recounted: got,
                });
            }
        }
        self.report.files += 1;
        self.report.recorded += recorded_tasks;
        self.report.recounted += ids.len();
        self.report.audits.push(FileAudit {
            recorded: recorded_tasks,
            ..audit
        });
        Ok(())
    }

    /// The report of every file added.
    pub fn finish(self) -> Report {
        self.report
    }
}

/// What an audit of file `f` says of how its tasks `ids` were recounted.
fn file_audit(f: &Recorded, ids: &[u32], recounted_by: String, nodes: bool) -> FileAudit {
    let mut counted_in: Vec<String> = f.counted_by().iter().map(|c| c.build.clone()).collect();
    counted_in.sort_unstable();
    counted_in.dedup();
    FileAudit {
        file: f.name.clone(),
        recorded: f.listed,
        tasks: ids.to_vec(),
        recounted_by,
        counted_in,
        nodes_compared: nodes,
    }
}

/// The tasks `ids` counted by `counter` on the engine with the options' threads, by id.
fn recount(counter: Arc<dyn Counter>, ids: &[u32], opts: &Options) -> Result<Vec<(u32, Tally)>> {
    let mut got = Collect(Vec::with_capacity(ids.len()));
    let cancel = opts.cancel.clone().unwrap_or_default();
    let ran = engine::run(
        counter,
        ids.to_vec(),
        opts.resolved_threads(),
        &cancel,
        &mut got,
    )?;
    if ran.cancelled {
        return Err(ran.stopped(ran.done, ids.len(), None));
    }
    got.0.sort_by_key(|&(id, _)| id);
    Ok(got.0)
}

/// Collects the recounted tasks.
struct Collect(Vec<(u32, Tally)>);

impl Observer for Collect {
    fn finished(&mut self, id: u32, tally: &Tally) -> Result<()> {
        self.0.push((id, *tally));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_distinct_sorted_and_seeded() {
        let a = Mix(7).choose(100, 10);
        assert_eq!(a, Mix(7).choose(100, 10));
        assert_ne!(a, Mix(8).choose(100, 10));
        assert!(a.windows(2).all(|w| w[0] < w[1]) && a.len() == 10);
        assert_eq!(Mix(1).choose(5, 5), vec![0, 1, 2, 3, 4]);
        assert_eq!(Sample::Share(0.01).size(10, false), 1);
        assert_eq!(Sample::Share(1.0).size(10, false), 10);
        assert_eq!(Sample::Tasks(50).size(10, true), 10);
        assert_eq!(Sample::Share(0.5).size(0, false), 0);
        assert_eq!(Sample::Default.size(114, true), 1);
        assert_eq!(Sample::Default.size(100, false), 5);
    }
}
