//! `nqueens status DIR|FILES...`.

use super::print;
use nqueens::longrun::status::{files, status, whole_runs, ShardState, Status, WholeRun};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `status`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads the shard results (`count --shard I/K` output) and shard \
    checkpoints of a distributed run, from a directory (searched two levels deep for *.json \
    and *.ckpt) or from the files given, and says which shards are finished, which are under \
    way and how far (share of their expected work), which have nothing yet, the solutions so \
    far, and what is left. It never changes a file. Every file of the run is checked as \
    `merge` checks it (its seal, its plan, its sums against its tasks, its task ids against \
    its shard); when every shard is there, they are merged and compared with the known \
    values, as `merge` does.\n\n\
    The run is the plan and shard count most files belong to; files of another count are \
    listed as foreign.\n\n\
    Exit codes: 0 every shard finished and `merge` succeeds; 1 not yet (or foreign files); 2 \
    a file that cannot be read, is damaged or fails a check (named), or finished shards that \
    do not merge; 3 a merged count that disagrees with the known value (as `merge`).\n\n\
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
    let found = files(&a.paths)?;
    let opts = super::options()?;
    let s = match status(&found, &opts) {
        Ok(s) => s,
        Err(e) => {
            // No shard run: a whole count's checkpoint says where that count stands.
            let runs = whole_runs(&found, &opts)?;
            if runs.is_empty() {
                return Err(e.into());
            }
            return whole(&runs, a.json);
        }
    };
    if a.json {
        let mut v = serde_json::to_value(&s)?;
        v["complete"] = s.complete().into();
        v["total"] = s.merged.as_ref().map(|m| m.totals.total.to_string()).into();
        v["run_digest"] = s.merged.as_ref().map(|m| m.digest.clone()).into();
        v["merge_error"] = s.merge_error.as_ref().map(|e| e.to_string()).into();
        print(&(v.to_string() + "\n"))?;
    } else {
        print(&text(&s))?;
    }
    if let Some(e) = &s.merge_error {
        // As merge would: 2 for shards that do not merge, 3 for a count that disagrees.
        note!("every shard is finished, but merge refuses them: {e}");
        return Ok(e.exit_code());
    }
    Ok(if s.complete() { 0 } else { 1 })
}

/// Prints where whole counts stand (one line each, or a JSON object each): exit 0 when every
/// one has counted all its tasks, 1 while one has not.
fn whole(runs: &[WholeRun], json: bool) -> anyhow::Result<u8> {
    let mut out = String::new();
    for r in runs {
        if json {
            out += &(serde_json::to_string(r)? + "\n");
            continue;
        }
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
        let left = if r.done == r.tasks {
            "nothing: every task is counted (the count printed its result)".to_string()
        } else {
            let time = if r.core_seconds_left < 1.0 {
                "less than a second".to_string()
            } else {
                format!("about {}", super::cost::duration(r.core_seconds_left))
            };
            format!(
                "{time} of core time by a rough scale (`nqueens estimate {}` measures it); \
                 resume with the same count command",
                r.n
            )
        };
        let _ = writeln!(out, "left       {left}");
    }
    print(&out)?;
    Ok(if runs.iter().all(|r| r.done == r.tasks) {
        0
    } else {
        1
    })
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
    if let (Some(m), None) = (&s.merged, &s.merge_error) {
        let _ = writeln!(
            out,
            "complete   every shard finished; merge gives total {} (digest sha256 {})",
            m.totals.total, m.digest
        );
    }
    out
}
