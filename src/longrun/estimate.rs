//! Estimates before a long run: a seeded random sample of the plan's tasks, counted within a
//! time budget, projected to the whole count's core-hours and solutions with an interval,
//! with the memory a worker needs and the number of shards of a wanted length.
//!
//! The plan is the one `count N --shard I/K` builds (the same method, tasks and work
//! estimates). Tasks are drawn with probability proportional to their work estimate `e_i`
//! (with replacement), so the large tasks that make most of the time are the ones measured;
//! each drawn task's CPU time `t_i` (its thread's, not wall time) stands for `t_i / p_i`, where
//! `p_i = e_i / E` and `E` is the plan's total estimate (the Hansen–Hurwitz estimator). The
//! projection is `E` times the mean of `t_i / e_i`, its interval the mean's 95% Student
//! interval; the solutions are projected the same way (a check against A000170 where known).
//! A striped plan ([`Work::Striped`]) has no per-task estimates: its tasks are drawn uniformly
//! (every `e_i` 1).
//! A method that keeps work from one task for the next (the quadrant method's filtered quarters
//! on odd boards) has each drawn task counted twice: alone, as a shard's scattered tasks are,
//! then again as among its neighbours in a whole count; both are projected.

use super::projection::{project, project_ratio, Projected};
use crate::count::engine::{Counter, Work};
use crate::count::memory;
use crate::count::oeis::Sequence;
use crate::count::plan::MAX_PLAN_TASKS;
use crate::count::quadrants::TABLE_MAX_N;
use crate::count::{Job, Options};
use crate::error::{Error, Result};
use crate::limits::LIFETIME_SECONDS;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What an estimate is asked.
#[derive(Debug, Clone, Copy)]
pub struct Ask {
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

/// The fewest tasks counted, whatever the budget (two give an interval).
pub const MIN_SAMPLED: usize = 2;

/// One sampled task and what counting it cost.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sampled {
    /// The task id.
    pub task: u32,
    /// Its work estimate (the plan's, as shards are balanced by).
    pub estimate: u64,
    /// CPU seconds its count took on its thread, as in a whole count (after a task of the
    /// same neighbourhood, when the method keeps work from one task for the next).
    pub seconds: f64,
    /// CPU seconds its count took alone, as a shard's scattered tasks are counted (only for a
    /// method that keeps work from task to task; else the same as `seconds`).
    pub alone_seconds: f64,
    /// Its solutions.
    pub solutions: u128,
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
    /// The wanted shard length (minutes on one thread) and the shards that give it (from
    /// `core_seconds_in_shards` up to N = 23, from `core_seconds_by_solutions` past it), never
    /// fewer than count accepts ([`super::least_shards`]).
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

/// SplitMix64: the sample's draws, the `i`-th a function of the seed and `i` alone (so the
/// draws do not depend on which thread takes them).
fn draw(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add((i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The task of the `i`-th draw: drawn with probability proportional to its estimate, from
/// the estimates' running sums `cumulative` (the last is the total, above 0).
fn pick(cumulative: &[u128], seed: u64, i: u64) -> u32 {
    let total = *cumulative.last().expect("a plan has tasks");
    let wide = (draw(seed, 2 * i) as u128) << 64 | draw(seed, 2 * i + 1) as u128;
    let at = wide % total;
    cumulative.partition_point(|&c| c <= at) as u32
}

/// How the sample's tasks are drawn: in proportion to their estimates (from their running
/// sums), or, in a striped plan, whose tasks are estimated alike, uniformly among `tasks`.
enum Urn {
    Weighted(Vec<u128>),
    Uniform(u64),
}

impl Urn {
    fn new(work: &Work) -> Urn {
        match work {
            Work::Estimated(est) => Urn::Weighted(
                est.iter()
                    .scan(0u128, |sum, &e| {
                        *sum += e as u128;
                        Some(*sum)
                    })
                    .collect(),
            ),
            Work::Striped { tasks, .. } => Urn::Uniform(*tasks as u64),
        }
    }

    /// The task of the `i`-th draw.
    fn pick(&self, seed: u64, i: u64) -> u32 {
        match self {
            Urn::Weighted(cumulative) => pick(cumulative, seed, i),
            Urn::Uniform(tasks) => (draw(seed, 2 * i) % tasks) as u32,
        }
    }
}

/// The CPU time this thread has used (wall time where the system does not say).
fn thread_seconds(start: Instant) -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec for the call to fill.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    start.elapsed().as_secs_f64()
}

/// The CPU time this process has used, user and system (wall time where unknown).
fn process_seconds(start: Instant) -> f64 {
    #[cfg(unix)]
    {
        // SAFETY: all-zero is a valid rusage for the call to fill.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `u` is a valid rusage.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } == 0 {
            let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
            return s(u.ru_utime) + s(u.ru_stime);
        }
    }
    start.elapsed().as_secs_f64()
}

/// The most draws of one estimate: more would only repeat the plan's tasks (a plan that small
/// is quicker counted), and the report lists every draw.
pub const MAX_DRAWS: usize = 100_000;

/// When a sample ends: after `draws` draws, or (without) when `budget` has passed and at
/// least [`MIN_SAMPLED`] were drawn, and never past [`MAX_DRAWS`] or the plan's task count.
#[derive(Debug, Clone, Copy)]
struct Until {
    budget: Duration,
    draws: Option<usize>,
    most: usize,
}

impl Until {
    fn done(&self, i: usize, start: Instant) -> bool {
        match self.draws {
            Some(k) => i >= k.min(MAX_DRAWS),
            None => i >= self.most || (i >= MIN_SAMPLED && start.elapsed() >= self.budget),
        }
    }
}

/// Counts drawn tasks of `counter` on `threads` threads until `until` says, each timed on
/// its thread; in the order drawn.
fn sample(
    counter: &dyn Counter,
    work: &Work,
    threads: usize,
    until: Until,
    seed: u64,
) -> Vec<Sampled> {
    let urn = Urn::new(work);
    let start = Instant::now();
    let warms = counter.warms();
    let next = AtomicUsize::new(0);
    let out = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if until.done(i, start) {
                    break;
                }
                let task = urn.pick(seed, i as u64);
                let timed = || {
                    let before = thread_seconds(start);
                    let tally = counter.count(&[task])[0];
                    (tally, thread_seconds(start) - before)
                };
                let (tally, alone_seconds) = timed();
                // Again, warm: what it costs among its neighbours.
                let seconds = if warms { timed().1 } else { alone_seconds };
                let sampled = Sampled {
                    task,
                    estimate: work.at(task),
                    seconds,
                    alone_seconds,
                    solutions: tally.total,
                };
                out.lock()
                    .expect("no thread panics holding it")
                    .push((i, sampled));
            });
        }
    });
    let mut v = out.into_inner().expect("no thread panicked");
    v.sort_by_key(|&(i, _)| i);
    v.into_iter().map(|(_, s)| s).collect()
}

