//! `nqueens status DIR|FILES...`.

use super::args::common::options;
use super::count::cost::duration;
use super::exit::Exit;
use super::output::{self, json_line, ReportFormat};
use nqueens::longrun::distributed::status::{
    files, listed, status, whole_runs, ShardState, Status, WholeRun,
};
use nqueens::Error;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `status`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads the shard results (`count --shard I/K` output) and shard \
    checkpoints of a distributed run, from a directory (searched 8 levels deep for *.json \
    and *.ckpt) or from the files given, and says which shards are finished, which are under \
    way and how far (share of their expected work), which have nothing yet, the solutions so \
    far, and what is left. It never changes a file. Every file of the run is checked as \
    `merge` checks it (its seal, its plan, its sums against its tasks, its task ids against \
    its shard); when every shard is there, they are merged and compared with the known \
    values, as `merge` does.\n\n\
    The run is the plan and shard count most files belong to; files of another count are \
    listed as foreign.\n\n\
    A damaged file (corrupt or truncated) is named and the other shards are still reported; \
    a file found in the directory that is gone when it is read (a shard finishing meanwhile) \
    is named as vanished, not an error. A link to a file is read as the file; links to \
    directories are not followed.\n\n\
    Exit codes: 0 every shard finished and `merge` succeeds; 1 not yet (or foreign files); 2 \
    a file that cannot be read, is damaged or fails a check (named), or finished shards that \
    do not merge; 3 a merged count that disagrees with the known value (as `merge`).\n\n\
    Example:\n  nqueens status runs/n21/"
)]
pub struct StatusArgs {
    /// The run's directory, or its files.
    #[arg(value_name = "DIR|FILES", required_unless_present = "list")]
    pub paths: Vec<PathBuf>,
    /// A file that lists the run's files (or directories), one path per line (`-`: standard
    /// input), as merge and audit take.
    #[arg(long, value_name = "FILE")]
    pub list: Vec<PathBuf>,
    /// A line for every shard. By default a run of more than 32 shards is summarised: the
    /// partial shards (the first 20), the missing ones as ranges.
    #[arg(long)]
    pub all: bool,
    /// One JSON object instead of text (it holds every shard).
    #[arg(long)]
    pub json: bool,
}

/// Runs of up to this many shards get a line each whatever `--all` says.
const EVERY_LINE_UP_TO: usize = 32;

/// The partial shards, and the ranges of missing ones, a summary lists.
const LISTED: usize = 20;

pub fn run(a: StatusArgs) -> anyhow::Result<Exit> {
    let mut given = a.paths.clone();
    for l in &a.list {
        given.extend(listed(l)?);
    }
    let found = files(&given)?;
    let opts = options()?;
    let s = match status(&found, &opts) {
        Ok(Some(s)) => s,
        // No shard run: a whole count's checkpoint says where that count stands.
        Ok(None) => {
            let runs = whole_runs(&found, &opts)?;
            if runs.is_empty() {
                return Err(Error::Input(
                    "no shard results or shard checkpoints found: give the directory of a \
                     distributed run (or its files)"
                        .into(),
                )
                .into());
            }
            return whole(&runs, a.json);
        }
        // A shard run that fails a check: its error, with any whole count beside it.
        Err(e) => {
            let runs = whole_runs(&found, &opts).unwrap_or_default();
            if !runs.is_empty() {
                whole(&runs, a.json)?;
            }
            return Err(e.into());
        }
    };
    let out = StatusOutput {
        status: &s,
        all: a.all,
    };
    output::print(&out, ReportFormat::json_if(a.json))?;
    if !s.damaged.is_empty() {
        for why in &s.damaged {
            note!("damaged: {why}");
        }
        note!(
            "{} file(s) of the run cannot be read or are damaged; the other shards are reported",
            s.damaged.len()
        );
        return Ok(Exit::Usage);
    }
    if s.merged.is_some() && !s.foreign.is_empty() {
        // As merge of this directory would: a run mixed with another count's files.
        note!("every shard is finished, but merge refuses a directory that mixes counts");
        return Ok(Exit::Usage);
    }
    if let Some(e) = &s.merge_error {
        // As merge would: 2 for shards that do not merge, 3 for a count that disagrees.
        note!("every shard is finished, but merge refuses them: {e}");
        return Ok(if e.exit_code() == 3 {
            Exit::Mismatch
        } else {
            Exit::Usage
        });
    }
    Ok(if s.complete() {
        Exit::Success
    } else {
        Exit::Failure
    })
}

/// Prints where whole counts stand (one line each, or a JSON object each): exit 0 when every
/// one has counted all its tasks, 1 while one has not.
fn whole(runs: &[WholeRun], json: bool) -> anyhow::Result<Exit> {
    output::print(&WholeOutput(runs), ReportFormat::json_if(json))?;
    Ok(if runs.iter().all(|r| r.done == r.tasks) {
        Exit::Success
    } else {
        Exit::Failure
    })
}

/// What `status` prints of whole counts (no shards): a few lines, or a JSON object, each.
struct WholeOutput<'a>(&'a [WholeRun]);

impl output::Report for WholeOutput<'_> {
    fn text(&self) -> String {
        let mut out = String::new();
        for r in self.0 {
            let _ = writeln!(
                out,
                "run        {} (plan {}), one run: {}",
                r.plan, r.fingerprint, r.file
            );
            let _ = writeln!(
                out,
                "progress   {} of {} tasks, {:.1}% of the expected work; {} solutions so far",
                r.done,
                r.tasks,
                r.work_done * 100.0,
                r.solutions_so_far
            );
            let _ = writeln!(out, "left       {}", whole_left(r));
        }
        out
    }

    fn json(&self) -> serde_json::Result<String> {
        self.0.iter().map(json_line).collect()
    }
}

