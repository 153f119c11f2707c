//! What a count will cost, said before it starts, and the refusal of one that cannot finish in
//! a lifetime: a(N) (known, or projected) times the method's rough cost a solution, a scale
//! from the performance log (docs/performance/log.md), never a measurement (`nqueens estimate N` measures).

use nqueens::longrun::audit::Recorded;
use nqueens::longrun::distributed::shard::Shard;
use nqueens::longrun::RunFile;
use nqueens::oeis::Sequence;
use nqueens::{Algorithm, Error};
use nqueens_board::limits::LIFETIME_SECONDS;

/// Counts cheaper than this many core-seconds start without a note.
const QUIET_CORE_SECONDS: f64 = 600.0;

/// One core-year in seconds.
const YEAR: f64 = 365.25 * 86_400.0;

/// Core-seconds as a reader plans them.
pub fn duration(s: f64) -> String {
    match s {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} minutes", s / 60.0),
        s if s < 2.0 * 86_400.0 => format!("{:.0} hours", s / 3600.0),
        s if s < YEAR => format!("{:.0} days", s / 86_400.0),
        s if s < 1.5 * YEAR => "1 year".to_string(),
        s if s < 1e4 * YEAR => format!("{:.0} years", s / YEAR),
        s => format!("{:.1e} years", s / YEAR),
    }
}

/// A count as it was asked for, before it starts: what [`before_counting`] judges.
#[derive(Debug, Clone, Copy)]
pub struct CountAsked {
    pub n: u32,
    pub algorithm: Algorithm,
    /// Whether queens are placed before the search.
    pub placed: bool,
    /// The shard counted, if it is one.
    pub shard: Option<Shard>,
    /// Whether a stopped count can be resumed (a checkpoint, or a shard to count again).
    pub resumable: bool,
    /// The fewest shards the plan must be counted in for its files to fit, where one
    /// checkpoint cannot hold it (`None`: one can, or a shard is asked for).
    pub least_shards: Option<u64>,
    pub threads: usize,
    /// `--force`: count even what the rough scale calls too long.
    pub force: bool,
}

/// The note to print before counting an `n` board (or `shard` of it) with `algorithm` on
/// `threads` workers, if it takes long enough to deserve one; the refusal, if it cannot finish
/// in a lifetime and `force` is not given. Placed queens count an unknown part: no note.
///
/// A count projected past [`ASK_PAST_SECONDS`] of wall time on `threads` with nothing to
/// resume from (`resumable`: no checkpoint, no shard) is refused too without `force`: long
/// work that starts by mistake should be stopped before it starts, not after a day.
pub fn before_counting(c: &CountAsked) -> Result<Option<String>, Error> {
    let CountAsked {
        n,
        algorithm,
        placed,
        shard,
        resumable,
        least_shards,
        threads,
        force,
    } = *c;
    // A board the method does not count is refused for that, not for its cost.
    if algorithm == Algorithm::Quadrants {
        nqueens_count::quadrants::applies(n).map_err(Error::Usage)?;
    }
    if placed {
        return Ok(None);
    }
    let part = shard.map_or(1.0, |s| f64::from(s.count));
    let core = algorithm.rough_core_seconds(n) / part;
    let wall = core / threads.max(1) as f64;
    let ns = algorithm.rough_ns_per_solution();
    let what = match shard {
        Some(s) => format!("shard {s} of N = {n}"),
        None => format!("N = {n}"),
    };
    let a = if Sequence::A000170.known(n).is_some() {
        format!("a({n})")
    } else {
        let &(last, _) = Sequence::A000170.known_values().last().expect("a table");
        format!("a({n}), projected past the known a({last}),")
    };
    // Only the quadrant method's tasks are small enough for `estimate` to time some soon.
    let measure = if algorithm == Algorithm::Quadrants {
        format!(": `nqueens estimate {n}` measures it")
    } else {
        String::new()
    };
    let cost = format!(
        "{what} is about {} of work ({a} × about {ns} core-ns per solution with algorithm \
         {algorithm}, a rough scale{measure}): about {} on {} thread{}",
        rough_core_time(core),
        duration(wall),
        threads,
        if threads == 1 { "" } else { "s" }
    );
    refuse_long(&cost, core, wall, force, resumable, least_shards)?;
    Ok((core > QUIET_CORE_SECONDS).then(|| {
        let keep = if shard.is_some() {
            ""
        } else {
            "; Ctrl-C stops it (with --checkpoint FILE the finished tasks are kept)"
        };
        format!("note: {cost}{keep}")
    }))
}