/// The share of the plan's estimated work (`total` of `work`) the distinct sampled tasks make.
fn sampled_share(sampled: &[Sampled], work: &Work, total: u128) -> f64 {
    let mut distinct: Vec<u32> = sampled.iter().map(|s| s.task).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let done: f64 = distinct.iter().map(|&t| work.at(t) as f64).sum();
    done / total as f64
}

/// The plan's total estimated work (a striped plan's tasks count 1 each).
fn total_work(work: &Work) -> u128 {
    match work {
        Work::Estimated(est) => est.iter().map(|&e| e as u128).sum(),
        Work::Striped { tasks, .. } => *tasks as u128,
    }
}

/// Past this many seconds of sampling, a plan's large tasks are worth a warning.
const SLOW_SAMPLE_SECONDS: f64 = 3600.0;

/// Roughly what the fewest draws of `work` (`total` estimated) will take, if far more than
/// `ask` wants: a(N) (known or projected) times the method's rough cost per solution, times a
/// draw's expected share of the work (`Σ e_i² / E²` when drawn by estimate, `1 / tasks`
/// uniformly), times the draws one thread counts.
fn slow_sample(n: u32, job: &Job, work: &Work, total: u128, ask: Ask) -> Option<(String, f64)> {
    let algorithm = job.id().algorithm;
    let ns = algorithm.rough_ns_per_solution();
    let whole = crate::count::oeis::a000170_estimate(n) * ns * 1e-9;
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
    let wall = per_draw * draws.div_ceil(job.threads()) as f64;
    let asked = match ask.tasks {
        Some(_) => SLOW_SAMPLE_SECONDS,
        None => (10.0 * ask.seconds).max(SLOW_SAMPLE_SECONDS),
    };
    let days = |s: f64| match s / 86_400.0 {
        d if d < 1.0 => format!("{:.1} hours", s / 3600.0),
        d if d < 1000.0 => format!("{d:.0} days"),
        d => format!("{:.0} years", d / 365.25),
    };
    let counted = match ask.tasks {
        Some(k) => format!("the {k} asked for are counted"),
        None => format!("at least {draws} are counted whatever the time budget"),
    };
    (wall > asked).then(|| {
        let m = format!(
            "this plan's tasks are large: a drawn task of N = {n} takes roughly {} of CPU \
             (algorithm {algorithm} at about {ns} core-ns a solution), and {counted}: about {} \
             on {} before the estimate is printed (interrupt it to stop)",
            days(per_draw),
            days(wall),
            if job.threads() == 1 {
                "1 thread".to_string()
            } else {
                format!("{} threads", job.threads())
            },
        );
        (m, wall)
    })
}

