//! Shards: one count split across machines by task, and the parts merged back.
//!
//! `count N --shard I/K` counts only the tasks assigned to shard `I` of `K` (0-based, as Slurm
//! array and Kubernetes job indexes count). The assignment is fixed and balanced by expected
//! work:
//!
//! 1. each task's expected work is the method's estimate (for the backtracker, the nodes in its
//!    first [`ESTIMATE_ROWS`](nqueens_count::backtracking::backtrack::ESTIMATE_ROWS) free rows, counted
//!    exactly below the task's fixed queens and bounds);
//! 2. tasks are taken in decreasing expected work (ties: lower id first) and each goes to the
//!    shard with the least expected work so far (ties: lower shard index).
//!
//! A striped plan (the quadrant method's from N = 26 on, whose tasks run to hundreds of
//! millions, all estimated alike) makes no estimates: its ids are cut into stripes of a few
//! consecutive tasks ([`Counter::stripe`](nqueens_count::engine::Counter::stripe)), and stripe `j`
//! goes to shard `j mod K`. A shard lists its tasks without looking at the others'.
//!
//! Every shard's result names the plan's fingerprint, so [`crate::distributed::merge`] can check that all `K`
//! shards of one plan are present exactly once before it sums them.

use nqueens_board::error::Error;
use nqueens_count::engine::Work;
use serde::{Deserialize, Serialize};

/// Shard `index` of `count` (0 <= index < count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u32,
    /// How many shards the count is split into.
    pub count: u32,
}

/// The most shards per count is split into: far more than any cluster runs at once (Slurm's
/// own array limit is of this order), and small enough that the per-shard bookkeeping stays
/// small.
pub const MAX_SHARDS: u32 = 1_000_000;

impl Shard {
    /// Checks `0 <= index < count <= MAX_SHARDS` (a shard read from a file is checked here,
    /// since it was not parsed by [`std::str::FromStr`]).
    pub fn check(&self) -> Result<(), Error> {
        if self.count == 0 || self.count > MAX_SHARDS || self.index >= self.count {
            return Err(Error::Input(format!(
                "shard {self} is out of range: 0 <= I < K and 1 <= K <= {MAX_SHARDS}"
            )));
        }
        Ok(())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = Error;

    /// Parses `I/K` with `0 <= I < K`.
    fn from_str(s: &str) -> Result<Shard, Error> {
        let bad = || {
            Error::Usage(format!(
                "'{s}' is not a shard: write I/K with 0 <= I < K, e.g. 0/8"
            ))
        };
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let (i, k) = s.split_once('/').ok_or_else(bad)?;
        if !digits(i) || !digits(k) {
            return Err(bad());
        }
        let range = || {
            Error::Usage(format!(
                "shard {s} is out of range: give I/K with 0 <= I < K and 1 <= K <= {MAX_SHARDS}"
            ))
        };
        let index: u32 = i.parse().map_err(|_| range())?;
        let count: u32 = k.parse().map_err(|_| range())?;
        let shard = Shard { index, count };
        shard.check().map_err(|_| range())?;
        Ok(shard)
    }
}

/// The shard of every task, indexed by task id, given the tasks' expected work `est`: the
/// largest task first, each to the shard with the least work so far (ties to the lowest
/// index). Loads are summed in `u128` (estimates of a large board add up past `u64`), and the
/// least loaded shard is kept in a heap: O(tasks × log K).
pub fn assign(est: &[u64], count: u32) -> Vec<u32> {
    use std::cmp::Reverse;
    let mut order: Vec<usize> = (0..est.len()).collect();
    order.sort_by(|&a, &b| est[b].cmp(&est[a]).then(a.cmp(&b)));
    let mut heap: std::collections::BinaryHeap<Reverse<(u128, u32)>> =
        (0..count.max(1)).map(|s| Reverse((0, s))).collect();
    let mut out = vec![0u32; est.len()];
    for i in order {
        let Some(Reverse((load, s))) = heap.pop() else {
            break;
        };
        out[i] = s;
        heap.push(Reverse((load + u128::from(est[i]), s)));
    }
    out
}

/// The ids of the tasks in `shard`, given the tasks' expected work `est`.
pub fn task_ids(est: &[u64], shard: Shard) -> Vec<u32> {
    Assignment::new(&Work::Estimated(est.to_vec()), shard.count).ids(shard.index)
}

/// Which shard of `count` takes each task of a plan (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assignment {
    /// By expected work: the shard of every task, by id ([`assign`]), of `count`.
    ByWork {
        /// The shard of each task.
        shard_of: Vec<u32>,
        /// How many shards.
        count: u32,
        /// Every task's id, shard by shard, in increasing order within each: shard `i`'s are
        /// `by_shard[starts[i]..starts[i + 1]]`, so that a shard's ids cost its length, not a
        /// walk of the plan (merge and status read K files against one assignment).
        by_shard: Vec<u32>,
        /// Where each shard's ids start in `by_shard`, and the end (`count + 1` entries).
        starts: Vec<u32>,
    },
    /// Stripe `j` of `stripe` consecutive ids (of `tasks`) to shard `j mod count`.
    Striped {
        /// How many tasks the plan has.
        tasks: usize,
        /// Ids per stripe.
        stripe: u64,
        /// How many shards.
        count: u32,
    },
}

