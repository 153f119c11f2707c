//! The audit of a quadrant method's file: its sampled tasks recounted by the method in another
//! build (or in the file's own, or by backtracking), and slices of them counted both by the
//! method and by backtracking ([`SliceCheck`]).

use super::{file_audit, recount, Auditor, FileAudit, Mix, QuadrantRecount, Recorded, Recount};
use crate::count::arch::Build;
use crate::count::memory;
use crate::count::quadrants::slice::{self, Slice};
use crate::count::quadrants::{builds, BuildCap, Quadrants, Settings};
use crate::count::tally::Tally;
use crate::count::{Job, Options};
use crate::error::{Error, Result};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// One slice of a recounted task, counted by the method and by backtracking.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SliceCheck {
    /// The file whose task it is a slice of.
    pub file: String,
    /// The slice.
    pub slice: Slice,
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

/// The build to recount file `f`'s tasks in: for [`QuadrantRecount::SameMethod`] the one the
/// file records (this CPU's richest where it records none this CPU runs); else the richest
/// this CPU runs that the file does not record (where the file records none, one poorer than
/// this CPU's richest: the file was likely counted in the richest of a CPU like it).
fn recount_build(f: &Recorded, how: QuadrantRecount, cap: Option<BuildCap>) -> Build {
    // The builds this CPU runs, up to the cap asked for (`NQUEENS_QUADRANT_BUILD`).
    let here: Vec<Build> = builds()
        .into_iter()
        .filter(|&b| cap.is_none_or(|cap| BuildCap::of(b).is_some_and(|c| c <= cap)))
        .collect();
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

/// Recounts the tasks `ids` of quadrant method file `f` as `how` says, drawing slices with
/// the auditor's seed into its report; returns the recounted tallies, by id, and how it
/// recounted. The recounting plan is set up once for all the files of a plan.
pub(super) fn recount_quadrants(
    a: &mut Auditor,
    f: &Recorded,
    ids: &[u32],
    how: Recount,
) -> Result<(Vec<(u32, Tally)>, FileAudit)> {
    let opts = a.opts;
    let named = |e: Error| Error::Input(format!("{}: {e}", f.name));
    let fingerprint = &f.plan().fingerprint;
    if how.quadrants == QuadrantRecount::Backtracking {
        let counter = a.counter(format!("{fingerprint} backtracking"), || {
            Ok(Job::recounting(f.plan(), opts, false)
                .map_err(named)?
                .counter())
        })?;
        let got = recount(counter, ids, opts)?;
        let audit = file_audit(f, ids, "backtracking by row set".into(), false);
        return Ok((got, audit));
    }
    let build = recount_build(f, how.quadrants, opts.quadrants.build);
    let key = format!("{fingerprint} quadrants {}", build.name());
    let q = match a.quadrants.iter().find(|(k, _)| *k == key) {
        Some((_, q)) => q.clone(),
        None => {
            let settings = Settings {
                build: build.name().parse::<BuildCap>().ok(),
                ..opts.quadrants.for_plan(f.plan().n, fingerprint)
            };
            let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
            let q = Quadrants::within(f.plan().n, opts.resolved_threads(), limit, &settings)?;
            f.plan()
                .check_fingerprint(&q.id().fingerprint)
                .map_err(named)?;
            let q = Arc::new(q);
            a.quadrants.push((key, q.clone()));
            q
        }
    };
    let got = recount(q.clone(), ids, opts)?;
    if how.quadrants == QuadrantRecount::OtherBuild {
        for s in draw_slices(&q, f, ids, how.slices, &mut a.mix) {
            a.report.slices.push(check_slice(&q, &f.name, s)?);
        }
    }
    let audit = file_audit(f, ids, format!("quadrants, {} build", build.name()), true);
    Ok((got, audit))
}

/// `per_task` distinct slices of each of the tasks `ids` of file `f` (drawn with `mix`; fewer
/// where a task has fewer); as many of other tasks of the file with solutions, drawn at
/// random, for a task that has no slice (one whose row sets symmetry drops, or with no
/// solution).
fn draw_slices(
    q: &Quadrants,
    f: &Recorded,
    ids: &[u32],
    per_task: usize,
    mix: &mut Mix,
) -> Vec<Slice> {
    let with_solutions: Vec<u32> = f
        .done()
        .iter()
        .filter(|d| d.counts.total > 0)
        .map(|d| d.id)
        .collect();
    let mut out = Vec::new();
    for &task in ids {
        let (mut from, mut got) = (task, 0);
        for _ in 0..16 * per_task {
            if got == per_task {
                break;
            }
            match slice::draw(q, from, &mut || mix.next()) {
                // A slice drawn twice would check the same solutions twice: another instead.
                Some(s) if out.contains(&s) => {}
                Some(s) => {
                    out.push(s);
                    got += 1;
                }
                None if with_solutions.is_empty() => break,
                _ => from = with_solutions[(mix.next() % with_solutions.len() as u64) as usize],
            }
        }
    }
    out
}

/// Slice `s` of file `file` counted both ways.
fn check_slice(q: &Quadrants, file: &str, s: Slice) -> Result<SliceCheck> {
    let start = Instant::now();
    let method = slice::by_method(q, &s)?;
    let method_seconds = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let backtracking = slice::by_backtracking(q, &s)?;
    Ok(SliceCheck {
        file: file.to_string(),
        slice: s,
        method,
        backtracking,
        agrees: method == backtracking,
        method_seconds,
        backtracking_seconds: start.elapsed().as_secs_f64(),
    })
}

/// Slices of the plan of an `n` board, without a file: `tasks` tasks of it drawn at random
/// (`seed`), `slices` slices of each, each counted both ways. What `audit --plan` runs: how
/// long a slice takes, and whether the method agrees with backtracking, at any N.
pub fn slices_of_plan(
    n: u32,
    (tasks, slices): (usize, usize),
    seed: u64,
    opts: &Options,
) -> Result<Vec<SliceCheck>> {
    let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
    let q = Quadrants::within(n, opts.resolved_threads(), limit, &opts.quadrants)?;
    let mut mix = Mix(seed);
    let name = format!("plan of N = {n}");
    let rows = crate::count::engine::Counter::tasks(&q)
        .saturating_sub(1)
        .max(1);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < tasks * slices && tries < 64 * tasks.max(1) {
        tries += 1;
        let task = (mix.next() % rows as u64) as u32;
        let mut drawn: Vec<Slice> = Vec::new();
        for _ in 0..4 * slices {
            if drawn.len() == slices {
                break;
            }
            match slice::draw(&q, task, &mut || mix.next()) {
                Some(s) if drawn.contains(&s) => {}
                Some(s) => drawn.push(s),
                // A task that symmetry empties, or a row set without a placement: another.
                None => break,
            }
        }
        for s in drawn {
            out.push(check_slice(&q, &name, s)?);
        }
    }
    Ok(out)
}
