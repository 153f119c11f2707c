//! The audit of a quadrant method's file: its sampled tasks recounted by the method in another
//! build (or in the file's own, or by backtracking), and slices of them counted both by the
//! method and by backtracking ([`SliceCheck`]).

use super::draw::SplitMix;
use super::recorded::Recorded;
use super::report::{
    file_audit, AuditReport, FewerSlices, FileAudit, QuadrantRecount, Recount, SliceCheck,
};
use super::state::{Auditor, PendingDraw, Recounter};
use nqueens_board::error::{Error, Result};
use nqueens_count::arch::SimdBuild;
use nqueens_count::engine::{pool, Counter};
use nqueens_count::slices::{Slice, Slices};
use nqueens_count::{Job, Options};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// The build that recounts quadrant method file `f` as `how` says: the build it recorded
/// (`SameMethod`), or another this CPU runs (`OtherBuild`; the richest runnable otherwise).
fn recount_build(f: &Recorded, how: QuadrantRecount, opts: &Options) -> SimdBuild {
    // The builds this CPU runs, up to the cap asked for (`NQUEENS_QUADRANT_BUILD`).
    let here = Job::builds_here(opts);
    let richest = *here.last().expect("the portable build");
    let recorded: Vec<&str> = f.counted_by().iter().map(|c| c.build.as_str()).collect();
    match how {
        QuadrantRecount::SameMethod => here
            .iter()
            .rev()
            .copied()
            .find(|b| recorded.contains(&b.name()))
            .unwrap_or(richest),
        _ if recorded.is_empty() => here.iter().rev().nth(1).copied().unwrap_or(richest),
        _ => here
            .iter()
            .rev()
            .copied()
            .find(|b| !recorded.contains(&b.name()))
            .unwrap_or(richest),
    }
}

/// How the tasks `ids` of quadrant method file `f` are recounted as `how` says: the counter
/// (set up once for all the files of a plan) and its key, and what the report says of it. The
/// file's slices are drawn now, with the auditor's seed, and wait in its `pending` for the
/// method's count.
pub(super) fn recount_quadrants(
    a: &mut Auditor,
    f: &Recorded,
    ids: &[u32],
    how: Recount,
) -> Result<Recounting> {
    let opts = a.opts;
    // A file's own faults name the file; a machine's (memory, threads) keep their kind.
    let named = |e: Error| match e {
        Error::Input(e) => Error::Input(format!("{}: {e}", f.name)),
        e => e,
    };
    let fingerprint = &f.plan().fingerprint;
    if how.quadrants == QuadrantRecount::Backtracking {
        let key = format!("{fingerprint} backtracking");
        let counter = a.counter(key.clone(), || {
            Ok(Job::recounting(f.plan(), opts, false)
                .map_err(named)?
                .counter())
        })?;
        let audit = file_audit(f, ids, "backtracking by row set".into(), false);
        return Ok(Recounting {
            counter,
            key,
            audit,
        });
    }
    let build = recount_build(f, how.quadrants, opts);
    let key = format!("{fingerprint} quadrants {}", build.name());
    let r = match a.quadrants.iter().find(|r| r.key == key) {
        Some(r) => r.clone(),
        None => {
            let job = Job::recounting_in(f.plan(), opts, build).map_err(named)?;
            let slices = job
                .slices()
                .ok_or_else(|| Error::Input(format!("{}: not a quadrant method plan", f.name)))?;
            let r = Recounter {
                key,
                counter: job.counter(),
                slices,
            };
            a.quadrants.push(r.clone());
            r
        }
    };
    if how.quadrants == QuadrantRecount::OtherBuild && how.slices > 0 {
        a.pending.with_solutions += f.with_solutions.len();
        a.pending.draws.push(PendingDraw {
            file: f.name.clone(),
            slices: r.slices.clone(),
            ids: ids.to_vec(),
            with_solutions: f.with_solutions.clone(),
            per_task: how.slices,
        });
    }
    let audit = file_audit(f, ids, format!("quadrants, {} build", build.name()), true);
    Ok(Recounting {
        counter: r.counter,
        key: r.key,
        audit,
    })
}

