//! `nqueens count N`, with progress, checkpoints, signals and shards.

use super::args::{parse_checkpoint_every, parse_n, parse_progress_every, parse_shard};
use super::cost::before_counting;
use super::report::CountReport;
use super::{print, EngineArgs, PlaceArgs};
use indicatif::{ProgressBar, ProgressStyle};
use nqueens::longrun::files;
use nqueens::longrun::result::ShardResult;
use nqueens::longrun::shard::Shard;
use nqueens::longrun::{self, LongRun, Outcome};
use nqueens::{Error, Progress, Totals};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Arguments of `count`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  nqueens count 12 --threads 2 --json\n  \
    nqueens count 8 --first-queen 2\n  nqueens count 10 --place 1:2 --place 5:1\n  \
    nqueens count 20 --checkpoint n20.ckpt      (run again after an interruption to resume)\n  \
    nqueens count 20 --shard 3/8 -o shard-3.json (then: nqueens merge shard-*.json)\n\n\
    Ctrl-C, SIGTERM or SIGHUP stop the count (exit 130 / 143 / 129); with --checkpoint the \
    finished tasks are saved first, and a second signal does not cut the save short (a third \
    ends the process at once, outside a file write).")]
pub struct CountArgs {
    /// Board size N, from 1 to 64.
    #[arg(value_name = "N", value_parser = parse_n, allow_negative_numbers = true)]
    pub n: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub place: PlaceArgs,
    /// Read --place and --first-queen from 0 instead of 1, and write the placed queens so in
    /// the report.
    #[arg(long)]
    pub zero_based: bool,
    /// Print one JSON object instead of text (also what `-o FILE.json` writes). A shard's
    /// result is its JSON file for `merge` whenever standard output is not a terminal; on a
    /// terminal a summary is shown unless --json asks for the JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the result to FILE instead of stdout, atomically (a temporary file in FILE's
    /// directory, flushed, then renamed over FILE): a result that is there is whole. With
    /// --shard and --checkpoint, the checkpoint (and its lock file) is removed once the
    /// result holds what it held.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
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
    /// No progress bar (it is shown only when stderr is a terminal anyway), and no note of
    /// the cost; not with --progress, which asks for progress lines.
    #[arg(long, short = 'q', conflicts_with = "progress")]
    pub quiet: bool,
    /// Count even what cannot finish in a lifetime (a hundred years on the threads given, by
    /// a rough scale), or what takes past a day with no --checkpoint or --shard to resume
    /// from: refused without it, before anything is counted.
    #[arg(long)]
    pub force: bool,
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

/// The signals that stop a count: Ctrl-C, SIGTERM, and SIGHUP (a closed terminal or ssh
/// session), which is taken as SIGTERM.
const STOPPING: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// The stopping signals raise the returned cancel flag (and record the first one's number)
/// instead of killing the process: the count stops, saves what it finished and says so. A
/// second signal (as `timeout`, a scheduler's cancel or an impatient Ctrl-C sends) changes
/// nothing: the save goes on. A third ends the process at once with 128 + its number (a plan
/// being built can take seconds), unless a file is being written ([`files::writing`]): a save
/// is never cut short.
fn watch_signals() -> anyhow::Result<(Arc<AtomicBool>, Arc<AtomicUsize>)> {
    let cancel = Arc::new(AtomicBool::new(false));
    let which = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(AtomicUsize::new(0));
    for sig in STOPPING {
        let (cancel, which, seen) = (cancel.clone(), which.clone(), seen.clone());
        let handler = move || {
            if seen.fetch_add(1, Ordering::SeqCst) == 0 {
                which.store(sig as usize, Ordering::SeqCst);
            }
            cancel.store(true, Ordering::SeqCst);
            if seen.load(Ordering::SeqCst) >= 3 && !files::writing() {
                signal_hook::low_level::exit(128 + sig);
            }
        };
        // SAFETY: the handler only touches atomics and calls `_exit`, which are
        // async-signal-safe.
        unsafe { signal_hook::low_level::register(sig, handler) }?;
    }
    Ok((cancel, which))
}

/// The error of a count stopped by `signal`: the library's message, named after the signal,
/// with the exit code 128 + the signal number.
fn interrupted(e: Error, signal: usize) -> anyhow::Error {
    let name = match signal {
        1 => "SIGHUP",
        15 => "SIGTERM",
        _ => "SIGINT",
    };
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

pub fn run(a: CountArgs) -> anyhow::Result<()> {
    let mut opts = a.engine.options()?;
    opts.placed = a.place.queens(a.n as usize, Some(a.zero_based))?;
    let algorithm = opts.resolved_algorithm(a.n);
    let placed = !opts.placed.is_empty();
    let threads = opts.resolved_threads();
    let resumable = a.shard.is_some() || a.checkpoint.is_some();
    let said = before_counting(
        a.n,
        algorithm,
        (placed, a.shard, resumable),
        threads,
        a.force,
    )?;
    if let Some(cost) = said {
        if !a.quiet {
            note!("{cost}");
        }
    }
    if let Some(out) = &a.output {
        // A result that cannot be written is found out now, not after the count, and so is
        // one that would overwrite the checkpoint (then removed with it: nothing left).
        if let Some(c) = &a.checkpoint {
            files::check_not_checkpoint(out, c)?;
        }
        files::check_writable(out, "result")?;
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
        // A person at a terminal reads a summary; the JSON goes to a file, a pipe, or to
        // whoever asks for it with --json.
        Ok(Outcome::Shard(r))
            if a.output.is_none() && !a.json && std::io::stdout().is_terminal() =>
        {
            print(&shard_summary(&r))
        }
        Ok(Outcome::Shard(r)) => {
            emit(a.output.as_deref(), &(serde_json::to_string(&r)? + "\n"))?;
            if let (Some(_), Some(c)) = (&a.output, &a.checkpoint) {
                // The file the run wrote (through a symlink, its target) and its lock.
                files::remove_checkpoint(&files::resolve(c).unwrap_or_else(|_| c.clone()));
            }
            Ok(())
        }
        Ok(Outcome::Whole(t)) => {
            // The format of `-o FILE.json` is JSON, as `bench --export` takes it from the name.
            let json = a.json || a.output.as_deref().is_some_and(named_json);
            report_out(&t, (json, a.zero_based), a.output.as_deref())
        }
        Err(e @ Error::Cancelled { .. }) => Err(interrupted(e, which.load(Ordering::SeqCst))),
        Err(e) => Err(e.into()),
    }
}

/// Prints a count's report (text or JSON; the placed queens 0-based with `zero_based`) to
/// stdout or `output`, then turns a disagreement with OEIS into exit 3.
fn report_out(
    totals: &Totals,
    (json, zero_based): (bool, bool),
    output: Option<&Path>,
) -> anyhow::Result<()> {
    let mut report = CountReport::new(totals);
    if zero_based {
        for q in &mut report.placed {
            *q = q.map(|x| x - 1);
        }
    }
    if json {
        emit(output, &(serde_json::to_string(&report)? + "\n"))?;
    } else {
        emit(output, &report.to_text())?;
    }
    Ok(totals.cross_check()?)
}

/// Whether `path` is named as a JSON file (`.json`, any case).
fn named_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// What a shard's result says to a person at a terminal: its counts, and how to keep the
/// file `merge` reads (its JSON, written with -o or to a pipe).
fn shard_summary(r: &ShardResult) -> String {
    let (i, k) = (r.shard.index, r.shard.count);
    format!(
        "shard      {i} of {k} for N = {n}: {tasks} tasks, {total} solutions in {secs:.1} s\n\
         result     not saved: its file for `nqueens merge` is JSON, written to a file or a pipe: \
         nqueens count {n} --shard {i}/{k} -o shard-{i}.json (or --json to print it here)\n",
        n = r.plan.n,
        tasks = r.tasks,
        total = r.counts.total,
        secs = r.seconds,
    )
}

/// Writes a result to stdout, or to file `output` atomically.
fn emit(output: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match output {
        Some(path) => Ok(files::replace(path, text.as_bytes(), "result")?),
        None => print(text),
    }
}