/// Refuses, from arithmetic alone, an estimate of a backtracking plan whose fewest draws
/// cannot finish in a lifetime: a plan holds at most [`MAX_PLAN_TASKS`] tasks, so a drawn task
/// costs at least the whole count's rough cost over that many.
fn beyond_a_lifetime(n: u32, opts: &Options, ask: Ask) -> Result<()> {
    let algorithm = opts.resolved_algorithm(n);
    if algorithm == crate::Algorithm::Quadrants || !opts.placed.is_empty() {
        return Ok(());
    }
    let per_draw = algorithm.rough_core_seconds(n) / MAX_PLAN_TASKS as f64;
    let draws = ask.tasks.unwrap_or(MIN_SAMPLED);
    let wall = per_draw * draws.div_ceil(opts.resolved_threads().max(1)) as f64;
    if wall > LIFETIME_SECONDS {
        return Err(Error::Usage(format!(
            "a drawn task of N = {n} takes at least about {:.0e} years of CPU (algorithm \
             {algorithm} at about {} core-ns a solution, a plan of at most {MAX_PLAN_TASKS} \
             tasks): the sample cannot finish in a lifetime; nothing is counted (ask for it \
             anyway with `force`)",
            per_draw / (365.25 * 86_400.0),
            algorithm.rough_ns_per_solution()
        )));
    }
    Ok(())
}

