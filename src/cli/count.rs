//! `nqueens count N`, with progress, checkpoints, signals and shards.

use super::args::{parse_checkpoint_every, parse_n, parse_progress_every, parse_shard};
use super::report::CountReport;
use super::{print, EngineArgs, PlaceArgs};
use indicatif::{ProgressBar, ProgressStyle};
use nqueens::longrun::shard::Shard;
use nqueens::longrun::{self, LongRun, Outcome};
use nqueens::{Algorithm, Error, Progress, Totals};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Arguments of `count`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  nqueens count 12 --threads 2 --json\n  \
    nqueens count 8 --first-queen 2\n  nqueens count 10 --place 1:2 --place 5:1\n  \
    nqueens count 20 --checkpoint n20.ckpt      (run again after an interruption to resume)\n  \
    nqueens count 20 --shard 3/8 > shard-3.json (then: nqueens merge shard-*.json)\n\n\
    Ctrl-C or SIGTERM stop the count (exit 130 / 143); with --checkpoint the finished tasks \
    are saved first.")]
pub struct CountArgs {
    /// Board size N, from 1 to 64.
    #[arg(value_name = "N", value_parser = parse_n, allow_negative_numbers = true)]
    pub n: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub place: PlaceArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Save finished tasks to FILE (atomically) and resume from it when it exists. The split
    /// depth defaults to 2 so that every run builds the same plan.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint saves, 0.05 to 604800 (also saved at the end and on
    /// Ctrl-C / SIGTERM).
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_checkpoint_every)]
    pub checkpoint_every: Duration,
    /// Count only shard I of K (0 <= I < K), balanced by expected work, and print the shard's
    /// result as JSON for `nqueens merge`. The split depth defaults to 2.
    #[arg(long, value_name = "I/K", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Print a progress line on stderr every --progress-every seconds, even when stderr is
    /// not a terminal (for batch logs).
    #[arg(long)]
    pub progress: bool,
    /// Seconds between --progress lines, 0.01 to 86400.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_progress_every)]
    pub progress_every: Duration,
    /// No progress bar (it is shown only when stderr is a terminal anyway); not with
    /// --progress, which asks for progress lines.
    #[arg(long, short = 'q', conflicts_with = "progress")]
    pub quiet: bool,
}

/// Shows progress: an indicatif bar on a terminal, periodic lines with `--progress`.
struct Shower {
    bar: Option<ProgressBar>,
    every: Option<Duration>,
    next_line: Duration,
    /// Whether the resume from a checkpoint was reported (once, in the log lines).
    said_resumed: bool,
}

impl Shower {
    fn new(a: &CountArgs) -> Shower {
        let lines = a.progress;
        let bar = (!lines && !a.quiet && std::io::stderr().is_terminal()).then(|| {
            // Position: thousandths of the expected work.
            let b = ProgressBar::new(1000);
            b.set_style(
                // `wide_msg` is cut to the terminal's width: one line, never wrapped.
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:20}] {percent:>3}% {wide_msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            // Drawn while the plan is built, which takes seconds for large N.
            b.set_message("planning the tasks…");
            b.enable_steady_tick(Duration::from_millis(250));
            b
        });
        if lines {
            note!("progress: planning the tasks of N = {}", a.n);
        }
        let every = lines.then_some(a.progress_every);
        Shower {
            bar,
            every,
            next_line: every.unwrap_or_default(),
            said_resumed: false,
        }
    }

    /// Whether anything is shown (a bar or progress lines).
    fn shows(&self) -> bool {
        self.bar.is_some() || self.every.is_some()
    }

    fn show(&mut self, p: &Progress) {
        if self.every.is_some() && p.resumed > 0 && !self.said_resumed {
            self.said_resumed = true;
            note!(
                "progress: resumed from the checkpoint: {} of {} tasks already done ({:.1}% of \
                 the expected work)",
                p.resumed,
                p.total,
                100.0 * p.resumed_work
            );
        }
        let eta = p.eta().map_or("unknown".to_string(), |d| {
            format!("{:.0}s", d.as_secs_f64())
        });
        if let Some(b) = &self.bar {
            b.set_position((p.work * 1000.0) as u64);
            b.set_message(format!(
                "{}/{} tasks, {} solutions, ETA {eta}",
                p.done, p.total, p.solutions
            ));
        }
        if let Some(every) = self.every {
            if p.elapsed >= self.next_line || p.done == p.total {
                note!(
                    "progress: {}/{} tasks, {:.1}% of the expected work, {} solutions, {:.0}s \
                     elapsed, ETA {eta}",
                    p.done,
                    p.total,
                    100.0 * p.work,
                    p.solutions,
                    p.elapsed.as_secs_f64()
                );
                while self.next_line <= p.elapsed {
                    self.next_line += every;
                }
            }
        }
    }
}

