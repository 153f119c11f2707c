//! The checks every reader of a run's files makes, merge, status and audit alike: what one
//! file shows by itself (its seal, its sums against its classes, its fields in range:
//! [`super::result::parse`], [`super::checkpoint::Checkpoint::parse`]) and what it must agree
//! with in its plan ([`Against`]): the plan itself (every field of its id), its shard's task
//! ids (the plan's assignment), and its sums against its tasks.

use super::checkpoint::Checkpoint;
use super::result::ShardResult;
use super::shard::{Assignment, Shard};
use crate::count::job::Identity;
use crate::count::options::Options;
use crate::count::plan_id::PlanId;
use crate::count::tally::Tally;
use crate::error::{Error, Result};
use std::collections::HashMap;

/// A plan, rebuilt from a file's id, to check the files of its runs against.
#[derive(Debug)]
pub struct Against {
    identity: Identity,
    /// Its assignments to shards, by the number of shards (made when first asked for).
    assignments: HashMap<u32, Assignment>,
}

/// The error of a file that fails a check.
fn forged(name: &str, what: String) -> Error {
    Error::Input(format!(
        "{name}: {what}: it was forged or damaged; count it again"
    ))
}

impl Against {
    /// The plan `id` names, rebuilt as `opts` make it (their quadrant settings), its
    /// fingerprint checked; `name` is the file that named it.
    pub fn new(id: &PlanId, opts: &Options, name: &str) -> Result<Against> {
        let identity = Identity::of(id, opts).map_err(|e| Error::Input(format!("{name}: {e}")))?;
        Ok(Against {
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
    fn assignment(&mut self, count: u32) -> &Assignment {
        let work = &self.identity.work;
        self.assignments
            .entry(count)
            .or_insert_with(|| Assignment::new(work, count))
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
        let most = super::most_tasks_a_file();
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
        self.classes_fit(name, r)?;
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
        // Ids in increasing order (the file's parse checked), each of this shard, and in a
        // file that lists every task as many as the shard has: its tasks exactly.
        let index = r.shard.index;
        let listed_all = r.sparse() || r.done.len() == in_scope;
        let a = self.assignment(r.shard.count);
        let mine = r.done.iter().all(|d| a.contains(index, d.id));
        if !listed_all || !mine {
            return Err(forged(
                name,
                format!(
                    "it lists tasks that are not those of shard {} of this plan",
                    r.shard
                ),
            ));
        }
        let mut sum = Some(Tally::default());
        for d in &r.done {
            sum = sum.and_then(|s| s.checked_add(&d.counts));
        }
        if r.shard.index == 0 {
            sum = sum.and_then(|s| s.checked_add(&self.identity.planned));
        }
        let Some(sum) = sum else {
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

    /// Class counts where the plan counts them (the symmetric backtracker and the quadrant
    /// method), and none where it does not: a file's records and sums that say otherwise
    /// were made up (a made-up unique count, or a unique count left out to skip its check).
    fn classes_fit(&self, name: &str, r: &ShardResult) -> Result<()> {
        let algorithm = self.identity.id.algorithm;
        let counts = algorithm.counts_classes();
        let bad = r
            .done
            .iter()
            .find(|d| d.counts.classes.is_some() != counts)
            .map(|d| format!("task {}", d.id))
            .or_else(|| (r.counts.classes.is_some() && !counts).then(|| "its sums".into()));
        match bad {
            Some(what) => Err(forged(
                name,
                format!(
                    "{what} {} class counts, which a plan of algorithm {algorithm} {}",
                    if counts { "has no" } else { "has" },
                    if counts { "counts" } else { "does not count" }
                ),
            )),
            None => Ok(()),
        }
    }

    /// The `i`-th task id (from 0, in increasing order) of `shard` in this plan, found
    /// without listing the shard (by arithmetic in a striped plan).
    pub fn nth_id(&mut self, shard: Shard, i: usize) -> Option<u32> {
        self.assignment(shard.count).nth(shard.index, i)
    }

    /// Checks checkpoint `c` (file `name`): its plan, its scope (its shard's tasks, or the
    /// plan's), and that every task it lists is in that scope.
    pub fn checkpoint(&mut self, name: &str, c: &Checkpoint) -> Result<()> {
        self.same_plan(name, &c.plan)?;
        // What the header says is checked before any list is made (a forged header of a
        // whole N = 28 plan would otherwise cost a list of half a billion ids).
        let in_scope = self.scope(name, c.shard)?;
        if c.tasks != in_scope || c.done.len() > in_scope {
            return Err(forged(
                name,
                format!(
                    "it says {} tasks in scope and lists {}, but {} has {}",
                    c.tasks,
                    c.done.len(),
                    c.shard.map_or("the plan".into(), |s| format!("shard {s}")),
                    in_scope
                ),
            ));
        }
        let shard = c.shard;
        let assignment = shard.map(|s| self.assignment(s.count));
        let outside = |id: u32| match (shard, assignment) {
            (Some(s), Some(a)) => !a.contains(s.index, id),
            _ => id as usize >= in_scope,
        };
        if let Some(d) = c.done.iter().find(|d| outside(d.id)) {
            return Err(forged(
                name,
                format!(
                    "it lists task {}, which is not one of {}",
                    d.id,
                    c.shard
                        .map_or("the plan's".into(), |s| format!("shard {s}'s"))
                ),
            ));
        }
        Ok(())
    }
}