impl Assignment {
    /// The assignment of a plan whose tasks' work `work` says to `count` shards.
    pub fn new(work: &Work, count: u32) -> Assignment {
        match work {
            Work::Estimated(est) => Assignment::by_work(assign(est, count), count),
            &Work::Striped { tasks, stripe } => Assignment::Striped {
                tasks,
                stripe: stripe.max(1),
                count: count.max(1),
            },
        }
    }

    /// The assignment that gives task `i` to shard `shard_of[i]` (each below `count`), with
    /// its index of every shard's ids (a counting sort: O(tasks + count)).
    pub fn by_work(shard_of: Vec<u32>, count: u32) -> Assignment {
        let mut starts = vec![0u32; count as usize + 1];
        for &s in &shard_of {
            starts[s as usize + 1] += 1;
        }
        for i in 0..count as usize {
            starts[i + 1] += starts[i];
        }
        let mut next = starts.clone();
        let mut by_shard = vec![0u32; shard_of.len()];
        for (id, &s) in shard_of.iter().enumerate() {
            by_shard[next[s as usize] as usize] = id as u32;
            next[s as usize] += 1;
        }
        Assignment::ByWork {
            shard_of,
            count,
            by_shard,
            starts,
        }
    }

    /// The ids of the tasks of shard `index`, in increasing order.
    pub fn ids(&self, index: u32) -> Vec<u32> {
        match *self {
            Assignment::ByWork {
                ref by_shard,
                ref starts,
                ..
            } => {
                let i = index as usize;
                match (starts.get(i), starts.get(i + 1)) {
                    (Some(&a), Some(&b)) => by_shard[a as usize..b as usize].to_vec(),
                    _ => Vec::new(),
                }
            }
            Assignment::Striped { .. } => (0..self.len(index))
                .map(|i| self.nth(index, i).expect("below the shard's length"))
                .collect(),
        }
    }

    /// The `i`-th task id (from 0, in increasing order) of shard `index`, found by arithmetic
    /// in a striped plan; `None` past the shard's last.
    pub fn nth(&self, index: u32, i: usize) -> Option<u32> {
        match *self {
            Assignment::ByWork {
                ref by_shard,
                ref starts,
                ..
            } => {
                let (a, b) = (
                    *starts.get(index as usize)?,
                    *starts.get(index as usize + 1)?,
                );
                let at = a as usize + i;
                (at < b as usize).then(|| by_shard[at])
            }
            Assignment::Striped {
                tasks,
                stripe,
                count,
            } => {
                let (i, k) = (i as u64, u64::from(count));
                let start = (u64::from(index) + i / stripe * k) * stripe;
                let id = start + i % stripe;
                (index < count && id < tasks as u64).then_some(id as u32)
            }
        }
    }

