//! What an estimate warns of: before its sample, a plan whose fewest draws take far longer
//! than asked (or past a lifetime, refused without `--force`); after it, a sample with too
//! few tasks with solutions to project from.

use super::request::EstimateRequest;
use super::sample::MIN_SAMPLED;
use nqueens_board::error::{Error, Result};
use nqueens_board::limits::LIFETIME_SECONDS;
use nqueens_count::engine::Work;
use nqueens_count::{Job, Options};

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
pub(super) fn slow_sample(
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
pub(super) fn beyond_a_lifetime(n: u32, opts: &Options, ask: EstimateRequest) -> Result<()> {
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

/// Warns (through `ask.warn`) when even the smallest sample would take long, and refuses
/// one that would not finish in a lifetime unless `ask.force`.
pub(super) fn warn_of_a_slow_sample(
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

/// What a sample of `drawn` tasks, `with_solutions` of them with solutions, cannot support.
pub(super) fn sample_warnings(n: u32, with_solutions: usize, drawn: usize) -> Vec<String> {
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
    use crate::estimate::sample::total_work;

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
