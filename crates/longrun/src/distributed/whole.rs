//! Where a count of a whole board in one run stands, from its checkpoint ([`whole_runs`]):
//! a run with no shards has no shard results for [`crate::distributed::status::status`] to find.

use crate::distributed::found::{read_found, DoneSoFar, FailureNoted, FoundFile};
use crate::files::check::{CheckpointCheck, PlanCheck};
use crate::files::record::Done;
use crate::files::runfile::RunFile;
use crate::files::stream::Records;
use nqueens_board::error::Result;
use nqueens_board::shown::Show;
use nqueens_count::Options;
use serde::Serialize;
use std::path::PathBuf;

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
/// no shards has no shard results for [`crate::distributed::status::status`] to find. Each checkpoint is checked against
/// its plan as every reader checks it.
pub fn whole_runs(files: &[PathBuf], opts: &Options) -> Result<Vec<WholeRun>> {
    let mut out = Vec::new();
    for f in files {
        let mut reading = FailureNoted::new(WholeReading {
            opts,
            name: f.shown().to_string(),
            run: None,
        });
        let found = read_found(f, &mut reading);
        let (run, fatal) = (reading.sink.run, reading.failed);
        let (name, c) = match (found, run) {
            (FoundFile::Damaged(_, e), _) if fatal => return Err(e),
            (FoundFile::Run(name, file), Some(run)) => match *file {
                RunFile::Checkpoint(c) => (name, (c, run)),
                RunFile::Shard(_) => continue,
            },
            _ => continue,
        };
        let (c, Checked { against, done, .. }) = c;
        let all: f64 = (0..against.identity().tasks as u32)
            .map(|id| against.identity().work.at(id) as f64)
            .sum::<f64>()
            .max(1.0);
        let share = (done.work / all).min(1.0);
        out.push(WholeRun {
            file: name,
            plan: c.plan.describe(),
            n: c.plan.n,
            fingerprint: c.plan.fingerprint.clone(),
            tasks: c.tasks,
            done: done.done,
            solutions_so_far: done.solutions,
            work_done: share,
            core_seconds_left: c.plan.algorithm.rough_core_seconds(c.plan.n) * (1.0 - share),
        });
    }
    Ok(out)
}

/// A whole count's checkpoint being read by [`whole_runs`]: its plan rebuilt and its records
/// checked against it and added up as they are read. A file of any other kind is passed
/// over.
struct WholeReading<'o> {
    opts: &'o Options,
    name: String,
    run: Option<Checked>,
}

/// A whole run's checkpoint as it is read: the plan it is checked against, the checks of its
/// records, and what they say is done.
struct Checked {
    against: PlanCheck,
    check: CheckpointCheck,
    done: DoneSoFar,
}

impl WholeReading<'_> {
    fn head_of(&mut self, file: &RunFile) -> Result<()> {
        let RunFile::Checkpoint(c) = file else {
            return Ok(());
        };
        if c.shard.is_some() {
            return Ok(());
        }
        let mut against = PlanCheck::new(&c.plan, self.opts, &self.name)?;
        let check = against.checkpoint_head(&self.name, c)?;
        self.run = Some(Checked {
            against,
            check,
            done: DoneSoFar::default(),
        });
        Ok(())
    }

    fn record_of(&mut self, d: &Done) -> Result<()> {
        if let Some(run) = &mut self.run {
            run.check.record(d)?;
            run.done.add(&self.name, d, &run.against.identity().work)?;
        }
        Ok(())
    }
}

impl Records<RunFile> for WholeReading<'_> {
    fn head(&mut self, file: &RunFile) -> Result<()> {
        self.head_of(file)
    }
    fn record(&mut self, d: &Done) -> Result<()> {
        self.record_of(d)
    }
}
