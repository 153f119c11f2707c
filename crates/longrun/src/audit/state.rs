//! What an audit under way holds: its sample and seed, its report so far, and the plans and
//! recounting counters it has set up, each once for all the files of its plan.

use super::draw::{Sample, SplitMix};
use super::report::{AuditReport, FileAudit, Recount};
use crate::files::check::PlanCheck;
use nqueens_board::error::Result;
use nqueens_count::engine::Counter;
use nqueens_count::plan_id::PlanId;
use nqueens_count::slices::Slices;
use nqueens_count::tally::Tally;
use nqueens_count::Options;
use std::sync::Arc;

/// An audit under way: files given one at a time ([`Auditor::add`]); each plan is rebuilt,
/// and each recounting counter set up, once for all the files of that plan, not once per file.
pub struct Auditor<'a> {
    pub(super) sample: Sample,
    pub(super) how: Recount,
    pub(super) opts: &'a Options,
    pub(super) mix: SplitMix,
    pub(super) report: AuditReport,
    /// The plans met so far, rebuilt (a run's files are of one).
    pub(super) plans: Vec<(PlanId, PlanCheck)>,
    /// The counters that recount, by what they recount (plan, and build or kernel).
    pub(super) counters: Vec<(String, Arc<dyn Counter>)>,
    /// The quadrant method's recounting plans, by plan and build.
    pub(super) quadrants: Vec<Recounter>,
    /// The files whose sample is drawn and read but not yet recounted, and their slices not
    /// yet drawn: recounted together, so that an audit of thousands of one-task files wakes
    /// the pool once per batch, not per file.
    pub(super) pending: Pending,
}

/// Files waiting to be recounted together, and their slices waiting to be drawn and counted
/// ([`Auditor`]'s `pending`).
#[derive(Default)]
pub(super) struct Pending {
    pub files: Vec<PendingFile>,
    /// The tasks of `files`, all together.
    pub tasks: usize,
    pub draws: Vec<PendingDraw>,
    /// The ids with solutions the `draws` hold, all together.
    pub with_solutions: usize,
}

/// How many tasks wait before they are recounted: enough that waking the pool costs little
/// beside them, few enough that what waits holds little memory.
pub(super) const BATCH: usize = 1024;

/// How many ids of tasks with solutions the pending draws may hold (4 bytes each).
const HELD_IDS: usize = 1 << 20;

impl Pending {
    /// Whether enough waits to be recounted now.
    pub fn full(&self) -> bool {
        self.tasks >= BATCH || self.draws.len() >= BATCH || self.with_solutions >= HELD_IDS
    }
}

/// A file whose drawn records wait for their recount.
pub(super) struct PendingFile {
    pub name: String,
    /// What recounts its tasks, and its key in the auditor's counters.
    pub counter: Arc<dyn Counter>,
    pub key: String,
    /// The drawn tasks' ids and records, in the order drawn.
    pub sample: Vec<(u32, Tally)>,
    /// How it is audited (its tasks and records filled in).
    pub audit: FileAudit,
}

/// The slices of a quadrant method file's recounted tasks, waiting to be drawn and counted
/// both ways ([`PendingDraw::check`]).
pub(super) struct PendingDraw {
    pub file: String,
    pub slices: Slices,
    /// The recounted tasks.
    pub ids: Vec<u32>,
    /// The file's tasks with solutions, in increasing order.
    pub with_solutions: Vec<u32>,
    /// Slices asked for per task.
    pub per_task: usize,
}

impl<'a> Auditor<'a> {
    /// An audit that recounts `sample` of each file's tasks (chosen by `seed`) as `how` says.
    pub fn new(sample: Sample, seed: u64, how: Recount, opts: &'a Options) -> Auditor<'a> {
        Auditor {
            sample,
            how,
            opts,
            mix: SplitMix(seed),
            report: AuditReport {
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
            pending: Pending::default(),
        }
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
}

/// A quadrant plan set up to recount in one build: its counter and its slices.
#[derive(Clone)]
pub(super) struct Recounter {
    /// The plan's fingerprint and the build's name.
    pub key: String,
    pub counter: Arc<dyn Counter>,
    pub slices: Slices,
}