/// Refuses, unless `force`, a count (said as `cost`) of `core` core-seconds that takes `wall`
/// seconds on its threads: past a lifetime (with advice on shards where a million cores could
/// count it), or past a day with nothing to resume from (not `resumable`). Where one
/// checkpoint cannot hold the plan (`least_shards`), the advice to resume is shards, each
/// with its own checkpoint: every piece of advice is one that works when followed.
fn refuse_long(
    cost: &str,
    core: f64,
    wall: f64,
    force: bool,
    resumable: bool,
    least_shards: Option<u64>,
) -> Result<(), Error> {
    if wall > LIFETIME_SECONDS && !force {
        // Shards help only where many machines together can finish in a lifetime.
        let advice = if core / MANY_CORES > LIFETIME_SECONDS {
            format!(
                "; a million cores would still take {}: no computer of today counts it (ask \
                 for it anyway with --force)",
                duration(core / MANY_CORES)
            )
        } else {
            ". Count it in shards on many machines (docs/guide/distributed.md), or ask for it \
             anyway with --force"
                .to_string()
        };
        return Err(Error::Usage(format!(
            "{cost}, more than a lifetime: nothing is counted{advice}"
        )));
    }
    if wall > ASK_PAST_SECONDS && !force && !resumable {
        let resume = match least_shards {
            Some(k) => format!(
                "Count it in at least {k} shards (--shard I/{k}; one checkpoint cannot hold \
                 its tasks), each resumable from its own --checkpoint FILE"
            ),
            None => "Give --checkpoint FILE (the finished tasks are kept; the same command \
                     resumes), count it in shards (--shard I/K)"
                .to_string(),
        };
        return Err(Error::Usage(format!(
            "{cost}, past a day with no checkpoint to resume from: nothing is counted. \
             {resume}, or ask for it anyway with --force"
        )));
    }
    Ok(())
}

/// Wall seconds past which a count with nothing to resume from needs `--force`: a day.
pub const ASK_PAST_SECONDS: f64 = 86_400.0;

/// The rough wall seconds of counting an `n` board with `algorithm` on `threads` workers
/// (the scale [`before_counting`] says).
pub fn rough_wall_seconds(n: u32, algorithm: Algorithm, threads: usize) -> f64 {
    algorithm.rough_core_seconds(n) / threads.max(1) as f64
}

/// The most cores a count in shards is advised for: a large cluster's worth.
const MANY_CORES: f64 = 1e6;

/// Core-seconds of work, rounded as a reader plans them (`estimate` says them precisely).
fn rough_core_time(s: f64) -> String {
    match s {
        s if s < 90.0 => "1 core-minute".to_string(),
        s if s < 7200.0 => format!("{:.0} core-minutes", s / 60.0),
        s if s < YEAR => format!("{:.0} core-hours", s / 3600.0),
        s if s < 1.5 * YEAR => "1 core-year".to_string(),
        s if s < 1e4 * YEAR => format!("{:.0} core-years", s / YEAR),
        s => format!("{:.1e} core-years", s / YEAR),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of a unit is said in the singular, never "1 core-years".
    #[test]
    fn one_of_a_unit_is_singular() {
        assert_eq!(rough_core_time(61.0), "1 core-minute");
        assert_eq!(rough_core_time(600.0), "10 core-minutes");
        assert_eq!(rough_core_time(1.2 * YEAR), "1 core-year");
        assert_eq!(rough_core_time(2.0 * YEAR), "2 core-years");
        assert_eq!(duration(1.2 * YEAR), "1 year");
        assert_eq!(duration(3.0 * YEAR), "3 years");
    }
}

/// The guard that refuses a recount that cannot finish in a lifetime, as `count` refuses such a
/// count: a rough scale of a task's cost, never a measurement.
#[derive(Debug, Clone, Copy)]
pub struct RecountGuard {
    /// The threads the recounts run on.
    pub threads: usize,
    /// `--force`: recount even what the rough scale calls too long.
    pub force: bool,
}

impl RecountGuard {
    /// Refuses file `f` where recounting one of its tasks would take past a lifetime on the
    /// threads given (a whole count's rough cost shared out over its plan's tasks).
    pub fn check(&self, f: &Recorded) -> Result<(), Error> {
        let plan = f.plan();
        let tasks = match &f.file {
            RunFile::Shard(r) => r.plan_tasks,
            RunFile::Checkpoint(c) => c.tasks,
        }
        .max(1);
        let wall = plan.algorithm.rough_core_seconds(plan.n) / tasks as f64 / self.threads as f64;
        if self.force || wall <= LIFETIME_SECONDS {
            if wall > QUIET_CORE_SECONDS {
                note!(
                    "note: {}: recounting one task of N = {} takes about {} on {} threads by a \
                     rough scale",
                    f.name,
                    plan.n,
                    duration(wall),
                    self.threads
                );
            }
            return Ok(());
        }
        Err(Error::Usage(format!(
            "{}: recounting one task of N = {} (one of the {tasks} tasks of its plan) would take \
             about {} on {} threads by a rough scale, past a lifetime: pass --force to recount \
             it anyway",
            f.name,
            plan.n,
            duration(wall),
            self.threads
        )))
    }
}
