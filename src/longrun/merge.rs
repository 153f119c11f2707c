//! Merging shards: the results of `count --shard I/K` runs, checked and summed into the whole
//! count.

use super::shard::{assign, Shard};
use crate::count::kernel::Kernel;
use crate::count::plan::PlanId;
use crate::count::tally::Tally;
use crate::count::{Job, Options, Totals};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// What a shard run prints: enough to check and merge it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    /// Always `"nqueens-shard"`.
    pub format: String,
    /// Format version ([`SHARD_VERSION`]).
    pub version: u32,
    /// The plan (its fields sit at the top level of the JSON).
    #[serde(flatten)]
    pub plan: PlanId,
    /// Which shard this is.
    pub shard: Shard,
    /// Tasks in this shard.
    pub tasks: usize,
    /// Tasks in the whole plan.
    pub plan_tasks: usize,
    /// This shard's counts (planner nodes included in shard 0 only).
    pub counts: Tally,
    /// The kernel used.
    pub kernel: String,
    /// Worker threads.
    pub threads: usize,
    /// Wall time of this shard's search, in seconds.
    pub seconds: f64,
}

/// The current shard file format.
pub const SHARD_FORMAT: &str = "nqueens-shard";

/// The shard file format's version (2: classes as `[c1, c8, quarters, sym90, sym180]`).
pub const SHARD_VERSION: u32 = 2;

/// Reads a shard result, naming the file when it cannot.
pub fn read(path: &std::path::Path) -> Result<ShardResult> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Input(format!("cannot read shard {name}: {e}")))?;
    let r: ShardResult = serde_json::from_str(text.trim()).map_err(|e| {
        Error::Input(format!(
            "{name} is not a shard result (the JSON `count --shard` prints): {e}"
        ))
    })?;
    if r.format != SHARD_FORMAT || r.version != SHARD_VERSION {
        return Err(Error::Input(format!(
            "{name} has format {:?} version {}; this nqueens reads {SHARD_FORMAT:?} version \
             {SHARD_VERSION}",
            r.format, r.version
        )));
    }
    Ok(r)
}

/// Checks that `parts` (with their file names) are all `K` shards of one plan, each exactly
/// once, rebuilds that plan and checks its fingerprint and each shard's task count; returns
/// the totals of the whole count (`threads` and `elapsed` are the shards' sums; the kernel is
/// the first shard's). Not cross-checked: see [`Totals::cross_check`].
pub fn merge(parts: &[(String, ShardResult)]) -> Result<Totals> {
    let Some((first_name, first)) = parts.first() else {
        return Err(Error::Usage("merge needs at least one shard file".into()));
    };
    let k = first.shard.count;
    let mut seen: Vec<Option<&str>> = vec![None; k as usize];
    for (name, p) in parts {
        check_same(first_name, first, name, p)?;
        let slot = &mut seen[p.shard.index as usize];
        if let Some(other) = slot {
            return Err(Error::Input(format!(
                "shard {} is given twice: {other} and {name}",
                p.shard
            )));
        }
        *slot = Some(name);
    }
    let missing: Vec<String> = (0..k)
        .filter(|&i| seen[i as usize].is_none())
        .map(|i| format!("{i}/{k}"))
        .collect();
    if !missing.is_empty() {
        return Err(Error::Input(format!(
            "missing shard{} {} of {k}: every shard 0/{k} to {}/{k} must be given once",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            k - 1
        )));
    }
    let job = Job::from_id(&first.plan, &Options::default())
        .map_err(|e| Error::Input(format!("{first_name}: {e}")))?;
    let est = job.counter().estimates();
    let assignment = assign(&est, k);
    let mut tally = Tally::default();
    for (name, p) in parts {
        let want = assignment.iter().filter(|&&s| s == p.shard.index).count();
        if p.tasks != want {
            return Err(Error::Input(format!(
                "{name} counted {} tasks, but shard {} of this plan has {want}",
                p.tasks, p.shard
            )));
        }
        tally += p.counts;
    }
    let kernel: Kernel = first
        .kernel
        .parse()
        .map_err(|e: Error| Error::Input(format!("{first_name}: {e}")))?;
    let threads = parts.iter().map(|p| p.1.threads).sum();
    let seconds: f64 = parts.iter().map(|p| p.1.seconds).sum();
    let elapsed = Duration::try_from_secs_f64(seconds).map_err(|_| {
        Error::Input(format!(
            "the shards' \"seconds\" add up to {seconds}: expected a time of at least 0"
        ))
    })?;
    Ok(Totals::of(
        job.id(),
        job.tasks(),
        kernel,
        threads,
        tally,
        elapsed,
    ))
}

/// Checks that shard `p` (file `name`) belongs to the same count as the first one, and that
/// its index is in range.
fn check_same(first_name: &str, first: &ShardResult, name: &str, p: &ShardResult) -> Result<()> {
    if p.plan != first.plan || p.shard.count != first.shard.count {
        return Err(Error::Input(format!(
            "{name} is shard {} of N={} (plan {}), but {first_name} is shard {} of N={} \
             (plan {}): all shards must come from the same count",
            p.shard,
            p.plan.n,
            p.plan.fingerprint,
            first.shard,
            first.plan.n,
            first.plan.fingerprint
        )));
    }
    if p.shard.index >= p.shard.count {
        return Err(Error::Input(format!(
            "{name} claims shard {}, which is out of range (0 <= I < K)",
            p.shard
        )));
    }
    Ok(())
}
