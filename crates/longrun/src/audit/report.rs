//! What an audit reports: how each file was recounted, which tasks differ, and the slices
//! counted both ways.

use super::recorded::Recorded;
use nqueens_count::slices::Slice;
use nqueens_count::tally::Tally;
use nqueens_count::Backend;
use serde::Serialize;

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
    /// The backtracking kernel for backtracking files (default: `other_kernel` of the file's).
    pub kernel: Option<Backend>,
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
pub struct AuditReport {
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
    pub fewer: Vec<FewerSlices>,
}

impl AuditReport {
    /// Whether every recount agrees: no task differs and every slice's two counts agree.
    pub fn agrees(&self) -> bool {
        self.differences.is_empty() && self.slices.iter().all(|s| s.agrees)
    }
}

/// What an audit of file `f` says of how its tasks `ids` were recounted.
pub(super) fn file_audit(
    f: &Recorded,
    ids: &[u32],
    recounted_by: String,
    nodes: bool,
) -> FileAudit {
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

/// One slice of a recounted task, counted by the method and by backtracking.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SliceCheck {
    /// The file whose task it is a slice of.
    pub file: String,
    /// The slice.
    pub slice: Slice,
    /// The recounted task it was drawn for, where that task has no slice that holds
    /// solutions (one whose row sets symmetry drops, or with no solution) and another task's
    /// slice was counted instead; `None` where it is a slice of the recounted task.
    pub drawn_for: Option<u32>,
    /// Its solutions by the method (through the code that counts the task).
    pub method: u128,
    /// Its solutions by backtracking (nothing of the method's counting).
    pub backtracking: u128,
    /// Whether the two agree.
    pub agrees: bool,
    /// Seconds the method took.
    pub method_seconds: f64,
    /// Seconds the backtracking took.
    pub backtracking_seconds: f64,
}

/// A task with fewer distinct slices than asked for (all of them were counted).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FewerSlices {
    /// The file (or the plan) whose task it is.
    pub file: String,
    /// The task.
    pub task: u32,
    /// The distinct slices drawn of it.
    pub slices: usize,
}
