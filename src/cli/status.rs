//! `nqueens status DIR|FILES...`.

use super::print;
use nqueens::longrun::status::{files, status, ShardState, Status};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `status`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads the shard results (`count --shard I/K` output) and shard \
    checkpoints of a distributed run, from a directory (searched two levels deep for *.json \
    and *.ckpt) or from the files given, and says which shards are finished, which are under \
    way and how far (share of their expected work), which have nothing yet, the solutions so \
    far, and what is left. It never changes a file.\n\n\
    The run is the plan and shard count most files belong to; files of another count are \
    listed as foreign.\n\n\
    Exit codes: 0 every shard finished and `merge` would succeed; 1 not yet (or foreign \
    files, or a merge that would fail); 2 a file that cannot be read or is damaged (named).\n\n\
    Example:\n  nqueens status runs/n21/"
)]
pub struct StatusArgs {
    /// The run's directory, or its files.
    #[arg(value_name = "DIR|FILES", required = true)]
    pub paths: Vec<PathBuf>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: StatusArgs) -> anyhow::Result<u8> {
    let s = status(&files(&a.paths)?, &super::options()?)?;
    if a.json {
        let mut v = serde_json::to_value(&s)?;
        v["complete"] = s.complete().into();
        v["total"] = s.merged.as_ref().map(|t| t.total.to_string()).into();
        print(&(v.to_string() + "\n"))?;
    } else {
        print(&text(&s))?;
    }
    if let Some(e) = &s.merge_error {
        // Exit 1, as --help says: the run is not complete until its shards merge.
        note!("every shard is finished, but they do not merge: {e}");
        return Ok(1);
    }
    Ok(if s.complete() { 0 } else { 1 })
}

fn text(s: &Status) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "run        {} (plan {}), {} shards",
        s.plan, s.fingerprint, s.shards
    );
    for (i, st) in s.states.iter().enumerate() {
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
                "partial    {done}/{tasks} tasks, {:.1}% of its work, {solutions} solutions so far  {file}",
                100.0 * work
            ),
            ShardState::Missing => "missing    nothing yet".to_string(),
        };
        let _ = writeln!(out, "shard {i:>3}  {line}");
    }
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
        let _ = writeln!(
            out,
            "left       about {left:.0}s of shard time at the finished shards' pace"
        );
    }
    for f in &s.foreign {
        let _ = writeln!(out, "foreign    {f} (another count: not part of this run)");
    }
    if let Some(t) = &s.merged {
        let _ = writeln!(
            out,
            "complete   every shard finished; merge gives total {} (nqueens merge checks it)",
            t.total
        );
    }
    out
}
