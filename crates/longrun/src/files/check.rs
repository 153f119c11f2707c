//! The checks every reader of a run's files makes, merge, status and audit alike: what one
//! file shows by itself (its seal, its sums against its classes, its fields in range:
//! [`crate::files::result::parse`], [`crate::files::checkpoint::Checkpoint::parse`]) and what it must agree
//! with in its plan ([`PlanCheck`]): the plan itself (every field of its id), its shard's task
//! ids (the plan's assignment), and its sums against its tasks.

use crate::distributed::shard::{Assignment, Shard};
use crate::files::checkpoint::Checkpoint;
use crate::files::record::Done;
use crate::files::result::ShardResult;
use nqueens_board::error::{Error, Result};
use nqueens_count::job::Identity;
use nqueens_count::options::Options;
use nqueens_count::plan_id::PlanId;
use nqueens_count::tally::Tally;
use std::collections::HashMap;
use std::sync::Arc;

/// A plan, rebuilt from a file's id, to check the files of its runs against.
#[derive(Debug)]
pub struct PlanCheck {
    identity: Identity,
    /// Its assignments to shards, by the number of shards (made when first asked for, and
    /// shared with the checks of the files being read).
    assignments: HashMap<u32, Arc<Assignment>>,
}

/// The error of a file that fails a check.
/// Why the counts `t` of one task of an `n` board cannot be, if they cannot: more solutions
/// than the board has permutations (`n!`), or more nodes than any search of it visits (at
/// most `n^n`: a queen placed per row; the quadrant method's half-boards are fewer still).
pub fn impossible(n: u32, t: &Tally) -> Option<String> {
    let rows = u128::from(n);
    let permutations = (1..=rows).fold(1u128, |a, k| a.saturating_mul(k));
    let placements = (0..rows).fold(1u128, |a, _| a.saturating_mul(rows));
    let classes = t.classes.map(<[u128; 5]>::from).unwrap_or_default();
    if t.total > permutations || classes.iter().any(|&c| c > permutations) {
        return Some(format!(
            "counts more solutions than the {n}×{n} board has permutations ({permutations})"
        ));
    }
    if t.nodes > placements {
        return Some(format!(
            "counts {} nodes, more than any search of the {n}×{n} board visits ({placements})",
            t.nodes
        ));
    }
    None
}

fn forged(name: &str, what: String) -> Error {
    Error::Input(format!(
        "{name}: {what}: it was forged or damaged; count it again"
    ))
}

impl PlanCheck {
    /// The plan `id` names, rebuilt as `opts` make it (their quadrant settings), its
    /// fingerprint checked; `name` is the file that named it.
    pub fn new(id: &PlanId, opts: &Options, name: &str) -> Result<PlanCheck> {
        let identity = Identity::of(id, opts).map_err(|e| Error::Input(format!("{name}: {e}")))?;
        Ok(PlanCheck {
            identity,
            assignments: HashMap::new(),
        })
    }

    /// The rebuilt plan.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The plan's assignment to `count` shards (made once, when first asked for: merge and
    /// status check K files against it).
    fn assignment(&mut self, count: u32) -> Arc<Assignment> {
        let work = &self.identity.work;
        self.assignments
            .entry(count)
            .or_insert_with(|| Arc::new(Assignment::new(work, count)))
            .clone()
    }

    /// How many tasks `shard` holds (the plan's, for `None`), found without listing them,
    /// refused where it is more than `count` puts in one file (so a tiny forged header never
    /// makes a reader list or hold millions of tasks).
    fn scope(&mut self, name: &str, shard: Option<Shard>) -> Result<usize> {
        let tasks = self.identity.tasks;
        let in_scope = match shard {
            Some(s) => self.assignment(s.count).len(s.index),
            None => tasks,
        };
        let most = crate::fit::most_tasks_a_file();
        if in_scope > most {
            let fewest = tasks.div_ceil(most);
            return Err(forged(
                name,
                format!(
                    "it says it holds {} of a plan of {tasks} tasks, {in_scope} tasks in one \
                     file, which count never writes (at most {most} a file: it asks for at \
                     least {fewest} shards of this plan)",
                    shard.map_or("the whole count".into(), |s| format!("shard {s}")),
                ),
            ));
        }
        Ok(in_scope)
    }