/// What a whole count has left, in words.
fn whole_left(r: &WholeRun) -> String {
    if r.done == r.tasks {
        return "nothing: every task is counted (the count printed its result)".to_string();
    }
    let time = if r.core_seconds_left < 1.0 {
        "less than a second".to_string()
    } else {
        format!("about {}", duration(r.core_seconds_left))
    };
    format!(
        "{time} of core time by a rough scale (`nqueens estimate {}` measures it); resume with \
         the same count command",
        r.n
    )
}

/// What `status` prints of a shard run.
struct StatusOutput<'a> {
    status: &'a Status,
    /// Every shard's line, not a summary.
    all: bool,
}

impl output::Report for StatusOutput<'_> {
    fn text(&self) -> String {
        text(self.status, self.all)
    }

    fn json(&self) -> serde_json::Result<String> {
        let s = self.status;
        let mut v = serde_json::to_value(s)?;
        v["complete"] = s.complete().into();
        v["total"] = s.merged.as_ref().map(|m| m.totals.total.to_string()).into();
        v["run_digest"] = s.merged.as_ref().map(|m| m.digest.clone()).into();
        v["merge_error"] = s.merge_error.as_ref().map(|e| e.to_string()).into();
        json_line(&v)
    }
}

/// Shard `i`'s line.
fn shard_line(i: usize, st: &ShardState) -> String {
    let line = match st {
        ShardState::Finished {
            file,
            solutions,
            seconds,
        } => format!("finished   {solutions} solutions in {seconds:.1}s  {file}"),
        ShardState::Partial {
            file,
            done,
            tasks,
            work,
            solutions,
        } => format!(
            "partial    {done}/{tasks} tasks, {:.1}% of its work, {solutions} solutions so far  \
             {file}",
            100.0 * work
        ),
        ShardState::Missing => "missing    nothing yet".to_string(),
    };
    format!("shard {i:>3}  {line}")
}

/// The indexes `ids` (ascending) as ranges: `0-3, 7, 9-12`, the first `most` of them, and
/// how many more there are.
fn ranges(ids: impl Iterator<Item = usize>, most: usize) -> (String, usize) {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in ids {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => runs.push((i, i)),
        }
    }
    let shown: Vec<String> = runs
        .iter()
        .take(most)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    (shown.join(", "), runs.len().saturating_sub(most))
}

/// The shards' lines: every one (`all`, or a run of up to [`EVERY_LINE_UP_TO`]), else the
/// first [`LISTED`] partial ones and the missing ones as ranges.
fn shard_lines(s: &Status, all: bool, out: &mut String) {
    if all || s.states.len() <= EVERY_LINE_UP_TO {
        for (i, st) in s.states.iter().enumerate() {
            let _ = writeln!(out, "{}", shard_line(i, st));
        }
        return;
    }
    let partial = s
        .states
        .iter()
        .enumerate()
        .filter(|(_, st)| matches!(st, ShardState::Partial { .. }));
    for (i, st) in partial.take(LISTED) {
        let _ = writeln!(out, "{}", shard_line(i, st));
    }
    if s.partial > LISTED {
        let more = s.partial - LISTED;
        let _ = writeln!(
            out,
            "partial    … and {more} more under way (--all lists every shard)"
        );
    }
    let missing = s
        .states
        .iter()
        .enumerate()
        .filter(|(_, st)| matches!(st, ShardState::Missing));
    let (shown, more) = ranges(missing.map(|(i, _)| i), LISTED);
    if !shown.is_empty() {
        let more = if more > 0 {
            format!(" … and {more} more ranges (--all lists every shard)")
        } else {
            String::new()
        };
        let _ = writeln!(out, "missing    shards {shown}{more}");
    }
}

fn text(s: &Status, all: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "run        {} (plan {}), {} shards",
        s.plan, s.fingerprint, s.shards
    );
    shard_lines(s, all, &mut out);
    let _ = writeln!(
        out,
        "summary    {} finished, {} partial, {} missing; {} solutions so far; {:.1}% of the \
         expected work done",
        s.finished,
        s.partial,
        s.missing,
        s.solutions_so_far,
        100.0 * s.work_done
    );
    if let Some(left) = s.seconds_left.filter(|_| s.merged.is_none()) {
        let time = if left < 0.5 {
            "under a second".to_string()
        } else {
            format!("about {}", duration(left))
        };
        let _ = writeln!(
            out,
            "left       {time} of shard time at the finished shards' pace"
        );
    }
    for f in &s.foreign {
        let _ = writeln!(out, "foreign    {f} (another count: not part of this run)");
    }
    for f in &s.vanished {
        let _ = writeln!(
            out,
            "vanished   {f} (removed while status read the run: a shard finishing? run status \
             again)"
        );
    }
    for why in &s.damaged {
        let _ = writeln!(
            out,
            "damaged    {why} (corrupt or truncated: restore it, or count that shard again)"
        );
    }
    match (&s.merged, &s.merge_error) {
        (Some(m), None) if s.foreign.is_empty() && s.damaged.is_empty() => {
            let _ = writeln!(
                out,
                "complete   every shard finished; merge gives total {} (digest sha256 {})",
                m.totals.total, m.digest
            );
        }
        (Some(m), None) if !s.foreign.is_empty() => {
            let _ = writeln!(
                out,
                "refused    every shard finished (total {} merged alone), but files of another \
                 count are here too: merge refuses a directory that mixes counts; move them \
                 out, or merge this run's files by name",
                m.totals.total
            );
        }
        _ => {}
    }
    out
}
