//! `nqueens estimate N`: what a count will cost, from a sample of its tasks.

use super::args::common::EngineArgs;
use super::args::parse::{bounded, parse_n, parse_seed, seconds, seed_or_clock};
use super::count::watch_signals;
use super::exit::Interrupted;
use super::output::text::plural;
use super::output::{self, json_line, ReportFormat};
use nqueens::board::format::thousands;
use nqueens::longrun::estimate::projection::Projected;
use nqueens::longrun::estimate::{estimate, CostBasis, Estimate, EstimateRequest, MAX_DRAWS};
use nqueens::memory::show;
use std::fmt::Write as _;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Arguments of `estimate`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Builds the plan `count N --shard I/K` would use, counts a random \
    sample of its tasks (drawn in proportion to their expected work, seeded) for about \
    --seconds, and projects the whole count: its CPU time (core-hours, with a 95% interval), \
    its solutions (checked against A000170 where known), the memory a worker needs, and the \
    number of shards K that makes shards of --shard-minutes on one thread. Each task's time is \
    its thread's CPU time, so a busy machine changes the projection little.\n\n\
    Examples:\n  nqueens estimate 20 --seconds 10\n  \
    nqueens estimate 26 --seconds 600 --shard-minutes 120 --json"
)]
pub struct EstimateArgs {
    /// Board size N, from 1 to 64.
    #[arg(value_name = "N", value_parser = parse_n, allow_negative_numbers = true)]
    pub n: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Seconds to spend counting sampled tasks, 0.01 to 604800 (no task starts after them;
    /// at least two tasks are counted whatever it says, and a task runs to its end: a plan
    /// whose tasks make that long is warned of before counting).
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_budget)]
    pub seconds: Duration,
    /// Count exactly K drawn tasks instead of for --seconds (1 to 100000): the same seed
    /// then draws the same tasks and projects the same solutions.
    #[arg(long, value_name = "K", value_parser = parse_tasks, conflicts_with = "seconds")]
    pub tasks: Option<usize>,
    /// The wanted length of one shard in minutes on one thread, 0.1 to 10^6: the K to use.
    #[arg(long, value_name = "MINUTES", default_value = "60", value_parser = parse_minutes)]
    pub shard_minutes: f64,
    /// The seed of the sample (default: from the clock; the report gives it).
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Sample even a plan whose fewest draws cannot finish in a lifetime (by a rough scale):
    /// refused without it, before the plan is built.
    #[arg(long)]
    pub force: bool,
}

fn parse_budget(s: &str) -> Result<Duration, String> {
    seconds(s, 0.01, 604_800.0)
}

fn parse_tasks(s: &str) -> Result<usize, String> {
    bounded(s, "a number of tasks", 1, MAX_DRAWS as u64).map(|k| k as usize)
}

fn parse_minutes(s: &str) -> Result<f64, String> {
    // The same strict decimal form as seconds (digits and at most one point).
    seconds(s, 0.1, 1e6).map(|d| d.as_secs_f64()).map_err(|e| {
        e.replace("seconds", "minutes")
            .replace("a duration", "a number of minutes")
    })
}

