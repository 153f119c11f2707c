//! Shards: one count split across machines by task, and the parts merged back.
//!
//! `count N --shard I/K` counts only the tasks assigned to shard `I` of `K` (0-based, as Slurm
//! array and Kubernetes job indexes count). The assignment is fixed and balanced by expected
//! work:
//!
//! 1. each task's expected work is the number of nodes in its first [`ESTIMATE_ROWS`] free rows
//!    (counted exactly, below the task's fixed queens and bounds);
//! 2. tasks are taken in decreasing expected work (ties: lower id first) and each goes to the
//!    shard with the least expected work so far (ties: lower shard index).
//!
//! Every shard's result names the plan's fingerprint, so [`merge`] can check that all `K`
//! shards of one plan are present exactly once before it sums them.

use crate::error::{Error, Result};
use crate::kernel::{Classes, Kernel, Tally};
use crate::plan::{Plan, PlanId};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Free rows counted to estimate a task's work.
pub const ESTIMATE_ROWS: usize = 3;

/// Shard `index` of `count` (0 <= index < count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u32,
    /// How many shards the count is split into.
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Parses `I/K`.
pub fn parse_shard(s: &str) -> std::result::Result<Shard, String> {
    let bad = || format!("'{s}' is not a shard: write I/K with 0 <= I < K, e.g. 0/8");
    let (i, k) = s.trim().split_once('/').ok_or_else(bad)?;
    let index: u32 = i.trim().parse().map_err(|_| bad())?;
    let count: u32 = k.trim().parse().map_err(|_| bad())?;
    if count == 0 || index >= count {
        return Err(format!(
            "shard {s} is out of range: the index I must satisfy 0 <= I < K (K >= 1)"
        ));
    }
    Ok(Shard { index, count })
}

/// The expected work of every task of `plan` (see the module docs), indexed by task id.
pub fn estimates(plan: &Plan) -> Vec<u64> {
    plan.tasks
        .par_iter()
        .map(|t| {
            let mut spec = plan.spec(t);
            spec.k = spec.k.min(ESTIMATE_ROWS);
            Kernel::Fast.count(&spec).nodes.max(1)
        })
        .collect()
}

/// The shard of every task of `plan` when split `count` ways, indexed by task id.
pub fn assign(plan: &Plan, count: u32) -> Vec<u32> {
    assign_by(&estimates(plan), count)
}

/// The shard of every task, indexed by task id, given the tasks' expected work `est`.
pub fn assign_by(est: &[u64], count: u32) -> Vec<u32> {
    let mut order: Vec<usize> = (0..est.len()).collect();
    order.sort_by(|&a, &b| est[b].cmp(&est[a]).then(a.cmp(&b)));
    let mut load = vec![0u64; count as usize];
    let mut out = vec![0u32; est.len()];
    for i in order {
        let s = (0..count as usize)
            .min_by_key(|&s| (load[s], s))
            .unwrap_or(0);
        load[s] += est[i];
        out[i] = s as u32;
    }
    out
}

/// The ids of the tasks of `plan` in `shard`.
pub fn task_ids(plan: &Plan, shard: Shard) -> Vec<u32> {
    task_ids_by(&estimates(plan), shard)
}

/// The ids of the tasks in `shard`, given the tasks' expected work `est`.
pub fn task_ids_by(est: &[u64], shard: Shard) -> Vec<u32> {
    assign_by(est, shard.count)
        .iter()
        .enumerate()
        .filter(|(_, &s)| s == shard.index)
        .map(|(i, _)| i as u32)
        .collect()
}

/// A tally as written in shard and checkpoint files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Counts {
    /// Solutions, weighted: the contribution to A000170.
    pub total: u128,
    /// For the symmetric algorithm, the [`Classes`] fields in order: `[c1, c8, quarters,
    /// sym90, sym180]`.
    pub classes: Option<[u128; 5]>,
    /// Nodes visited.
    pub nodes: u128,
}

impl From<Tally> for Counts {
    fn from(t: Tally) -> Counts {
        Counts {
            total: t.total,
            classes: t
                .classes
                .map(|c| [c.c1, c.c8, c.quarters, c.sym90, c.sym180]),
            nodes: t.nodes,
        }
    }
}

impl From<Counts> for Tally {
    fn from(c: Counts) -> Tally {
        Tally {
            total: c.total,
            classes: c.classes.map(|[c1, c8, quarters, sym90, sym180]| Classes {
                c1,
                c8,
                quarters,
                sym90,
                sym180,
            }),
            nodes: c.nodes,
        }
    }
}

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
    pub counts: Counts,
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
/// once, rebuilds that plan and checks its fingerprint; returns the plan and the summed tally.
pub fn merge(parts: &[(String, ShardResult)]) -> Result<(Plan, Tally)> {
    let Some((first_name, first)) = parts.first() else {
        return Err(Error::Usage("merge needs at least one shard file".into()));
    };
    let mut seen: Vec<Option<&str>> = vec![None; first.shard.count as usize];
    for (name, p) in parts {
        let same = p.plan == first.plan && p.shard.count == first.shard.count;
        if !same {
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
        let slot = &mut seen[p.shard.index as usize];
        if let Some(other) = slot {
            return Err(Error::Input(format!(
                "shard {} is given twice: {other} and {name}",
                p.shard
            )));
        }
        *slot = Some(name);
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| format!("{i}/{}", first.shard.count))
        .collect();
    if !missing.is_empty() {
        return Err(Error::Input(format!(
            "missing shard{} {} of {}: every shard 0..{} must be given once",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            first.shard.count,
            first.shard.count
        )));
    }
    let plan = first
        .plan
        .rebuild()
        .map_err(|e| Error::Input(format!("{first_name}: {e}")))?;
    let assignment = assign(&plan, first.shard.count);
    let mut tally = Tally::default();
    for (name, p) in parts {
        let want = assignment.iter().filter(|&&s| s == p.shard.index).count();
        if p.tasks != want {
            return Err(Error::Input(format!(
                "{name} counted {} tasks, but shard {} of this plan has {want}",
                p.tasks, p.shard
            )));
        }
        tally += Tally::from(p.counts);
    }
    Ok((plan, tally))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Algorithm;

    #[test]
    fn shards_parse() {
        assert_eq!(parse_shard("0/8"), Ok(Shard { index: 0, count: 8 }));
        assert!(parse_shard("8/8").is_err());
        assert!(parse_shard("1/0").is_err());
        assert!(parse_shard("x").is_err());
    }

    #[test]
    fn assignment_covers_every_task_once_and_is_stable() {
        let plan = Plan::new(12, Algorithm::Symmetric, 2).unwrap();
        for k in [1, 3, 7] {
            let a = assign(&plan, k);
            assert_eq!(a, assign(&plan, k));
            let mut all: Vec<u32> = (0..k)
                .flat_map(|i| task_ids(&plan, Shard { index: i, count: k }))
                .collect();
            all.sort_unstable();
            assert_eq!(all, (0..plan.tasks.len() as u32).collect::<Vec<_>>());
        }
    }
}