    /// Whether task `id` is one of shard `index`'s (arithmetic in a striped plan: no list).
    pub fn contains(&self, index: u32, id: u32) -> bool {
        match *self {
            Assignment::ByWork { ref shard_of, .. } => shard_of.get(id as usize) == Some(&index),
            Assignment::Striped {
                tasks,
                stripe,
                count,
            } => {
                (id as usize) < tasks
                    && u64::from(id) / stripe % u64::from(count) == u64::from(index)
            }
        }
    }

    /// How many tasks shard `index` holds ([`Assignment::ids`]' length, counted without
    /// listing them).
    pub fn len(&self, index: u32) -> usize {
        match *self {
            Assignment::ByWork { ref starts, .. } => {
                match (starts.get(index as usize), starts.get(index as usize + 1)) {
                    (Some(&a), Some(&b)) => (b - a) as usize,
                    _ => 0,
                }
            }
            Assignment::Striped {
                tasks,
                stripe,
                count,
            } => {
                if index >= count {
                    return 0;
                }
                let (tasks, k) = (tasks as u64, u64::from(count));
                let stripes = tasks.div_ceil(stripe);
                let mine = (stripes + k - 1 - u64::from(index).min(stripes)) / k;
                // Every stripe of shard `index` is whole but perhaps the plan's last one.
                let last = stripes.saturating_sub(1);
                let short = if stripes > 0 && last % k == u64::from(index) {
                    stripe * stripes - tasks
                } else {
                    0
                };
                (mine * stripe - short) as usize
            }
        }
    }

