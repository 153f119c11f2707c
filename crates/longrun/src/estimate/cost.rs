//! Estimates before a long run: a seeded random sample of the plan's tasks, counted within a
//! time budget, projected to the whole count's core-hours and solutions with an interval,
//! with the memory a worker needs and the number of shards of a wanted length.
//!
//! The plan is the one `count N --shard I/K` builds (the same method, tasks and work
//! estimates). Tasks are drawn with probability proportional to their work estimate `e_i`
//! (with replacement), so the large tasks that make most of the time are the ones measured;
//! each drawn task's CPU time `t_i` (not wall time: its thread's, or, for a method that spreads
//! a task over the threads and so counts the draws in turn, the process's) stands for
//! `t_i / p_i`, where
//! `p_i = e_i / E` and `E` is the plan's total estimate (the Hansen–Hurwitz estimator). The
//! projection is `E` times the mean of `t_i / e_i`, its interval the mean's 95% Student
//! interval; the solutions are projected the same way (a check against A000170 where known).
//! A striped plan ([`Work::Striped`]) has no per-task estimates: its tasks are drawn uniformly
//! (every `e_i` 1).
//! A method that keeps work from one task for the next (the quadrant method's filtered quarters
//! on odd boards) has each drawn task counted twice: alone, as a shard's scattered tasks are,
//! then again as among its neighbours in a whole count; both are projected.

use crate::estimate::projection::{project, project_ratio, Projected};
pub use crate::estimate::request::EstimateRequest;
use crate::estimate::sample::Sampled;
use crate::estimate::sample::{
    process_seconds, sample, sampled_share, total_work, FinishedDraws, SampleStop,
};
use crate::estimate::warnings::{beyond_a_lifetime, sample_warnings, warn_of_a_slow_sample};
use nqueens_board::error::{Error, Result};
use nqueens_count::engine::Work;
use nqueens_count::memory;
use nqueens_count::oeis::Sequence;
use nqueens_count::{Job, Options};
use serde::Serialize;
use std::time::Instant;

/// What an estimate found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    /// The board.
    pub n: u32,
    /// The method the count (and its shards) would use.
    pub algorithm: String,
    /// The plan's tasks, and its fingerprint (the shards' plan).
    pub plan_tasks: usize,
    pub fingerprint: String,
    /// The sample's seed (the same seed gives the same draws).
    pub seed: u64,
    /// Worker threads that counted the sample.
    pub threads: usize,
    /// CPU seconds of the plan's set-up (plan, tables, estimates): every shard pays it once.
    pub setup_seconds: f64,
    /// Wall seconds the sample took.
    pub sample_seconds: f64,
    /// The share of the plan's estimated work the sampled tasks make (drawn again counted
    /// once).
    pub sampled_share: f64,
    /// The whole count's CPU seconds, tasks only (the set-up comes on top, once per shard),
    /// in one run's order.
    pub core_seconds: Projected,
    /// The same with every task counted alone, as in shards of few tasks (scattered by the
    /// balance): more than `core_seconds` when the method keeps work from one task for its
    /// neighbours (the quadrant method's filtered quarters on odd boards up to N = 23); shards
    /// of many tasks cost between the two.
    pub core_seconds_in_shards: Projected,
    /// The whole count's solutions.
    pub solutions: Projected,
    /// A000170(N) where known, to compare the projected solutions with.
    pub known: Option<u128>,
    /// CPU seconds per solution of the sampled tasks (none when they have no solutions).
    pub seconds_per_solution: Option<f64>,
    /// The whole count's CPU seconds as a(N) times the sample's seconds per solution (in one
    /// run's order), a(N) known or projected: steadier than `core_seconds` where the tasks'
    /// work estimates follow their cost loosely (past N = 23), as the cost per solution varies
    /// less from task to task than the cost per estimated unit.
    pub core_seconds_by_solutions: Option<Projected>,
    /// The quadrant method's memory estimate with these threads (none for backtracking, which
    /// needs almost none), and the peak of this process.
    pub memory_estimate_bytes: Option<u64>,
    pub peak_memory_bytes: Option<u64>,
    /// The figure of the whole count's CPU seconds to plan by, and which it is: by a(N) past
    /// N = 23 (where the tasks' work estimates follow their cost loosely), the rough scale
    /// there when the sample found no solution, and the tasks counted alone up to it.
    pub to_use: Projected,
    pub to_use_is: CostBasis,
    /// The wanted shard length (minutes on one thread) and the shards that give it (from
    /// `core_seconds_in_shards` up to N = 23, from `core_seconds_by_solutions` past it), never
    /// fewer than count accepts ([`crate::least_shards`]).
    pub shard_minutes: f64,
    pub shards: u64,
    /// The fewest shards count accepts for this plan (their files within what merge reads,
    /// their records within the memory limit).
    pub least_shards: u64,
    /// Whether a cancel flag ([`Options::cancel`]) stopped the sample before its end: the
    /// projection is then of the draws up to the first unfinished one, and the first warning
    /// says so.
    pub interrupted: bool,
    /// What the sample cannot support: no solution found, or too few tasks with solutions
    /// for the projections to mean much.
    pub warnings: Vec<String>,
    /// The tasks counted, in the order they were drawn.
    pub sampled: Vec<Sampled>,
}