/// What recounts a file's drawn tasks, its key among the auditor's counters, and what the
/// report says of how.
pub(super) struct Recounting {
    pub counter: Arc<dyn Counter>,
    pub key: String,
    pub audit: FileAudit,
}

/// How many slices per slice asked for may draw to find one that holds solutions (slices of a
/// small board often hold none, and one that holds none checks little).
const DRAWS: usize = 64;

/// A slice drawn, counted by backtracking.
struct Drawn {
    slice: Slice,
    backtracking: u128,
    seconds: f64,
}

/// Up to `want` distinct slices of task `task`, none of them in `taken`, drawn with `mix`:
/// each one asked for is drawn up to `draws` times ([`DRAWS`], or 1 for a task that records
/// no solution) and counted by backtracking, and the first that holds solutions is kept (the
/// last drawn where none does). FewerSlices where the draws find no more distinct slices (a task
/// with few row sets and placements).
fn draw_task(
    q: &Slices,
    task: u32,
    draws: usize,
    want: usize,
    mix: &mut SplitMix,
    taken: &[Slice],
) -> Result<Vec<Drawn>> {
    let mut out: Vec<Drawn> = Vec::new();
    let mut misses = 0;
    while out.len() < want && misses < 16 * want {
        let mut kept: Option<Drawn> = None;
        for _ in 0..draws {
            let new = |s: &Slice| {
                !taken.contains(s)
                    && !out.iter().any(|d| d.slice == *s)
                    && kept.as_ref().is_none_or(|k| k.slice != *s)
            };
            let Some(s) = q.draw(task, &mut || mix.next()).filter(new) else {
                misses += 1;
                continue;
            };
            let start = Instant::now();
            let backtracking = q.by_backtracking(&s)?;
            let seconds = start.elapsed().as_secs_f64();
            kept = Some(Drawn {
                slice: s,
                backtracking,
                seconds,
            });
            if backtracking > 0 {
                break;
            }
        }
        out.extend(kept);
    }
    Ok(out)
}

/// Whether any of the slices holds a solution.
fn any_solutions(d: &[Drawn]) -> bool {
    d.iter().any(|d| d.backtracking > 0)
}

impl PendingDraw {
    /// The slices of the recounted tasks of the file, counted both ways into `report`:
    /// `per_task` distinct slices of each task ([`draw_task`]); where a task can have no slice
    /// that holds solutions (it has no slice, its row sets dropped by symmetry, or it records
    /// no solution), the slices of another of the file's tasks with solutions, named as drawn
    /// for it; a task with fewer distinct slices than asked is named in `fewer`. Run on the
    /// engine's pool: the draws' searches and the method's counts use its threads.
    pub(super) fn check(&self, mix: &mut SplitMix, report: &mut AuditReport) -> Result<()> {
        let (q, with_solutions) = (&self.slices, &self.with_solutions);
        let mut taken: Vec<Slice> = Vec::new();
        for &task in &self.ids {
            // A task that records no solution has no slice that holds one: no draws again.
            let records = with_solutions.binary_search(&task).is_ok();
            let draws = if records { DRAWS } else { 1 };
            let mut drawn = draw_task(q, task, draws, self.per_task, mix, &taken)?;
            let mut drawn_for = None;
            // Another task's slices only where this task's can hold no solution.
            let none_here = drawn.is_empty() || !records;
            for _ in 0..4 {
                if !none_here || any_solutions(&drawn) || with_solutions.is_empty() {
                    break;
                }
                let other = with_solutions[(mix.next() % with_solutions.len() as u64) as usize];
                let theirs = draw_task(q, other, DRAWS, self.per_task, mix, &taken)?;
                if any_solutions(&theirs) {
                    (drawn, drawn_for) = (theirs, Some(task));
                }
            }
            if drawn.len() < self.per_task {
                report.fewer.push(FewerSlices {
                    file: self.file.clone(),
                    task: drawn.first().map_or(task, |d| d.slice.task),
                    slices: drawn.len(),
                });
            }
            for d in drawn {
                taken.push(d.slice.clone());
                report
                    .slices
                    .push(check_slice(q, &self.file, d, drawn_for)?);
            }
        }
        Ok(())
    }
}

