//! `nqueens count N`, with progress, checkpoints, signals and shards.

use super::{parse_n, print, EngineArgs, PlaceArgs};
use indicatif::{ProgressBar, ProgressStyle};
use nqueens::engine::Outcome;
use nqueens::longrun::{self, End, Options, Progress};
use nqueens::plan::smallest_split_depth;
use nqueens::shard::{parse_shard, Shard, ShardResult, SHARD_FORMAT};
use nqueens::{Algorithm, CountReport, Error, Plan};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Duration;

/// The split depth of counts that checkpoint or shard when none is given: fixed (not chosen
/// by thread count) so that every run and every machine builds the same plan.
pub const LONG_RUN_SPLIT_DEPTH: u32 = 2;

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
    /// Seconds between checkpoint saves (also saved at the end and on Ctrl-C / SIGTERM).
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = parse_seconds)]
    pub checkpoint_every: f64,
    /// Count only shard I of K (0 <= I < K), balanced by expected work, and print the shard's
    /// result as JSON for `nqueens merge`. The split depth defaults to 2.
    #[arg(long, value_name = "I/K", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Print a progress line on stderr every --progress-every seconds, even when stderr is
    /// not a terminal (for batch logs).
    #[arg(long)]
    pub progress: bool,
    /// Seconds between --progress lines.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds)]
    pub progress_every: f64,
    /// No progress bar (it is shown only when stderr is a terminal anyway).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!(
            "'{s}' is not a duration: give a number of seconds above 0, e.g. 30 or 0.5"
        )),
    }
}

/// The plan `count` runs: the algorithm's, or the placed queens' completions.
pub fn plan(
    n: u32,
    engine: &EngineArgs,
    place: &PlaceArgs,
    threads: usize,
    fixed_depth: bool,
) -> anyhow::Result<Plan> {
    let placed = place.queens(n as usize, false)?;
    let fixed = engine
        .split_depth
        .or(fixed_depth.then_some(LONG_RUN_SPLIT_DEPTH));
    if placed.is_empty() {
        let alg = engine.algorithm();
        let depth = fixed.unwrap_or_else(|| Plan::default_split_depth(n, alg, threads));
        return Ok(Plan::new(n, alg, depth)?);
    }
    if let Some(alg) = engine.algorithm.filter(|&a| a != Algorithm::Plain) {
        return Err(Error::Usage(format!(
            "--algorithm {} cannot count with placed queens: the placements break the board's \
             symmetry; leave --algorithm out (or use plain)",
            alg.name()
        ))
        .into());
    }
    let depth = fixed
        .unwrap_or_else(|| smallest_split_depth(threads, |d| Plan::with_placed(n, d, &placed)));
    Ok(Plan::with_placed(n, depth, &placed)?)
}

/// Shows progress: an indicatif bar on a terminal, periodic lines with `--progress`.
struct Shower {
    bar: Option<ProgressBar>,
    every: Option<Duration>,
    next_line: Duration,
}

impl Shower {
    fn new(a: &CountArgs) -> Shower {
        let lines = a.progress;
        let bar = (!lines && !a.quiet && std::io::stderr().is_terminal()).then(|| {
            // Position: thousandths of the expected work.
            let b = ProgressBar::new(1000);
            b.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {percent}% of the work, {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            b
        });
        let every = lines.then(|| Duration::from_secs_f64(a.progress_every));
        Shower {
            bar,
            every,
            next_line: every.unwrap_or_default(),
        }
    }

    /// Whether anything is shown (a bar or progress lines).
    fn shows(&self) -> bool {
        self.bar.is_some() || self.every.is_some()
    }

    fn show(&mut self, p: &Progress) {
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
                eprintln!(
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

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// Ctrl-C and SIGTERM set `flag` to their signal number instead of killing the process.
fn watch_signals() -> anyhow::Result<Arc<AtomicUsize>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = Arc::new(AtomicUsize::new(0));
    for sig in [SIGINT, SIGTERM] {
        signal_hook::flag::register_usize(sig, Arc::clone(&flag), sig as usize)?;
    }
    Ok(flag)
}

fn interrupted(a: &CountArgs, signal: usize, p: &Progress, saved: bool) -> Error {
    let name = if signal == 15 { "SIGTERM" } else { "SIGINT" };
    let counted = p.done - p.resumed;
    let message = match (&a.checkpoint, saved) {
        (Some(path), true) => format!(
            "interrupted by {name}: checkpoint {} saved with {} of {} tasks done; run the same \
             command again to resume",
            path.display(),
            p.done,
            p.total
        ),
        _ => format!(
            "interrupted by {name} after {:.1}s: the {counted} of {} tasks counted by this run \
             are lost; add --checkpoint FILE to keep finished tasks across interruptions",
            p.elapsed.as_secs_f64(),
            p.total
        ),
    };
    Error::Interrupted {
        signal: signal as u8,
        message,
    }
}

pub fn run(a: CountArgs) -> anyhow::Result<()> {
    let threads = a.engine.threads();
    let long = a.checkpoint.is_some() || a.shard.is_some();
    let plan = plan(a.n, &a.engine, &a.place, threads, long)?;
    let signal = watch_signals()?;
    let mut shower = Shower::new(&a);
    let opts = Options {
        threads,
        kernel: a.engine.kernel,
        checkpoint: a.checkpoint.clone(),
        every: Duration::from_secs_f64(a.checkpoint_every),
        shard: a.shard,
        weigh: shower.shows(),
    };
    let end = longrun::run(&plan, &opts, &signal, |p| shower.show(p));
    shower.finish();
    let (tally, tasks, resumed, resumed_nodes, elapsed) = match end? {
        End::Finished {
            tally,
            tasks,
            resumed,
            resumed_nodes,
            elapsed,
        } => (tally, tasks, resumed, resumed_nodes, elapsed),
        End::Interrupted {
            signal,
            progress,
            saved,
        } => return Err(interrupted(&a, signal, &progress, saved).into()),
    };
    if let Some(shard) = a.shard {
        let r = ShardResult {
            format: SHARD_FORMAT.into(),
            version: nqueens::shard::SHARD_VERSION,
            plan: plan.id(),
            shard,
            tasks,
            plan_tasks: plan.tasks.len(),
            counts: tally.into(),
            kernel: a.engine.kernel.name().into(),
            threads,
            seconds: elapsed.as_secs_f64(),
        };
        return print(&(serde_json::to_string(&r)? + "\n"));
    }
    let outcome = Outcome {
        tally,
        threads,
        kernel: a.engine.kernel,
        elapsed,
    };
    let mut report = CountReport::new(&plan, &outcome);
    report.resumed_tasks = resumed;
    if resumed > 0 && report.seconds > 0.0 {
        // Throughput of this run only: the resumed tasks' nodes were visited earlier.
        report.nodes_per_second = (tally.nodes - resumed_nodes) as f64 / report.seconds;
    }
    report_out(&report, a.json)
}

/// Prints a count's report (text or JSON) and turns a disagreement with OEIS into exit 3.
pub fn report_out(report: &CountReport, json: bool) -> anyhow::Result<()> {
    if json {
        print(&(serde_json::to_string(report)? + "\n"))?;
    } else {
        print(&report.to_text())?;
    }
    match report.mismatch() {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