/// The figure to trust (see [`Estimate::to_use`]) of the count of an `n` board planned as
/// `job`: by a(N) past the table, the rough scale there where the sample found nothing, the
/// tasks alone up to it.
fn figure_to_use(
    n: u32,
    job: &Job,
    by_solutions: Option<&Projected>,
    in_shards: Projected,
) -> (Projected, CostBasis) {
    match by_solutions {
        Some(p) if n > Job::TABLE_MAX_N => (*p, CostBasis::BySolutions),
        None if n > Job::TABLE_MAX_N => {
            let rough = Projected {
                value: job.id().algorithm.rough_core_seconds(n),
                low: None,
                high: None,
            };
            (rough, CostBasis::RoughScale)
        }
        _ => (in_shards, CostBasis::TasksAlone),
    }
}

/// Which of an estimate's figures its [`Estimate::to_use`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CostBasis {
    /// a(N) times the sample's cost per solution.
    BySolutions,
    /// The sampled tasks' cost, each counted alone, over their share of the plan's work.
    TasksAlone,
    /// The method's rough cost per solution times a(N): the sample found no solution.
    RoughScale,
}

impl CostBasis {
    /// The basis in words, for a reader.
    pub fn said(self) -> &'static str {
        match self {
            CostBasis::BySolutions => "a(N) times the sample's cost per solution",
            CostBasis::TasksAlone => {
                "the sampled tasks, each counted alone as a shard counts it, over their share of \
                 the work"
            }
            CostBasis::RoughScale => "a rough scale: the sample found no solution",
        }
    }
}

/// Estimates the count of an `n` board as `opts` say (the plan `count N --shard` would use),
/// as `ask` says.
pub fn estimate(n: u32, opts: &Options, ask: EstimateRequest) -> Result<Estimate> {
    if !(ask.seconds > 0.0 && ask.shard_minutes > 0.0) || ask.tasks == Some(0) {
        let what = "an estimate needs a time budget, a number of tasks and a shard length above 0";
        return Err(Error::Usage(what.into()));
    }
    if !ask.force {
        beyond_a_lifetime(n, opts, ask)?;
    }
    let start = Instant::now();
    let cpu = process_seconds(start);
    let job = Job::new(n, opts, Some(crate::LONG_RUN_SPLIT_DEPTH))?;
    let counter = job.counter();
    let work = std::sync::Arc::new(Work::of(counter.as_ref()));
    let setup_seconds = process_seconds(start) - cpu;
    let total = total_work(&work);
    if total == 0 {
        return Err(Error::Usage(format!("N = {n} has no work to estimate")));
    }
    warn_of_a_slow_sample(n, &job, &work, total, ask)?;
    let until = SampleStop::asked(ask.seconds, ask.tasks, work.tasks());
    let began = Instant::now();
    let cancel = opts.cancel.clone();
    let drawn = sample(
        counter,
        work.clone(),
        job.threads(),
        until,
        ask.seed,
        cancel,
    )?;
    let sampling = SampledPlan {
        job: &job,
        work: &work,
        total,
        setup_seconds,
        sample_seconds: began.elapsed().as_secs_f64(),
    };
    Ok(projected(n, opts, ask, &sampling, drawn))
}

