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
use crate::estimate::sample::{process_seconds, sample, sampled_share, total_work, SampleStop};
pub use crate::estimate::sample::{Sampled, MIN_SAMPLED};
use nqueens_board::error::{Error, Result};
use nqueens_board::limits::LIFETIME_SECONDS;
use nqueens_count::engine::Work;
use nqueens_count::memory;
use nqueens_count::oeis::Sequence;
use nqueens_count::{Job, Options};
use serde::Serialize;
use std::time::Instant;

/// What an estimate is asked.
#[derive(Debug, Clone, Copy)]
pub struct EstimateRequest {
    /// The time budget for counting sampled tasks (wall seconds): no task starts after it;
    /// at least [`MIN_SAMPLED`] are counted whatever it says.
    pub seconds: f64,
    /// Count exactly this many draws instead, whatever the time (the same seed then gives the
    /// same estimate of the solutions).
    pub tasks: Option<usize>,
    /// The wanted length of one shard, in minutes on one thread.
    pub shard_minutes: f64,
    /// The seed of the sample.
    pub seed: u64,
    /// Told, before any task is counted, when the plan's tasks are so large that the fewest
    /// draws are expected to take far longer than asked (over an hour, and over ten times the
    /// budget): what one costs, roughly.
    pub warn: Option<fn(&str)>,
    /// Go on even when the fewest draws cannot finish in a lifetime (by default they are
    /// refused, before anything is built).
    pub force: bool,
}

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

/// Past this many seconds of sampling, a sample of tasks asked for by number is worth a
/// warning.
const SLOW_SAMPLE_SECONDS: f64 = 3600.0;

/// A sample whose fewest draws would take this many times the `--seconds` asked is said to
/// before counting: the budget cannot be kept.
const OVER_BUDGET: f64 = 1.5;

/// Roughly what the fewest draws of `work` (`total` estimated) will take, if far more than
/// `ask` wants: a(N) (known or projected) times the method's rough cost per solution, times a
/// draw's expected share of the work (`Σ e_i² / E²` when drawn by estimate, `1 / tasks`
/// uniformly), times the draws one thread counts.
fn slow_sample(
    n: u32,
    job: &Job,
    work: &Work,
    total: u128,
    ask: EstimateRequest,
) -> Option<(String, f64)> {
    let algorithm = job.id().algorithm;
    let ns = algorithm.rough_ns_per_solution();
    let whole = nqueens_count::oeis::a000170_estimate(n) * ns * 1e-9;
    let share = match work {
        Work::Estimated(est) => {
            let squares: f64 = est.iter().map(|&e| (e as f64).powi(2)).sum();
            squares / (total as f64).powi(2)
        }
        Work::Striped { tasks, .. } => 1.0 / *tasks as f64,
    };
    let passes = if job.counter().warms() { 2.0 } else { 1.0 };
    let per_draw = whole * share * passes;
    let draws = ask.tasks.unwrap_or(MIN_SAMPLED);
    let threads = job.threads();
    // A method that spreads a task over the threads counts the draws in turn, each on all of
    // them; another counts one draw per thread.
    let spreads = job.counter().spreads();
    let wall = if spreads {
        per_draw * draws as f64 / threads as f64
    } else {
        per_draw * draws.div_ceil(threads) as f64
    };
    // Tasks asked for by number take what they take: warned of past an hour. A time budget
    // is kept to, or the reason it cannot be is said before counting.
    let asked = match ask.tasks {
        Some(_) => SLOW_SAMPLE_SECONDS,
        None => OVER_BUDGET * ask.seconds,
    };
    let days = |s: f64| match s / 86_400.0 {
        _ if s < 120.0 => format!("{s:.0} s"),
        _ if s < 3600.0 => format!("{:.0} minutes", s / 60.0),
        d if d < 1.0 => format!("{:.1} hours", s / 3600.0),
        d if d < 1000.0 => format!("{d:.0} days"),
        d => format!("{:.0} years", d / 365.25),
    };
    let counted = match ask.tasks {
        Some(k) => format!("the {k} asked for are counted"),
        None => format!("at least {draws} are counted whatever the time budget"),
    };
    (wall > asked).then(|| {
        let budget = match ask.tasks {
            Some(_) => String::new(),
            None => format!(", not the {} s asked for", ask.seconds),
        };
        let m = format!(
            "this plan's tasks are large: a drawn task of N = {n} takes roughly {} of CPU \
             (algorithm {algorithm} at about {ns} core-ns per solution, a rough scale), and \
             {counted}: about {} on {} before the estimate is printed{budget} (interrupt it \
             to stop)",
            days(per_draw),
            days(wall),
            match threads {
                1 => "1 thread".to_string(),
                t if spreads => format!("{t} threads (each task counted by all of them)"),
                t => format!("{t} threads (one task per thread)"),
            },
        );
        (m, wall)
    })
}