    /// The expected work of each shard (by the estimates in `work`).
    pub fn loads(&self, work: &Work) -> Vec<f64> {
        match *self {
            Assignment::ByWork {
                ref shard_of,
                count,
                ..
            } => {
                let mut load = vec![0f64; count as usize];
                for (i, &s) in shard_of.iter().enumerate() {
                    load[s as usize] += work.at(i as u32) as f64;
                }
                load
            }
            Assignment::Striped {
                tasks,
                stripe,
                count,
            } => {
                let mut load = vec![0f64; count as usize];
                let (tasks, k) = (tasks as u64, u64::from(count));
                for j in 0..tasks.div_ceil(stripe) {
                    let len = stripe.min(tasks - j * stripe);
                    load[(j % k) as usize] += len as f64;
                }
                load
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens_count::backtracking::{backtrack::Backtrack, plan::Plan};
    use nqueens_count::engine::Counter;
    use nqueens_count::Algorithm;
    use nqueens_count::Kernel;

    /// Stripes: every task in exactly one shard, whole stripes, each shard's ids found
    /// without the others', loads that add up to the tasks.
    #[test]
    fn stripes_cover_every_task_once() {
        for (tasks, stripe, k) in [(1usize, 1u64, 1u32), (10, 3, 4), (100, 7, 3), (5, 2, 9)] {
            let work = Work::Striped { tasks, stripe };
            let a = Assignment::new(&work, k);
            let mut all: Vec<u32> = (0..k).flat_map(|i| a.ids(i)).collect();
            all.sort_unstable();
            assert_eq!(
                all,
                (0..tasks as u32).collect::<Vec<_>>(),
                "{tasks} {stripe} {k}"
            );
            for i in 0..k {
                for id in a.ids(i) {
                    assert_eq!(u64::from(id) / stripe % u64::from(k), u64::from(i));
                }
            }
            for i in 0..k {
                assert_eq!(a.len(i), a.ids(i).len(), "{tasks} {stripe} {k} shard {i}");
            }
            let loads = a.loads(&work);
            assert_eq!(loads.len(), k as usize);
            assert_eq!(loads.iter().sum::<f64>(), tasks as f64);
        }
        // By work, through the same interface: what task_ids says.
        let est = vec![5, 1, 4, 4, 2];
        let a = Assignment::new(&Work::Estimated(est.clone()), 2);
        for i in 0..2 {
            assert_eq!(a.ids(i), task_ids(&est, Shard { index: i, count: 2 }));
        }
        assert_eq!(a.loads(&Work::Estimated(est)), vec![8.0, 8.0]);
    }

    /// A shard's i-th id, its length and whether it holds an id, found without its list (by
    /// arithmetic in stripes, by the index by work), agree with the list, for every shard,
    /// past its end and past the plan's.
    #[test]
    fn membership_and_nth_agree_with_the_lists() {
        let est: Vec<u64> = (0..97u64).map(|i| (i * 31) % 11 + 1).collect();
        let mut cases: Vec<(Assignment, usize)> =
            vec![(Assignment::new(&Work::Estimated(est), 6), 97)];
        for (tasks, stripe, k) in [(1usize, 1u64, 1u32), (10, 3, 4), (100, 7, 3), (5, 2, 9)] {
            cases.push((Assignment::new(&Work::Striped { tasks, stripe }, k), tasks));
        }
        for (a, tasks) in &cases {
            let k = match a {
                Assignment::ByWork { count, .. } | Assignment::Striped { count, .. } => *count,
            };
            for index in 0..k + 1 {
                let ids = a.ids(index);
                assert_eq!(a.len(index), ids.len(), "{a:?} {index}");
                for (i, &id) in ids.iter().enumerate() {
                    assert_eq!(a.nth(index, i), Some(id), "{a:?} {index} {i}");
                }
                assert_eq!(a.nth(index, ids.len()), None, "{a:?} {index}");
                for id in 0..*tasks as u32 + 3 {
                    assert_eq!(
                        a.contains(index, id),
                        ids.contains(&id),
                        "{a:?} {index} {id}"
                    );
                }
            }
        }
    }

    #[test]
    fn shards_parse() {
        assert_eq!("0/8".parse::<Shard>(), Ok(Shard { index: 0, count: 8 }));
        assert!("8/8".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert!("0/4000000000".parse::<Shard>().is_err());
        assert!(" 0/8".parse::<Shard>().is_err());
        assert!("+0/8".parse::<Shard>().is_err());
    }

    #[test]
    fn assignment_covers_every_task_once_and_is_stable() {
        let plan = Plan::new(12, Algorithm::Symmetric, 2).unwrap();
        let est = Backtrack::new(plan.clone(), Kernel::Wide).estimates();
        for k in [1, 3, 7] {
            let a = assign(&est, k);
            assert_eq!(a, assign(&est, k));
            let mut all: Vec<u32> = (0..k)
                .flat_map(|i| task_ids(&est, Shard { index: i, count: k }))
                .collect();
            all.sort_unstable();
            assert_eq!(all, (0..plan.tasks().len() as u32).collect::<Vec<_>>());
        }
    }

    /// The heap gives what the plain scan gave (least load, lowest index), and loads past
    /// `u64` do not wrap into small ones.
    #[test]
    fn assignment_is_the_greedy_one_and_never_wraps() {
        let est: Vec<u64> = (0..500u64).map(|i| (i * 7919) % 1000 + 1).collect();
        for k in [1u32, 2, 5, 64] {
            let mut order: Vec<usize> = (0..est.len()).collect();
            order.sort_by(|&a, &b| est[b].cmp(&est[a]).then(a.cmp(&b)));
            let mut load = vec![0u64; k as usize];
            let mut want = vec![0u32; est.len()];
            for i in order {
                let s = (0..k as usize).min_by_key(|&s| (load[s], s)).unwrap();
                load[s] += est[i];
                want[i] = s as u32;
            }
            assert_eq!(assign(&est, k), want, "k={k}");
        }
        // Three huge tasks and a small one on two shards: the small one goes where the load
        // is smaller, which a wrapped u64 sum would misjudge.
        let big = u64::MAX / 2 + 1;
        assert_eq!(assign(&[big, big, big, 1], 2), vec![0, 1, 0, 1]);
    }
}