/// The plan an estimate sampled, and what setting it up and sampling it took.
struct SampledPlan<'a> {
    job: &'a Job,
    work: &'a Work,
    /// The plan's total estimated work.
    total: u128,
    setup_seconds: f64,
    sample_seconds: f64,
}

/// The estimate of the count of an `n` board (asked by `opts` and `ask`) from what its plan's
/// sample `drawn` found.
fn projected(
    n: u32,
    opts: &Options,
    ask: EstimateRequest,
    p: &SampledPlan,
    drawn: FinishedDraws,
) -> Estimate {
    let FinishedDraws { sampled, stopped } = drawn;
    let (job, total) = (p.job, p.total);
    let ratio = |f: fn(&Sampled) -> f64| -> Vec<f64> {
        sampled.iter().map(|s| f(s) / s.estimate as f64).collect()
    };
    let core_seconds = project(total as f64, &ratio(|s| s.seconds));
    let core_seconds_in_shards = project(total as f64, &ratio(|s| s.alone_seconds));
    let solutions = project(total as f64, &ratio(|s| s.solutions as f64));
    let (times, counts) = (ratio(|s| s.seconds), ratio(|s| s.solutions as f64));
    let seconds_per_solution = seconds_per_solution(&sampled);
    let a_n = nqueens_count::oeis::a000170_estimate(n);
    let core_seconds_by_solutions = project_ratio(a_n, &times, &counts);
    let with_solutions = sampled.iter().filter(|s| s.solutions > 0).count();
    let mut warnings = sample_warnings(n, with_solutions, sampled.len());
    warnings.splice(0..0, stopped.clone());
    let (to_use, to_use_is) = figure_to_use(
        n,
        job,
        core_seconds_by_solutions.as_ref(),
        core_seconds_in_shards,
    );
    let whole = to_use.value;
    let (shards, least_shards) = shards_to_advise(opts, job, whole, p.setup_seconds, ask);
    Estimate {
        n,
        algorithm: job.id().algorithm.to_string(),
        plan_tasks: job.tasks(),
        fingerprint: job.id().fingerprint.clone(),
        seed: ask.seed,
        threads: job.threads(),
        setup_seconds: p.setup_seconds,
        sample_seconds: p.sample_seconds,
        sampled_share: sampled_share(&sampled, p.work, total),
        core_seconds,
        core_seconds_in_shards,
        solutions,
        known: Sequence::A000170.known(n),
        seconds_per_solution,
        core_seconds_by_solutions,
        to_use,
        to_use_is,
        memory_estimate_bytes: job.memory_estimate(),
        peak_memory_bytes: memory::peak(),
        shard_minutes: ask.shard_minutes,
        shards,
        least_shards,
        interrupted: stopped.is_some(),
        warnings,
        sampled,
    }
}

/// The sample's CPU seconds over its solutions, if it found any.
fn seconds_per_solution(sampled: &[Sampled]) -> Option<f64> {
    let found: u128 = sampled.iter().map(|s| s.solutions).sum();
    (found > 0).then(|| sampled.iter().map(|s| s.seconds).sum::<f64>() / found as f64)
}

/// The shards to advise for `whole` core-seconds of work, and the least that memory allows:
/// each shard pays the set-up once, so shards of `shard_minutes` hold that much less work.
fn shards_to_advise(
    opts: &Options,
    job: &Job,
    whole: f64,
    setup_seconds: f64,
    ask: EstimateRequest,
) -> (u64, u64) {
    let per_shard = (ask.shard_minutes * 60.0 - setup_seconds).max(ask.shard_minutes * 6.0);
    let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
    let least = crate::fit::least_shards(job.tasks(), job.least_memory().unwrap_or(0), limit);
    let shards = (whole / per_shard)
        .ceil()
        .max(least as f64)
        .clamp(1.0, crate::distributed::shard::MAX_SHARDS as f64);
    (shards as u64, least)
}
