//! Audit: results that come back from other machines, checked without counting them again.
//!
//! Shard and checkpoint files record the counts of every task, sealed with a checksum. The
//! checksum catches accidents; anyone can recompute it, so it does not catch forgery. An audit
//! recounts a random sample of the recorded tasks on this machine, with another kernel than
//! the one that counted them where the method has kernels (the backtrackers: `wide` is
//! checked with `fast`, every other kernel with `wide`; the quadrant method's tasks by a
//! backtracking search of their row sets, which shares nothing with the method's counting),
//! and compares them task by task. A
//! forged or miscounted task is found with the probability of being in the sample: `--sample
//! 1` recounts everything and finds every one.

use super::checkpoint::Done;
use super::RunFile;
use crate::count::engine::Observer;
use crate::count::plan_id::PlanId;
use crate::count::tally::Tally;
use crate::count::{Job, Options};
use crate::error::{Error, Result};
use crate::{Algorithm, Kernel};
use serde::Serialize;
use std::path::Path;

/// A file of recorded task counts: a shard result or a checkpoint.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// The file's name, as given.
    pub name: String,
    /// `"shard"` or `"checkpoint"`.
    pub kind: &'static str,
    /// The plan the tasks belong to.
    pub plan: PlanId,
    /// The kernel that counted them, when the file says (shard results do).
    pub kernel: Option<Kernel>,
    /// The recorded tasks and their counts.
    pub done: Vec<Done>,
}

impl Recorded {
    /// Reads a shard result or a checkpoint (told apart by its `format`), checking its seal.
    pub fn read(path: &Path) -> Result<Recorded> {
        let name = path.display().to_string();
        match RunFile::read(path)? {
            Some(RunFile::Shard(r)) => Ok(Recorded {
                kernel: r.kernel.parse().ok(),
                name,
                kind: "shard",
                plan: r.plan,
                done: r.done,
            }),
            Some(RunFile::Checkpoint(c)) => Ok(Recorded {
                name,
                kind: "checkpoint",
                plan: c.plan,
                kernel: None,
                done: c.done,
            }),
            None => Err(Error::Input(format!(
                "{name} is neither a shard result (what a sharded count writes) nor a checkpoint"
            ))),
        }
    }
}

/// How many recorded tasks of each file to recount.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sample {
    /// This share of each file's tasks (0 < f <= 1), at least one task.
    Share(f64),
    /// This many tasks of each file (all of them if it has fewer).
    Tasks(usize),
}

impl Sample {
    fn size(self, recorded: usize) -> usize {
        match self {
            Sample::Share(f) => ((recorded as f64 * f).ceil() as usize).clamp(1, recorded.max(1)),
            Sample::Tasks(k) => k,
        }
        .min(recorded)
    }
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

/// What an audit found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Files audited.
    pub files: usize,
    /// Tasks recorded in them.
    pub recorded: usize,
    /// Tasks recounted.
    pub recounted: usize,
    /// The seed of the sample (the same seed and files give the same sample).
    pub seed: u64,
    /// The kernels the recounts used, by file (`null` for the quadrant method, which has no
    /// kernels).
    pub kernels: Vec<Option<String>>,
    /// How each file's tasks were recounted, by file: `"backtracking"` (a backtracking
    /// kernel, or for the quadrant method a backtracking search of each row set, independent
    /// of the method's own counting) or `"quadrants"` (the quadrant method again, when asked).
    pub methods: Vec<&'static str>,
    /// The tasks whose recount differs.
    pub differences: Vec<Difference>,
}

/// The kernel that checks tasks counted by `used`.
pub fn other_kernel(used: Option<Kernel>) -> Kernel {
    match used {
        Some(Kernel::Wide) | None => Kernel::Fast,
        Some(_) => Kernel::Wide,
    }
}

/// A small seeded generator (SplitMix64) for the sample.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `k` distinct indexes of `0..len`, in increasing order.
    fn choose(&mut self, len: usize, k: usize) -> Vec<usize> {
        let mut all: Vec<usize> = (0..len).collect();
        for i in 0..k {
            let j = i + (self.next() % (len - i) as u64) as usize;
            all.swap(i, j);
        }
        let mut out = all[..k].to_vec();
        out.sort_unstable();
        out
    }
}

/// How an audit recounts.
#[derive(Debug, Clone, Copy, Default)]
pub struct Recount {
    /// The backtracking kernel (default: [`other_kernel`] of the file's).
    pub kernel: Option<Kernel>,
    /// Recount the quadrant method's tasks with the quadrant method (faster; catches forged
    /// files and bad hardware but not a mistake of the method), not by backtracking.
    pub same_method: bool,
}

/// Recounts a `sample` of the tasks recorded in `files` (chosen by `seed`) with `threads`
/// workers, and compares each with its record: all of its counts when the recount used the
/// same method, the solutions and their symmetry classes when it backtracked a quadrant
/// method's task (the two methods' `nodes` measure different work).
pub fn audit(
    files: &[Recorded],
    sample: Sample,
    seed: u64,
    how: Recount,
    opts: &Options,
) -> Result<Report> {
    let mut report = Report {
        files: files.len(),
        recorded: 0,
        recounted: 0,
        seed,
        kernels: Vec::new(),
        methods: Vec::new(),
        differences: Vec::new(),
    };
    let mut mix = Mix(seed);
    for f in files {
        let k = how.kernel.unwrap_or_else(|| other_kernel(f.kernel));
        let quadrants = f.plan.algorithm == Algorithm::Quadrants;
        let backtracked = quadrants && !how.same_method;
        let job = Job::recounting(&f.plan, &opts.clone().with_kernel(k), how.same_method)
            .map_err(|e| Error::Input(format!("{}: {e}", f.name)))?;
        if let Some(d) = f.done.iter().find(|d| d.id as usize >= job.tasks()) {
            return Err(Error::Input(format!(
                "{}: task {} is not in the plan, which has {} tasks: forged or damaged",
                f.name,
                d.id,
                job.tasks()
            )));
        }
        let picked = mix.choose(f.done.len(), sample.size(f.done.len()));
        let ids: Vec<u32> = picked.iter().map(|&i| f.done[i].id).collect();
        let mut got = Collect(Vec::with_capacity(ids.len()));
        let ran = job.run_scope(&ids, &[], Tally::default(), None, &mut got)?;
        if ran.cancelled {
            return Err(ran.stopped(ran.done, ids.len(), None));
        }
        got.0.sort_by_key(|&(id, _)| id);
        for (&i, &(id, recounted)) in picked.iter().zip(&got.0) {
            let recorded = f.done[i].counts;
            debug_assert_eq!(id, f.done[i].id);
            let differs = if backtracked {
                (recorded.total, recorded.classes) != (recounted.total, recounted.classes)
            } else {
                recorded != recounted
            };
            if differs {
                report.differences.push(Difference {
                    file: f.name.clone(),
                    task: id,
                    recorded,
                    recounted,
                });
            }
        }
        report.recorded += f.done.len();
        report.recounted += ids.len();
        report
            .kernels
            .push((!quadrants).then(|| k.name().to_string()));
        report.methods.push(if quadrants && how.same_method {
            "quadrants"
        } else {
            "backtracking"
        });
    }
    Ok(report)
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
        assert_eq!(Sample::Share(0.01).size(10), 1);
        assert_eq!(Sample::Share(1.0).size(10), 10);
        assert_eq!(Sample::Tasks(50).size(10), 10);
        assert_eq!(Sample::Share(0.5).size(0), 0);
    }
}