pub fn run(a: EstimateArgs) -> anyhow::Result<()> {
    let seed = seed_or_clock(a.seed);
    let ask = EstimateRequest {
        seconds: a.seconds.as_secs_f64(),
        tasks: a.tasks,
        shard_minutes: a.shard_minutes,
        seed,
        warn: Some(|m| note!("note: {m}")),
        force: a.force,
    };
    let (cancel, signal) = watch_signals()?;
    let opts = a.engine.options()?.with_cancel(cancel);
    let stopped = |what: String| {
        let signal = signal.load(Ordering::SeqCst) as u8;
        let name = [(1, "SIGHUP"), (15, "SIGTERM")]
            .iter()
            .find(|&&(s, _)| s == signal)
            .map_or("SIGINT", |&(_, name)| name);
        anyhow::Error::new(Interrupted {
            signal,
            message: format!("estimate stopped by {name}: {what}"),
        })
    };
    let e = match estimate(a.n, &opts, ask) {
        Err(e) if signal.load(Ordering::SeqCst) != 0 => return Err(stopped(e.to_string())),
        e => e?,
    };
    output::print(&EstimateOutput(&e), ReportFormat::json_if(a.json))?;
    if e.interrupted {
        let kept = e.sampled.len();
        return Err(stopped(format!(
            "the report above is projected from the first {kept} drawn task{} only",
            if kept == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

/// What `estimate` prints.
struct EstimateOutput<'a>(&'a Estimate);

impl output::Report for EstimateOutput<'_> {
    fn text(&self) -> String {
        text(self.0)
    }

    fn json(&self) -> serde_json::Result<String> {
        json_line(self.0)
    }
}

/// `value (95%: low to high)` with `f` formatting each; an interval that reaches down to
/// nothing (a thin sample of `tasks`) is called too wide, with about how many tasks would
/// narrow it to ±50% (its width falls as the square root of the tasks).
fn with_interval(p: &Projected, f: impl Fn(f64) -> String, tasks: usize) -> String {
    match (p.low, p.high) {
        (Some(l), Some(h)) if l > 0.0 || p.value <= 0.0 => {
            format!("{} (95%: {} to {})", f(p.value), f(l), f(h))
        }
        (Some(_), Some(h)) => {
            let half = (h - p.value) / p.value;
            let need = (tasks as f64 * (half / 0.5).powi(2)).ceil();
            format!(
                "{} (the 95% interval reaches from nothing to {}: too wide to use; about \
                 {need:.0} tasks would narrow it to ±50%)",
                f(p.value),
                f(h)
            )
        }
        _ => format!(
            "{} (no interval: the sample has too few tasks to support one)",
            f(p.value)
        ),
    }
}

/// Core-seconds as a reader plans them.
fn core_time(s: f64) -> String {
    match s {
        s if s < 10.0 => format!("{s:.3} core-s"),
        s if s < 3600.0 => format!("{s:.0} core-s"),
        s if s < 86400.0 * 365.0 => format!("{:.1} core-hours", s / 3600.0),
        s => format!("{:.1} core-years", s / (86400.0 * 365.25)),
    }
}

fn text(e: &Estimate) -> String {
    let mut s = String::new();
    let line = |s: &mut String, k: &str, v: String| {
        let _ = writeln!(s, "{k:<11}{v}");
    };
    line(&mut s, "n", e.n.to_string());
    // A sample stopped by a signal says so before any figure (its first warning).
    let stopped = usize::from(e.interrupted);
    e.warnings[..stopped]
        .iter()
        .for_each(|w| line(&mut s, "STOPPED", w.clone()));
    // The figure to plan by first; the others after it, for those who want them.
    line(&mut s, "cost", cost(e));
    line(&mut s, "plan", plan(e));
    line(&mut s, "sample", sample(e));
    line(
        &mut s,
        "by tasks",
        with_interval(&e.core_seconds, core_time, e.sampled.len())
            + ": the sampled tasks' cost over their share of the work, in one run's order",
    );
    if e.core_seconds_in_shards != e.core_seconds && e.to_use_is != CostBasis::TasksAlone {
        line(
            &mut s,
            "alone",
            with_interval(&e.core_seconds_in_shards, core_time, e.sampled.len())
                + ": shards of few tasks cost up to this (a task alone loses the quarters \
                   filtered for its neighbours)",
        );
    }
    let known = match e.known {
        Some(k) => format!(", A000170({}) = {k}", e.n),
        None => String::new(),
    };
    line(
        &mut s,
        "solutions",
        with_interval(&e.solutions, |v| format!("{v:.4e}"), e.sampled.len()) + &known,
    );
    if e.to_use_is != CostBasis::BySolutions {
        if let Some(by) = by_solutions(e) {
            line(&mut s, "by a(N)", by);
        }
    }
    line(&mut s, "memory", memory(e));
    for w in &e.warnings[stopped..] {
        line(&mut s, "WARNING", w.clone());
    }
    line(&mut s, "shards", shards(e));
    s
}

/// The plan line: its method, tasks, fingerprint and set-up.
fn plan(e: &Estimate) -> String {
    format!(
        "{}, {} tasks (fingerprint {}), set-up {:.1} core-s per shard",
        e.algorithm,
        thousands(e.plan_tasks as u128),
        e.fingerprint,
        e.setup_seconds
    )
}

/// The sample line: its tasks, their share of the work, its time, threads and seed.
fn sample(e: &Estimate) -> String {
    format!(
        "{} ({} of the work) in {:.1} s on {}, seed {}",
        plural(e.sampled.len(), "task"),
        percent(e.sampled_share),
        e.sample_seconds,
        plural(e.threads, "thread"),
        e.seed
    )
}

/// The cost line: the figure to plan by, and which figure it is.
fn cost(e: &Estimate) -> String {
    let cost = match e.to_use_is {
        CostBasis::BySolutions => by_solutions(e).unwrap_or_default(),
        _ => format!(
            "{}: {}",
            with_interval(&e.to_use, core_time, e.sampled.len()),
            e.to_use_is.said()
        ),
    };
    format!("{cost} (the figure to plan by)")
}

/// A share as a percentage to two significant figures (`0.0028%`, `1.5%`, `37%`).
fn percent(share: f64) -> String {
    let p = 100.0 * share;
    if p <= 0.0 {
        return "0%".into();
    }
    let decimals = (1 - p.log10().floor() as i32).max(0) as usize;
    format!("{p:.decimals$}%")
}

/// The shards line: the K to count with, and why that K.
fn shards(e: &Estimate) -> String {
    if e.shards == e.least_shards && e.least_shards > 1 {
        format!(
            "{} (the fewest count accepts for this plan: files within what merge reads, \
             records within --max-memory): nqueens count {} --shard I/{} -t 1",
            thousands(e.shards as u128),
            e.n,
            e.shards
        )
    } else {
        format!(
            "{} of about {} min on one thread: nqueens count {} --shard I/{} -t 1",
            thousands(e.shards as u128),
            e.shard_minutes,
            e.n,
            e.shards
        )
    }
}

/// The memory line: what a worker needs (the peak of this sample, which ran the plan's tasks
/// on as many threads), and the quadrant method's bound at the memory limit.
fn memory(e: &Estimate) -> String {
    match (e.memory_estimate_bytes, e.peak_memory_bytes) {
        (Some(m), Some(p)) => format!(
            "peak {} here on {}: what a shard of these tasks needs on as many ({}; pieces \
             keep them within --max-memory)",
            show(p),
            plural(e.threads, "thread"),
            if p > m {
                format!(
                    "the plan's tables, estimated before counting, are {} of it, the rest is \
                     the process's own",
                    show(m)
                )
            } else {
                format!("the plan's tables may grow to {}", show(m))
            }
        ),
        (None, Some(p)) => format!("backtracking needs almost none (peak {} here)", show(p)),
        (Some(m), None) => format!("estimated {} on {}", show(m), plural(e.threads, "thread")),
        (None, None) => "backtracking needs almost none".to_string(),
    }
}

/// The cost as a(N) times the sample's cost per solution, if the sample found solutions.
fn by_solutions(e: &Estimate) -> Option<String> {
    let (p, per) = (
        e.core_seconds_by_solutions.as_ref()?,
        e.seconds_per_solution?,
    );
    let of = if e.known.is_some() {
        ""
    } else {
        " (projected)"
    };
    let tail = format!(": a({}){of} × {:.2} core-ns per solution", e.n, per * 1e9);
    Some(with_interval(p, core_time, e.sampled.len()) + &tail)
}