/// Refuses, from arithmetic alone, an estimate of a backtracking plan whose fewest draws
/// cannot finish in a lifetime: a plan holds at most [`Job::MOST_PLAN_TASKS`] tasks, so a drawn task
/// costs at least the whole count's rough cost over that many.
fn beyond_a_lifetime(n: u32, opts: &Options, ask: EstimateRequest) -> Result<()> {
    let algorithm = opts.resolved_algorithm(n);
    if algorithm == nqueens_count::Algorithm::Quadrants || !opts.placed.is_empty() {
        return Ok(());
    }
    let per_draw = algorithm.rough_core_seconds(n) / Job::MOST_PLAN_TASKS as f64;
    let draws = ask.tasks.unwrap_or(MIN_SAMPLED);
    let wall = per_draw * draws.div_ceil(opts.resolved_threads().max(1)) as f64;
    if wall > LIFETIME_SECONDS {
        return Err(Error::Usage(format!(
            "a drawn task of N = {n} takes at least about {:.0e} years of CPU (algorithm \
             {algorithm} at about {} core-ns per solution, a plan of at most {} \
             tasks): the sample cannot finish in a lifetime; nothing is counted (ask for it \
             anyway with `force`)",
            per_draw / (365.25 * 86_400.0),
            algorithm.rough_ns_per_solution(),
            Job::MOST_PLAN_TASKS,
        )));
    }
    Ok(())
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
    let work = Work::of(counter.as_ref());
    let setup_seconds = process_seconds(start) - cpu;
    let total = total_work(&work);
    if total == 0 {
        return Err(Error::Usage(format!("N = {n} has no work to estimate")));
    }
    warn_of_a_slow_sample(n, &job, &work, total, ask)?;
    let until = SampleStop::asked(ask.seconds, ask.tasks, work.tasks());
    let began = Instant::now();
    let sampled = sample(counter.as_ref(), &work, job.threads(), until, ask.seed)?;
    let sample_seconds = began.elapsed().as_secs_f64();
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
    let warnings = sample_warnings(n, with_solutions, sampled.len());
    let (to_use, to_use_is) = figure_to_use(
        n,
        &job,
        core_seconds_by_solutions.as_ref(),
        core_seconds_in_shards,
    );
    let whole = to_use.value;
    let (shards, least_shards) = shards_to_advise(opts, &job, whole, setup_seconds, ask);
    Ok(Estimate {
        n,
        algorithm: job.id().algorithm.to_string(),
        plan_tasks: job.tasks(),
        fingerprint: job.id().fingerprint.clone(),
        seed: ask.seed,
        threads: job.threads(),
        setup_seconds,
        sample_seconds,
        sampled_share: sampled_share(&sampled, &work, total),
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
        warnings,
        sampled,
    })
}

/// The sample's CPU seconds over its solutions, if it found any.
fn seconds_per_solution(sampled: &[Sampled]) -> Option<f64> {
    let found: u128 = sampled.iter().map(|s| s.solutions).sum();
    (found > 0).then(|| sampled.iter().map(|s| s.seconds).sum::<f64>() / found as f64)
}

