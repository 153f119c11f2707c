//! `nqueens count N`, with progress, checkpoints, signals and shards.

use super::cost::{before_counting, CountAsked};
use super::progress::ProgressView;
use super::report::{CountReport, ShardOutput};
use super::signals::{interrupted, watch_signals};
use crate::cli::args::common::{EngineArgs, PlaceArgs};
use crate::cli::args::parse::{parse_checkpoint_every, parse_n, parse_progress_every, parse_shard};
use crate::cli::output::{self, stdout, ReportFormat, Target};
use nqueens::longrun::distributed::shard::Shard;
use nqueens::longrun::{self, LongRun, Outcome};
use nqueens::Error;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Mutex;
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

pub fn run(a: CountArgs) -> anyhow::Result<()> {
    let mut opts = a.engine.options()?;
    opts.placed = a.place.queens(a.n as usize, Some(a.zero_based))?;
    let algorithm = opts.resolved_algorithm(a.n);
    let placed = !opts.placed.is_empty();
    let threads = opts.resolved_threads();
    let resumable = a.shard.is_some() || a.checkpoint.is_some();
    // Where one checkpoint cannot hold the plan, the advice is shards, not a checkpoint.
    let least_shards = match a.shard {
        None => nqueens::longrun::shards_needed_early(a.n, &opts)?,
        Some(_) => None,
    };
    let said = before_counting(&CountAsked {
        least_shards,
        n: a.n,
        algorithm,
        placed,
        shard: a.shard,
        resumable,
        threads,
        force: a.force,
    })?;
    if let Some(cost) = said {
        if !a.quiet {
            note!("{cost}");
        }
    }
    let long = LongRun::new(a.checkpoint.clone(), a.checkpoint_every, a.shard);
    let target = target_of(&a, &long)?;
    let (cancel, which) = watch_signals()?;
    opts.cancel = Some(cancel);
    let view = ProgressView::new(a.n, a.progress, a.progress_every, a.quiet);
    let bar = view.bar.clone();
    if view.shows() {
        let view = Mutex::new(view);
        opts = opts.with_progress(move |p| {
            if let Ok(mut v) = view.lock() {
                v.show(p);
            }
        });
    }
    let end = longrun::run(a.n, &opts, &long);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    match end {
        Ok(Outcome::Shard(r)) => {
            output::emit(&ShardOutput(&r), ReportFormat::Json, &target)?;
            if let Target::Replace { .. } = &target {
                long.result_saved();
            }
            Ok(())
        }
        Ok(Outcome::Whole(t)) => {
            // The format of `-o FILE.json` is JSON, as `bench --export` takes it from the name.
            let named = target.path().and_then(ReportFormat::of_path);
            let format = ReportFormat::json_if(a.json || named == Some(ReportFormat::Json));
            output::emit(&CountReport::new(&t, a.zero_based), format, &target)?;
            Ok(t.cross_check()?)
        }
        Err(e @ Error::Cancelled { .. }) => Err(interrupted(e, which.load(Ordering::SeqCst))),
        Err(e) => Err(e.into()),
    }
}

/// Where the result goes, checked before anything is counted: a result that cannot be written,
/// or one that would overwrite the checkpoint, is found out now, not after the count. A shard's
/// result is the JSON file `merge` reads: on a terminal, with no `-o` and no `--json`, it would
/// be counted only to be lost, so that is refused too.
fn target_of(a: &CountArgs, long: &LongRun) -> anyhow::Result<Target> {
    match (&a.output, a.shard) {
        (Some(out), _) => {
            long.check_output(out)?;
            Ok(Target::file(out, "result")?)
        }
        (None, Some(s)) if !a.json && stdout::is_terminal() => Err(Error::Usage(format!(
            "shard {}/{} is counted for `nqueens merge`, whose input is the shard's JSON \
                 file, and stdout is a terminal: add -o FILE to this command to save it (or \
                 --json to print it here); nothing was counted",
            s.index, s.count
        ))
        .into()),
        (None, _) => Ok(Target::Stdout),
    }
}