/// Slice `d` of file `file` (drawn for task `drawn_for` where that task has none), counted by
/// the method too, on the pool the caller runs in (a large slice's sieve is shared by its
/// threads, as a task's is).
fn check_slice(q: &Slices, file: &str, d: Drawn, drawn_for: Option<u32>) -> Result<SliceCheck> {
    let start = Instant::now();
    let method = q.by_method(&d.slice)?;
    Ok(SliceCheck {
        file: file.to_string(),
        slice: d.slice,
        drawn_for,
        method,
        backtracking: d.backtracking,
        agrees: method == d.backtracking,
        method_seconds: start.elapsed().as_secs_f64(),
        backtracking_seconds: d.seconds,
    })
}

/// Slices of the plan of an `n` board, without a file: what `audit --plan` runs (how long a
/// slice takes, and whether the method agrees with backtracking, at any N).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanSlices {
    /// Every slice, counted both ways.
    pub slices: Vec<SliceCheck>,
    /// The tasks with fewer distinct slices than asked for.
    pub fewer: Vec<FewerSlices>,
}

/// `tasks` distinct tasks of the plan of an `n` board drawn at random (`seed`), `slices`
/// distinct slices of each (`draw_task`: slices that hold solutions preferred), each
/// counted both ways. Tasks without a slice are passed over, and tasks whose slices hold no
/// solution taken only where too few others were found.
pub fn slices_of_plan(
    n: u32,
    tasks: usize,
    slices: usize,
    seed: u64,
    opts: &Options,
) -> Result<PlanSlices> {
    let q = Slices::of_plan(n, opts)?;
    // The draws' searches and the method's counts on the engine's pool, woken once.
    pool(opts.resolved_threads())?.install(|| draw_plan(&q, n, tasks, slices, seed))
}

/// [`slices_of_plan`] of the plan `q` of an `n` board, on the pool the caller runs in.
fn draw_plan(q: &Slices, n: u32, tasks: usize, slices: usize, seed: u64) -> Result<PlanSlices> {
    let mut mix = SplitMix(seed);
    let name = format!("plan of N = {n}");
    let rows = q.tasks().saturating_sub(1).max(1);
    let (mut good, mut empty) = (Vec::new(), Vec::new());
    let mut tried = std::collections::HashSet::new();
    for _ in 0..64 * tasks.max(1) {
        if good.len() == tasks || tried.len() as u64 == rows as u64 {
            break;
        }
        let task = (mix.next() % rows as u64) as u32;
        if !tried.insert(task) {
            continue;
        }
        let drawn = draw_task(q, task, DRAWS, slices, &mut mix, &[])?;
        match (drawn.is_empty(), any_solutions(&drawn)) {
            (true, _) => {}
            (false, true) => good.push((task, drawn)),
            (false, false) => empty.push((task, drawn)),
        }
    }
    let short = tasks.saturating_sub(good.len());
    good.extend(empty.into_iter().take(short));
    let mut out = PlanSlices {
        slices: Vec::new(),
        fewer: Vec::new(),
    };
    for (task, drawn) in good {
        if drawn.len() < slices {
            out.fewer.push(FewerSlices {
                file: name.clone(),
                task,
                slices: drawn.len(),
            });
        }
        for d in drawn {
            out.slices.push(check_slice(q, &name, d, None)?);
        }
    }
    Ok(out)
}