/// Ctrl-C and SIGTERM raise the returned cancel flag (and record their number in the
/// second) instead of killing the process; a second one, while the first is being handled
/// (a checkpoint being read or saved, a plan being built), ends the process at once with
/// 128 + its number.
fn watch_signals() -> anyhow::Result<(Arc<AtomicBool>, Arc<AtomicUsize>)> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let cancel = Arc::new(AtomicBool::new(false));
    let which = Arc::new(AtomicUsize::new(0));
    for sig in [SIGINT, SIGTERM] {
        // Registered first, so it sees the flag as the earlier signal left it.
        signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&cancel))?;
        signal_hook::flag::register_usize(sig, Arc::clone(&which), sig as usize)?;
        signal_hook::flag::register(sig, Arc::clone(&cancel))?;
    }
    Ok((cancel, which))
}

/// The error of a count stopped by `signal`: the library's message, named after the signal,
/// with the exit code 128 + the signal number.
fn interrupted(e: Error, signal: usize) -> anyhow::Error {
    let name = if signal == 15 { "SIGTERM" } else { "SIGINT" };
    let msg = e.to_string();
    let rest = msg.strip_prefix("stopped").unwrap_or(&msg);
    anyhow::Error::new(Interrupted {
        code: 128u8.saturating_add(signal as u8),
        message: format!("interrupted by {name}{rest}"),
    })
}

/// A count stopped by a signal: says what was kept and exits with `code`.
#[derive(Debug)]
pub struct Interrupted {
    /// 128 + the signal number.
    pub code: u8,
    /// What was saved or lost, and how to go on.
    pub message: String,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Interrupted {}

/// What a count of a board no one has counted will cost with `algorithm`, roughly, for a note
/// before it starts: a(N) projected from the last known value along the asymptotic form
/// `(0.143 N)^N` (Simkin, 2021), times the method's measured cost per solution. `None` for a
/// board whose count is known.
fn beyond_the_table(n: u32, algorithm: Algorithm) -> Option<String> {
    use nqueens::oeis::Sequence;
    if Sequence::A000170.known(n).is_some() {
        return None;
    }
    let &(last, _) = Sequence::A000170.known_values().last()?;
    let log10_a = nqueens::oeis::a000170_estimate(n).log10();
    let ns = algorithm.rough_ns_per_solution();
    let years = 10f64.powf(log10_a) * ns * 1e-9 / (365.25 * 86_400.0);
    // Only the quadrant method's tasks are small enough for `estimate` to time some soon.
    let measure = if algorithm == Algorithm::Quadrants {
        format!(" (`nqueens estimate {n}` measures it here)")
    } else {
        String::new()
    };
    Some(format!(
        "note: no count of N = {n} is known (A000170 is known to N = {last}); roughly 10^{:.0} \
         solutions, about {:.1e} core-years with algorithm {algorithm} at about {ns} core-ns a \
         solution{measure}: plan it as a cluster run (README: \"Distributed runs\"), or place \
         queens to count completions",
        log10_a, years
    ))
}

pub fn run(a: CountArgs) -> anyhow::Result<()> {
    let mut opts = a.engine.options()?;
    opts.placed = a.place.queens(a.n as usize, None)?;
    if let Some(cost) = beyond_the_table(a.n, opts.resolved_algorithm(a.n))
        .filter(|_| opts.placed.is_empty() && !a.quiet)
    {
        note!("{cost}");
    }
    let (cancel, which) = watch_signals()?;
    opts.cancel = Some(cancel);
    let shower = Shower::new(&a);
    let bar = shower.bar.clone();
    if shower.shows() {
        let shower = Mutex::new(shower);
        opts = opts.with_progress(move |p| {
            if let Ok(mut s) = shower.lock() {
                s.show(p);
            }
        });
    }
    let long = LongRun::new(a.checkpoint.clone(), a.checkpoint_every, a.shard);
    let end = longrun::run(a.n, &opts, &long);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    match end {
        Ok(Outcome::Shard(r)) => print(&(serde_json::to_string(&r)? + "\n")),
        Ok(Outcome::Whole(t)) => report_out(&t, a.json),
        Err(e @ Error::Cancelled { .. }) => Err(interrupted(e, which.load(Ordering::SeqCst))),
        Err(e) => Err(e.into()),
    }
}

/// Prints a count's report (text or JSON), then turns a disagreement with OEIS into exit 3.
pub fn report_out(totals: &Totals, json: bool) -> anyhow::Result<()> {
    let report = CountReport::new(totals);
    if json {
        print(&(serde_json::to_string(&report)? + "\n"))?;
    } else {
        print(&report.to_text())?;
    }
    Ok(totals.cross_check()?)
}