/// Warns (through `ask.warn`) when even the smallest sample would take long, and refuses
/// one that would not finish in a lifetime unless `ask.force`.
fn warn_of_a_slow_sample(
    n: u32,
    job: &Job,
    work: &Work,
    total: u128,
    ask: EstimateRequest,
) -> Result<()> {
    if let Some((m, wall)) = slow_sample(n, job, work, total, ask) {
        if wall > LIFETIME_SECONDS && !ask.force {
            return Err(Error::Usage(format!(
                "{m}: more than a lifetime; nothing is counted (ask for it anyway with `force`)"
            )));
        }
        if let Some(warn) = ask.warn {
            warn(&m);
        }
    }
    Ok(())
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

/// What a sample of `drawn` tasks, `with_solutions` of them with solutions, cannot support.
fn sample_warnings(n: u32, with_solutions: usize, drawn: usize) -> Vec<String> {
    let mut v = Vec::new();
    if with_solutions == 0 {
        v.push(format!(
            "none of the {drawn} drawn tasks of N = {n} has a solution (symmetry drops about \
             half the row sets of a large plan, and some tasks hold none): the projections \
             rest on nothing, and the shards are sized by a rough cost; draw more tasks \
             (`--tasks`, or a longer `--seconds`)"
        ));
    } else if with_solutions < MIN_WITH_SOLUTIONS {
        let held = if with_solutions == drawn {
            let tasks = if drawn == 1 { "task" } else { "tasks" };
            format!("the sample holds only {drawn} {tasks}, all with solutions")
        } else {
            format!("only {with_solutions} of the {drawn} drawn tasks have solutions")
        };
        v.push(format!(
            "{held}: too few for firm projections, and their intervals are wide; \
             {MIN_WITH_SOLUTIONS} or more tasks with solutions make them firmer (`--tasks \
             {MIN_WITH_SOLUTIONS}` or more, or a longer `--seconds`)"
        ));
    }
    v
}

/// Drawn tasks with solutions below which an estimate says its projections are rough.
const MIN_WITH_SOLUTIONS: usize = 10;

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the fewest draws of the `algorithm` plan of `n` (one thread, `seconds` asked)
    /// are warned of.
    fn warned(n: u32, algorithm: nqueens_count::Algorithm, seconds: f64) -> Option<String> {
        let opts = Options::default().with_threads(1).with_algorithm(algorithm);
        let job = Job::new(n, &opts, Some(crate::LONG_RUN_SPLIT_DEPTH)).unwrap();
        let work = Work::of(job.counter().as_ref());
        let total = total_work(&work);
        let ask = EstimateRequest {
            seconds,
            tasks: None,
            shard_minutes: 60.0,
            seed: 1,
            warn: None,
            force: false,
        };
        slow_sample(n, &job, &work, total, ask).map(|(m, _)| m)
    }

    #[test]
    fn a_plan_of_huge_tasks_is_warned_of() {
        use nqueens_count::Algorithm::*;
        // N = 29 by backtracking: days per task; N = 28 by mirror halving: weeks.
        let m = warned(29, Symmetric, 60.0).expect("N = 29 warned");
        assert!(m.contains("N = 29") && m.contains("days"), "{m}");
        assert!(warned(28, Mirror, 60.0).is_some());
        // Small boards, and a budget that covers the tasks, are not.
        assert_eq!(warned(20, Symmetric, 60.0), None);
        assert_eq!(warned(29, Symmetric, 1e7), None);
        // A time budget the fewest draws cannot keep is said so before counting (otherwise
        // `estimate 27 --seconds 10` would sample for 22 s, then 83 s, without a word).
        let m = warned(24, Quadrants, 0.5).expect("N = 24 in half a second warned");
        assert!(m.contains("not the 0.5 s asked for"), "{m}");
        assert_eq!(warned(24, Quadrants, 600.0), None);
    }

    #[test]
    fn thin_samples_are_warned_of_in_words_that_fit() {
        let all = sample_warnings(27, 4, 4);
        assert!(
            all[0].contains("the sample holds only 4 tasks, all with solutions"),
            "{all:?}"
        );
        let some = sample_warnings(27, 3, 8);
        assert!(
            some[0].contains("only 3 of the 8 drawn tasks have solutions"),
            "{some:?}"
        );
        assert!(sample_warnings(27, 0, 8)[0].contains("none of the 8"));
        assert!(sample_warnings(27, 12, 12).is_empty());
        assert!(sample_warnings(27, 1, 1)[0].starts_with("the sample holds only 1 task, all"));
    }
}