/// Estimates the count of an `n` board as `opts` say (the plan `count N --shard` would use),
/// as `ask` says.
pub fn estimate(n: u32, opts: &Options, ask: Ask) -> Result<Estimate> {
    if !(ask.seconds > 0.0 && ask.shard_minutes > 0.0) || ask.tasks == Some(0) {
        return Err(Error::Usage(
            "an estimate needs a time budget, a number of tasks and a shard length above 0".into(),
        ));
    }
    if !ask.force {
        beyond_a_lifetime(n, opts, ask)?;
    }
    let start = Instant::now();
    let cpu = process_seconds(start);
    let job = Job::new(n, opts, Some(super::LONG_RUN_SPLIT_DEPTH))?;
    let counter = job.counter();
    let work = Work::of(counter.as_ref());
    let setup_seconds = process_seconds(start) - cpu;
    let total = total_work(&work);
    if total == 0 {
        return Err(Error::Usage(format!("N = {n} has no work to estimate")));
    }
    if let Some((m, wall)) = slow_sample(n, &job, &work, total, ask) {
        if wall > LIFETIME_SECONDS && !ask.force {
            return Err(Error::Usage(format!(
                "{m}: more than a lifetime; nothing is counted (ask for it anyway with `force`)"
            )));
        }
        if let Some(warn) = ask.warn {
            warn(&m);
        }
    }
    let until = Until {
        budget: Duration::from_secs_f64(ask.seconds.min(1e9)),
        draws: ask.tasks,
        most: work.tasks().clamp(MIN_SAMPLED, MAX_DRAWS),
    };
    let began = Instant::now();
    let sampled = sample(counter.as_ref(), &work, job.threads(), until, ask.seed);
    let sample_seconds = began.elapsed().as_secs_f64();
    let ratio = |f: fn(&Sampled) -> f64| -> Vec<f64> {
        sampled.iter().map(|s| f(s) / s.estimate as f64).collect()
    };
    let core_seconds = project(total as f64, &ratio(|s| s.seconds));
    let core_seconds_in_shards = project(total as f64, &ratio(|s| s.alone_seconds));
    let solutions = project(total as f64, &ratio(|s| s.solutions as f64));
    let (times, counts) = (ratio(|s| s.seconds), ratio(|s| s.solutions as f64));
    let found: u128 = sampled.iter().map(|s| s.solutions).sum();
    let seconds_per_solution =
        (found > 0).then(|| sampled.iter().map(|s| s.seconds).sum::<f64>() / found as f64);
    let a_n = crate::count::oeis::a000170_estimate(n);
    let core_seconds_by_solutions = project_ratio(a_n, &times, &counts);
    let share = sampled_share(&sampled, &work, total);
    let with_solutions = sampled.iter().filter(|s| s.solutions > 0).count();
    let warnings = sample_warnings(n, with_solutions, sampled.len());
    // The figure to trust (see the fields), or the rough one where the sample found nothing.
    let whole = match &core_seconds_by_solutions {
        Some(p) if n > TABLE_MAX_N => p.value,
        None if n > TABLE_MAX_N => job.id().algorithm.rough_core_seconds(n),
        _ => core_seconds_in_shards.value,
    };
    // Each shard pays the set-up once: shards of `shard_minutes` hold that much less work.
    let per_shard = (ask.shard_minutes * 60.0 - setup_seconds).max(ask.shard_minutes * 6.0);
    let limit = opts.max_memory.unwrap_or_else(memory::default_limit);
    let least = super::least_shards(job.tasks(), job.least_memory().unwrap_or(0), limit);
    let shards = (whole / per_shard)
        .ceil()
        .max(least as f64)
        .clamp(1.0, super::shard::MAX_SHARDS as f64);
    Ok(Estimate {
        n,
        algorithm: job.id().algorithm.to_string(),
        plan_tasks: job.tasks(),
        fingerprint: job.id().fingerprint.clone(),
        seed: ask.seed,
        threads: job.threads(),
        setup_seconds,
        sample_seconds,
        sampled_share: share,
        core_seconds,
        core_seconds_in_shards,
        solutions,
        known: Sequence::A000170.known(n),
        seconds_per_solution,
        core_seconds_by_solutions,
        memory_estimate_bytes: job.memory_estimate(),
        peak_memory_bytes: memory::peak(),
        shard_minutes: ask.shard_minutes,
        shards: shards as u64,
        least_shards: least,
        warnings,
        sampled,
    })
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
        v.push(format!(
            "only {with_solutions} of the {drawn} drawn tasks have solutions: the projections \
             and their intervals are rough; draw more tasks for a firmer figure"
        ));
    }
    v
}

/// Drawn tasks with solutions below which an estimate says its projections are rough.
const MIN_WITH_SOLUTIONS: usize = 10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_follow_the_estimates() {
        // Task 1 has 3/4 of the work: about 3/4 of the draws.
        let cumulative = [1u128, 4, 4, 4];
        let picks: Vec<u32> = (0..4000).map(|i| pick(&cumulative, 9, i)).collect();
        let ones = picks.iter().filter(|&&t| t == 1).count();
        assert!((2800..3200).contains(&ones), "{ones}");
        // Tasks with no work are never drawn; the same seed draws the same.
        assert!(picks.iter().all(|&t| t < 2));
        assert_eq!(
            picks[..50],
            (0..50).map(|i| pick(&cumulative, 9, i)).collect::<Vec<_>>()
        );
    }

    /// Whether the fewest draws of the `algorithm` plan of `n` (one thread, `seconds` asked)
    /// are warned of.
    fn warned(n: u32, algorithm: crate::Algorithm, seconds: f64) -> Option<String> {
        let opts = Options::default().with_threads(1).with_algorithm(algorithm);
        let job = Job::new(n, &opts, Some(super::super::LONG_RUN_SPLIT_DEPTH)).unwrap();
        let work = Work::of(job.counter().as_ref());
        let total = total_work(&work);
        let ask = Ask {
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
        use crate::Algorithm::*;
        // N = 29 by backtracking: days a task; N = 28 by mirror halving: weeks.
        let m = warned(29, Symmetric, 60.0).expect("N = 29 warned");
        assert!(m.contains("N = 29") && m.contains("days"), "{m}");
        assert!(warned(28, Mirror, 60.0).is_some());
        // Small boards, and a budget that covers the tasks, are not.
        assert_eq!(warned(20, Symmetric, 60.0), None);
        assert_eq!(warned(29, Symmetric, 1e7), None);
    }
}
