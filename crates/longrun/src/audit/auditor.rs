//! An audit under way: every file checked as `merge` checks it, then a seeded sample of its
//! tasks recounted and compared with its records.

use super::draw::Sample;
use super::quadrant::{recount_quadrants, Recounting};
use super::recorded::{Pick, Recorded, Sampling};
use super::recount::{other_kernel, recount};
use super::report::{file_audit, AuditReport, Difference, FileAudit, Recount};
use super::state::{Auditor, PendingDraw, PendingFile};
use crate::files::check::PlanCheck;
use crate::files::runfile::RunFile;
use nqueens_board::error::{Error, Result};
use nqueens_count::engine::pool;
use nqueens_count::tally::Tally;
use nqueens_count::Algorithm;
use nqueens_count::{Job, Options};
use std::collections::HashMap;

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
) -> Result<AuditReport> {
    let mut a = Auditor::new(sample, seed, how, opts);
    for f in files {
        a.add(f)?;
    }
    a.finish()
}

impl Auditor<'_> {
    /// The plan of file `f`, rebuilt once for all the files of that plan.
    fn against(&mut self, f: &Recorded) -> Result<usize> {
        if let Some(i) = self.plans.iter().position(|(id, _)| id == f.plan()) {
            return Ok(i);
        }
        let against = PlanCheck::new(f.plan(), self.opts, &f.name)?;
        self.plans.push((f.plan().clone(), against));
        Ok(self.plans.len() - 1)
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
        let r = if quadrants {
            let how = self.how;
            recount_quadrants(self, f, &ids, how)?
        } else {
            let k = self.how.kernel.unwrap_or_else(|| other_kernel(f.kernel()));
            let key = format!("{} kernel {k}", f.plan().fingerprint);
            let counter = self.counter(key.clone(), || {
                Job::from_id(f.plan(), &opts.clone().with_backend(k))
                    .map(|job| job.counter())
                    .map_err(|e| Error::Input(format!("{}: {e}", f.name)))
            })?;
            let audit = file_audit(f, &ids, format!("kernel {k}"), true);
            Recounting {
                counter,
                key,
                audit,
            }
        };
        self.report.files += 1;
        self.report.recorded += recorded_tasks;
        self.report.recounted += ids.len();
        self.pending.tasks += ids.len();
        self.pending.files.push(PendingFile {
            name: f.name.clone(),
            counter: r.counter,
            key: r.key,
            sample,
            audit: FileAudit {
                recorded: recorded_tasks,
                ..r.audit
            },
        });
        if self.pending.full() {
            self.settle()?;
        }
        Ok(())
    }

    /// Recounts what waits: the tasks of every pending file, in one engine run per counter,
    /// compared with their records; then the pending files' slices, drawn and counted both
    /// ways in one use of the pool.
    fn settle(&mut self) -> Result<()> {
        let pending = std::mem::take(&mut self.pending);
        let mut recounted: HashMap<String, HashMap<u32, Tally>> = HashMap::new();
        for file in &pending.files {
            if recounted.contains_key(&file.key) {
                continue;
            }
            let mut ids: Vec<u32> = pending
                .files
                .iter()
                .filter(|other| other.key == file.key)
                .flat_map(|other| other.sample.iter().map(|&(id, _)| id))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            let got = recount(file.counter.clone(), &ids, self.opts)?;
            recounted.insert(file.key.clone(), got.into_iter().collect());
        }
        for file in pending.files {
            let got = &recounted[&file.key];
            for &(id, recorded) in &file.sample {
                let got = *got.get(&id).ok_or_else(|| {
                    Error::Input(format!("{}: task {id} was not recounted", file.name))
                })?;
                if differs(recorded, got, file.audit.nodes_compared) {
                    self.report.differences.push(Difference {
                        file: file.name.clone(),
                        task: id,
                        recorded,
                        recounted: got,
                    });
                }
            }
            self.report.audits.push(file.audit);
        }
        self.settle_slices(pending.draws)
    }

    /// Draws and counts the slices `waiting`, in order, all in one use of the pool.
    fn settle_slices(&mut self, waiting: Vec<PendingDraw>) -> Result<()> {
        if waiting.is_empty() {
            return Ok(());
        }
        let pool = pool(self.opts.resolved_threads())?;
        let (mix, report) = (&mut self.mix, &mut self.report);
        pool.install(|| waiting.iter().try_for_each(|d| d.check(mix, report)))
    }

    /// The report of every file added, once what waits is recounted.
    pub fn finish(mut self) -> Result<AuditReport> {
        self.settle()?;
        Ok(self.report)
    }
}

/// Whether a task's recount `got` differs from its record `recorded` (`nodes`: whether the
/// nodes are compared too).
fn differs(recorded: Tally, got: Tally, nodes: bool) -> bool {
    let same = if nodes {
        recorded == got
    } else {
        (recorded.total, recorded.classes) == (got.total, got.classes)
    };
    // A task a version 5 file leaves out is recorded with no counts at all (not even class
    // counts of 0): its recount must find nothing too.
    let nothing =
        |t: &Tally| t.total == 0 && t.classes.is_none_or(|c| <[u128; 5]>::from(c) == [0; 5]);
    let both_empty = recorded.is_zero() && nothing(&got) && (got.nodes == 0 || !nodes);
    !(same || both_empty)
}