    /// Every field of a file's plan `id` is this plan's (a forger may edit the fields the
    /// fingerprint does not spell out, such as a quadrant shard's split depth).
    fn same_plan(&self, name: &str, id: &PlanId) -> Result<()> {
        if *id != self.identity.id {
            return Err(forged(
                name,
                format!(
                    "it describes its plan with {} (the plan of fingerprint {} has {})",
                    id.differences(&self.identity.id),
                    id.fingerprint,
                    self.identity.id.describe()
                ),
            ));
        }
        Ok(())
    }

    /// Checks shard result `r` (file `name`): its plan, its tasks (exactly those of its shard)
    /// and its sums (its tasks' counts, and the planner's on shard 0).
    pub fn shard(&mut self, name: &str, r: &ShardResult) -> Result<()> {
        let mut check = self.shard_head(name, r)?;
        for d in &r.done {
            check.record(d)?;
        }
        check.finish(r)
    }

    /// The checks of shard result `r` (file `name`) that its fields allow (its plan, its
    /// scope, its number of tasks), and what checks its records as they are read
    /// ([`ShardCheck`]): [`PlanCheck::shard`] one record at a time.
    pub fn shard_head(&mut self, name: &str, r: &ShardResult) -> Result<ShardCheck> {
        self.same_plan(name, &r.plan)?;
        if r.plan_tasks != self.identity.tasks {
            return Err(forged(
                name,
                format!(
                    "it says its plan has {} tasks, but the plan of fingerprint {} has {}",
                    r.plan_tasks, r.plan.fingerprint, self.identity.tasks
                ),
            ));
        }
        let algorithm = self.identity.id.algorithm;
        if r.counts.classes.is_some() && !algorithm.counts_classes() {
            return Err(misfit(name, "its sums", algorithm));
        }
        let in_scope = self.scope(name, Some(r.shard))?;
        if r.tasks != in_scope {
            return Err(forged(
                name,
                format!(
                    "it counted {} tasks, but shard {} of this plan has {in_scope}",
                    r.tasks, r.shard,
                ),
            ));
        }
        let sum = if r.shard.index == 0 {
            self.identity.planned
        } else {
            Tally::default()
        };
        Ok(ShardCheck {
            name: name.to_string(),
            n: self.identity.id.n,
            assignment: self.assignment(r.shard.count),
            shard: r.shard,
            in_scope,
            algorithm,
            sum: Some(sum),
            listed: 0,
        })
    }

    /// The `i`-th task id (from 0, in increasing order) of `shard` in this plan, found
    /// without listing the shard (by arithmetic in a striped plan).
    pub fn nth_id(&mut self, shard: Shard, i: usize) -> Option<u32> {
        self.assignment(shard.count).nth(shard.index, i)
    }

    /// Checks checkpoint `c` (file `name`): its plan, its scope (its shard's tasks, or the
    /// plan's), and that every task it lists is in that scope.
    pub fn checkpoint(&mut self, name: &str, c: &Checkpoint) -> Result<()> {
        let mut check = self.checkpoint_head(name, c)?;
        for d in &c.done {
            check.record(d)?;
        }
        Ok(())
    }

    /// The checks of checkpoint `c` (file `name`) that its fields allow (its plan, its
    /// scope), and what checks its records as they are read ([`CheckpointCheck`]).
    pub fn checkpoint_head(&mut self, name: &str, c: &Checkpoint) -> Result<CheckpointCheck> {
        self.same_plan(name, &c.plan)?;
        // What the header says is checked before any list is made (a forged header of a
        // whole N = 28 plan would otherwise cost a list of half a billion ids).
        let in_scope = self.scope(name, c.shard)?;
        let of = c.shard.map_or("the plan".into(), |s| format!("shard {s}"));
        if c.tasks != in_scope {
            return Err(forged(
                name,
                format!(
                    "it says {} tasks in scope, but {of} has {in_scope}",
                    c.tasks
                ),
            ));
        }
        Ok(CheckpointCheck {
            name: name.to_string(),
            n: self.identity.id.n,
            shard: c.shard.map(|shard| ShardScope {
                assignment: self.assignment(shard.count),
                shard,
            }),
            in_scope,
            listed: 0,
        })
    }
}

/// The error of a file whose `what` has class counts where a plan of `algorithm` counts
/// none, or none where it counts them.
fn misfit(name: &str, what: &str, algorithm: nqueens_count::algorithm::Algorithm) -> Error {
    let counts = algorithm.counts_classes();
    forged(
        name,
        format!(
            "{what} {} class counts, which a plan of algorithm {algorithm} {}",
            if counts { "has no" } else { "has" },
            if counts { "counts" } else { "does not count" }
        ),
    )
}

