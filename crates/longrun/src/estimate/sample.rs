//! The sample of an estimate: tasks drawn at random (in proportion to their work estimates,
//! or uniformly in a striped plan), each counted on a worker thread and timed by that
//! thread's CPU clock, or, for a method that spreads a task over the threads, each counted
//! by all of them in turn and timed by the process's CPU clock. See [`crate::estimate`] for what is projected from them.

use nqueens_board::error::{Error, Result};
use nqueens_board::format::thousands;
use nqueens_count::engine::{pool, Counter, Work};
use nqueens_count::tally::Tally;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

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
enum TaskDraw {
    Weighted(Vec<u128>),
    Uniform(u64),
}

impl TaskDraw {
    fn new(work: &Work) -> TaskDraw {
        match work {
            Work::Estimated(est) => TaskDraw::Weighted(
                est.iter()
                    .scan(0u128, |sum, &e| {
                        *sum += e as u128;
                        Some(*sum)
                    })
                    .collect(),
            ),
            Work::Striped { tasks, .. } => TaskDraw::Uniform(*tasks as u64),
        }
    }

    /// The task of the `i`-th draw.
    fn pick(&self, seed: u64, i: u64) -> u32 {
        match self {
            TaskDraw::Weighted(cumulative) => pick(cumulative, seed, i),
            TaskDraw::Uniform(tasks) => (draw(seed, 2 * i) % tasks) as u32,
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
pub(super) fn process_seconds(start: Instant) -> f64 {
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
pub(super) struct SampleStop {
    budget: Duration,
    draws: Option<usize>,
    most: usize,
}

impl SampleStop {
    /// After `draws` draws if given, else when `seconds` have passed (and the fewest are
    /// drawn), and never past [`MAX_DRAWS`] nor the plan's `tasks`.
    pub(super) fn asked(seconds: f64, draws: Option<usize>, tasks: usize) -> SampleStop {
        SampleStop {
            budget: Duration::from_secs_f64(seconds.min(1e9)),
            draws,
            most: tasks.clamp(MIN_SAMPLED, MAX_DRAWS),
        }
    }

    fn done(&self, i: usize, start: Instant) -> bool {
        match self.draws {
            Some(k) => i >= k.min(MAX_DRAWS),
            None => i >= self.most || (i >= MIN_SAMPLED && start.elapsed() >= self.budget),
        }
    }
}

/// What a sample gave: its finished draws, in the order drawn, and, when a cancel flag
/// stopped it before its end, the warning that says so.
pub(super) struct FinishedDraws {
    pub(super) sampled: Vec<Sampled>,
    pub(super) stopped: Option<String>,
}

/// Counts drawn tasks of `counter` on `threads` threads until `until` says; in the order
/// drawn. A counter that spreads a task over its pool ([`Counter::spreads`]) has its draws
/// counted one at a time by every thread, each timed by the process's CPU clock; another's
/// are counted one per thread at once, each timed by its thread's.
///
/// The draws are counted on threads of their own while this one waits, so that a raised
/// `cancel` flag ends the sample at once, not when the tasks being counted end (a task of
/// N = 28 takes most of an hour): the sample is then the draws up to the first unfinished
/// one, and the threads still counting stop at their next draw, their counts dropped.
pub(super) fn sample(
    counter: Arc<dyn Counter>,
    work: Arc<Work>,
    threads: usize,
    until: SampleStop,
    seed: u64,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<FinishedDraws> {
    let draws = Arc::new(Draws {
        urn: TaskDraw::new(&work),
        counter,
        work,
        until,
        seed,
        start: Instant::now(),
        next: AtomicUsize::new(0),
        began: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    });
    let (tx, rx) = mpsc::channel();
    if draws.counter.spreads() {
        let (d, tx) = (draws.clone(), tx.clone());
        std::thread::spawn(move || in_turn(&d, threads, &tx));
    } else {
        for _ in 0..threads {
            let (d, tx) = (draws.clone(), tx.clone());
            std::thread::spawn(move || one_a_thread(&d, &tx));
        }
    }
    drop(tx);
    let cancelled = || cancel.as_ref().is_some_and(|c| c.load(Ordering::SeqCst));
    let mut done = Vec::new();
    // The flag is looked at after every draw and every 50 ms between draws.
    let stopped = loop {
        if cancelled() {
            break true;
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(one)) => done.push((one.draw, one.sampled)),
            Ok(Err(e)) => {
                draws.stop.store(true, Ordering::SeqCst);
                return Err(e);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break false,
        }
    };
    draws.stop.store(true, Ordering::SeqCst);
    let began = draws.began.load(Ordering::SeqCst);
    finished(done, began, stopped)
}

/// The sample of the `done` draws (numbered, in any order) of the `began`, kept up to the
/// first unfinished one when `stopped` by the cancel flag.
fn finished(mut done: Vec<(usize, Sampled)>, began: usize, stopped: bool) -> Result<FinishedDraws> {
    done.sort_by_key(|&(i, _)| i);
    let finished = done
        .iter()
        .zip(0..)
        .take_while(|&(&(i, _), j)| i == j)
        .count();
    let dropped = began - finished;
    if stopped && finished == 0 {
        return Err(Error::Usage(format!(
            "the estimate was stopped before any drawn task finished: nothing to project \
             ({} dropped; give --seconds or --tasks to end the sample sooner)",
            plural(dropped, "draw")
        )));
    }
    Ok(FinishedDraws {
        sampled: done.into_iter().take(finished).map(|(_, s)| s).collect(),
        stopped: stopped.then(|| {
            format!(
                "stopped early: projected from the first {} only, all finished; {} dropped, \
                 and as the longer tasks are the likelier to be unfinished, the projection \
                 may be low",
                plural(finished, "drawn task"),
                plural(dropped, "draw")
            )
        }),
    })
}

/// `count` and `what`, with an `s` unless one, the count with commas (`10,576 drawn tasks`).
fn plural(count: usize, what: &str) -> String {
    let s = if count == 1 { "" } else { "s" };
    format!("{} {what}{s}", thousands(count as u128))
}

/// What a sample draws from, when it ends, and the draws so far: shared by its threads.
struct Draws {
    urn: TaskDraw,
    counter: Arc<dyn Counter>,
    work: Arc<Work>,
    until: SampleStop,
    seed: u64,
    start: Instant,
    /// The next draw to take, and the draws begun.
    next: AtomicUsize,
    began: AtomicUsize,
    /// Raised when the sample ends early (a failed draw, a cancel): no draw starts after it.
    stop: AtomicBool,
}

impl Draws {
    /// The next draw's number and task, unless the sample has ended.
    fn take(&self) -> Option<(usize, u32)> {
        if self.stop.load(Ordering::SeqCst) {
            return None;
        }
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        if self.until.done(i, self.start) {
            return None;
        }
        self.began.fetch_add(1, Ordering::SeqCst);
        Some((i, self.urn.pick(self.seed, i as u64)))
    }
}

/// A finished draw, as the sampling threads send it.
struct Finished {
    /// Its number in the order drawn.
    draw: usize,
    sampled: Sampled,
}

/// What the sampling threads send: a finished draw, or the error that ended the sample.
type Sent = Result<Finished>;

/// [`sample`] of a counter that spreads a task: the draws in turn, each on the whole pool.
fn in_turn(d: &Draws, threads: usize, tx: &mpsc::Sender<Sent>) {
    let pool = match pool(threads) {
        Ok(pool) => pool,
        Err(e) => return drop(tx.send(Err(e))),
    };
    while let Some((i, task)) = d.take() {
        let timed = || {
            let before = process_seconds(d.start);
            let tally = pool.install(|| d.counter.count(&[task]))?[0];
            Ok((tally, process_seconds(d.start) - before))
        };
        let one = sampled(d.counter.as_ref(), &d.work, task, timed)
            .map(|sampled| Finished { draw: i, sampled });
        // A sample that has ended (its receiver gone, or a draw failed) takes no more.
        if one.is_err() | tx.send(one).is_err() {
            break;
        }
    }
}

/// Task `task` counted by `timed` (its tally and CPU seconds): alone, and again among its
/// neighbours when the method keeps work from task to task ([`Counter::warms`]).
fn sampled(
    counter: &dyn Counter,
    work: &Work,
    task: u32,
    timed: impl Fn() -> Result<(Tally, f64)>,
) -> Result<Sampled> {
    let (tally, alone_seconds) = timed()?;
    let seconds = if counter.warms() {
        timed()?.1
    } else {
        alone_seconds
    };
    Ok(Sampled {
        task,
        estimate: work.at(task),
        seconds,
        alone_seconds,
        solutions: tally.total,
    })
}

/// One thread of the [`sample`] of a counter that counts per task on one thread: its draws
/// one at a time, each timed by its thread's clock (a failed draw ends every thread's).
fn one_a_thread(d: &Draws, tx: &mpsc::Sender<Sent>) {
    while let Some((i, task)) = d.take() {
        let timed = || {
            let before = thread_seconds(d.start);
            let tally = d.counter.count(&[task])?[0];
            Ok((tally, thread_seconds(d.start) - before))
        };
        let one = sampled(d.counter.as_ref(), &d.work, task, timed)
            .map(|sampled| Finished { draw: i, sampled });
        if one.is_err() | tx.send(one).is_err() {
            d.stop.store(true, Ordering::SeqCst);
            break;
        }
    }
}

/// The share of the plan's estimated work (`total` of `work`) the distinct sampled tasks make.
pub(super) fn sampled_share(sampled: &[Sampled], work: &Work, total: u128) -> f64 {
    let mut distinct: Vec<u32> = sampled.iter().map(|s| s.task).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let done: f64 = distinct.iter().map(|&t| work.at(t) as f64).sum();
    done / total as f64
}

/// The plan's total estimated work (a striped plan's tasks count 1 each).
pub(super) fn total_work(work: &Work) -> u128 {
    match work {
        Work::Estimated(est) => est.iter().map(|&e| e as u128).sum(),
        Work::Striped { tasks, .. } => *tasks as u128,
    }
}

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
}