/// The checks of one shard file's records against its plan, as they are read
/// ([`PlanCheck::shard_head`]): each of its shard, with class counts where the plan counts
/// them; then ([`ShardCheck::finish`]) as many as its shard has where the file lists every
/// task, and their sums (with the planner's on shard 0) the file's.
#[derive(Debug)]
pub struct ShardCheck {
    name: String,
    /// The board: what bounds a task's counts ([`impossible`]).
    n: u32,
    assignment: Arc<Assignment>,
    shard: Shard,
    in_scope: usize,
    algorithm: nqueens_count::algorithm::Algorithm,
    sum: Option<Tally>,
    listed: usize,
}

impl ShardCheck {
    /// The file checked.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Checks record `d`, the next of the file (in increasing id order: the file's reader
    /// checks it).
    pub fn record(&mut self, d: &Done) -> Result<()> {
        let name = &self.name;
        if d.counts.classes.is_some() != self.algorithm.counts_classes() {
            return Err(misfit(name, &format!("task {}", d.id), self.algorithm));
        }
        if !self.assignment.contains(self.shard.index, d.id) {
            return Err(forged(
                name,
                format!(
                    "it lists tasks that are not those of shard {} of this plan",
                    self.shard
                ),
            ));
        }
        if let Some(why) = impossible(self.n, &d.counts) {
            return Err(forged(name, format!("task {} {why}", d.id)));
        }
        self.listed += 1;
        self.sum = self.sum.and_then(|s| s.checked_add(&d.counts));
        Ok(())
    }

    /// The checks once every record of `r` was given: a file that lists every task lists as
    /// many as its shard has, and the records' sums are the file's.
    pub fn finish(&self, r: &ShardResult) -> Result<()> {
        let name = &self.name;
        if !r.sparse() && self.listed != self.in_scope {
            return Err(forged(
                name,
                format!(
                    "it lists tasks that are not those of shard {} of this plan",
                    r.shard
                ),
            ));
        }
        let Some(sum) = self.sum else {
            return Err(forged(
                name,
                "its tasks' counts add up past 2^128".to_string(),
            ));
        };
        if !sum.same_counts(&r.counts) {
            return Err(forged(
                name,
                format!(
                    "its tasks' counts add up to {} solutions ({} nodes), but it says {} ({} \
                     nodes): its {} differ",
                    sum.total,
                    sum.nodes,
                    r.counts.total,
                    r.counts.nodes,
                    sum.differing(&r.counts)
                ),
            ));
        }
        Ok(())
    }
}

/// The checks of one checkpoint's records against its plan, as they are read
/// ([`PlanCheck::checkpoint_head`]): each in its scope, no more than its scope holds.
#[derive(Debug)]
pub struct CheckpointCheck {
    name: String,
    /// The board: what bounds a task's counts ([`impossible`]).
    n: u32,
    /// The shard it belongs to, with the plan's assignment of tasks to shards; `None` for a
    /// checkpoint of the whole plan.
    shard: Option<ShardScope>,
    in_scope: usize,
    listed: usize,
}

/// A shard and the plan's assignment of tasks to shards.
#[derive(Debug)]
struct ShardScope {
    assignment: Arc<Assignment>,
    shard: Shard,
}

impl CheckpointCheck {
    /// Checks record `d`, the next of the checkpoint.
    pub fn record(&mut self, d: &Done) -> Result<()> {
        if let Some(why) = impossible(self.n, &d.counts) {
            return Err(forged(&self.name, format!("task {} {why}", d.id)));
        }
        self.listed += 1;
        if self.listed > self.in_scope {
            return Err(forged(
                &self.name,
                format!(
                    "it lists more tasks than the {} in its scope",
                    self.in_scope
                ),
            ));
        }
        let outside = match &self.shard {
            Some(s) => !s.assignment.contains(s.shard.index, d.id),
            None => d.id as usize >= self.in_scope,
        };
        if outside {
            return Err(forged(
                &self.name,
                format!(
                    "it lists task {}, which is not one of {}",
                    d.id,
                    self.shard
                        .as_ref()
                        .map_or("the plan's".into(), |s| format!("shard {}'s", s.shard))
                ),
            ));
        }
        Ok(())
    }
}
