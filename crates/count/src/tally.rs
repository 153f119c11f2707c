//! What counting finds: per task and summed, in `u128`.

use serde::{Deserialize, Serialize};
use std::ops::AddAssign;

/// What the symmetric count knows about classes (orbits under the 8 symmetries of the square),
/// summed over tasks. Written in checkpoint and shard files as the array `[c1, c8, quarters,
/// sym90, sym180]`.
///
/// Every solution of an N×N board with N > 1 has an orbit of 2 (it is symmetric under a
/// quarter turn), 4 (under a half turn only) or 8 (no symmetry); the lone 1×1 board has an
/// orbit of 1. A task whose border is symmetric under `t` quarter turns finds each class of 8
/// `t` times and counts `4/t` quarters per solution; it finds a symmetric class fewer times,
/// so the whole plan's quarters fall short by 2 per class of 4 and 1 per class of 2, which the
/// rotational task's counts restore (see [`super::backtracking::plan`]). The split is exact only for a whole
/// plan: see [`Classes::orbits`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[u128; 5]", into = "[u128; 5]")]
pub struct Classes {
    /// Classes of one solution (only the 1×1 board).
    pub c1: u128,
    /// Classes of eight found once each (tasks whose border no turn leaves as it is).
    pub c8: u128,
    /// Quarters of a class found in tasks whose border a turn leaves as it is.
    pub quarters: u128,
    /// Solutions symmetric under a quarter turn (boards of 4 and more).
    pub sym90: u128,
    /// Solutions symmetric under a half turn, the quarter-turn ones included (boards of 4
    /// and more).
    pub sym180: u128,
}

impl From<[u128; 5]> for Classes {
    fn from([c1, c8, quarters, sym90, sym180]: [u128; 5]) -> Classes {
        Classes {
            c1,
            c8,
            quarters,
            sym90,
            sym180,
        }
    }
}

impl From<Classes> for [u128; 5] {
    fn from(c: Classes) -> [u128; 5] {
        [c.c1, c.c8, c.quarters, c.sym90, c.sym180]
    }
}

impl Classes {
    /// The number of classes of 1, 2, 4 and 8 solutions. Exact for a whole plan's sum;
    /// for part of one the split of the quarters is only approximate.
    pub fn orbits(&self) -> [u128; 4] {
        let c2 = self.sym90 / 2;
        let c4 = self.sym180.saturating_sub(self.sym90) / 4;
        let c8 = self.c8 + self.quarters.saturating_sub(2 * c4 + c2) / 4;
        [self.c1, c2, c4, c8]
    }

    /// The number of classes: A002562's a(n) when summed over a whole board.
    pub fn unique(&self) -> u128 {
        self.orbits().iter().sum()
    }
}

impl AddAssign for Classes {
    fn add_assign(&mut self, o: Classes) {
        // Saturating: real counts are far from 2^128; forged ones must not wrap into
        // plausible ones (nor panic).
        self.c1 = self.c1.saturating_add(o.c1);
        self.c8 = self.c8.saturating_add(o.c8);
        self.quarters = self.quarters.saturating_add(o.quarters);
        self.sym90 = self.sym90.saturating_add(o.sym90);
        self.sym180 = self.sym180.saturating_add(o.sym180);
    }
}

/// What counting one task (or a sum of tasks) found. Written in checkpoint and shard files as
/// `{"total": …, "classes": [...] or null, "nodes": …}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Solutions, each counted with its task's weight: the contribution to A000170.
    pub total: u128,
    /// The split by symmetry class, when the algorithm knows it (`symmetric` only).
    pub classes: Option<Classes>,
    /// Nodes visited: queens placed.
    pub nodes: u128,
}

impl Tally {
    /// The number of solutions up to symmetry, when known.
    pub fn unique(&self) -> Option<u128> {
        self.classes.map(|c| c.unique())
    }
}

impl Tally {
    /// Whether the counts agree with each other as every task's tally and every sum of them
    /// must. With classes: `total = c1 + 8·c8 + 2·quarters` (a class of 8 found once counts 8
    /// solutions; a quarter of a class counts 2); the quarter-turn symmetric solutions are
    /// among the half-turn ones and come in pairs (a class of 2), and the other half-turn
    /// symmetric ones in fours (a class of 4): `sym90 <= sym180`, `sym90` even, `sym180 -
    /// sym90` a multiple of 4. Always true without classes. A file whose counts fail this was
    /// edited by hand or damaged.
    pub fn consistent(&self) -> bool {
        let Some(c) = self.classes else {
            return true;
        };
        let sum =
            c.c8.checked_mul(8)
                .zip(c.quarters.checked_mul(2))
                .and_then(|(a, b)| a.checked_add(b))
                .and_then(|s| s.checked_add(c.c1));
        sum == Some(self.total)
            && c.sym90 <= c.sym180
            && c.sym90 % 2 == 0
            && (c.sym180 - c.sym90) % 4 == 0
    }

    /// Whether the counts of a whole board (every task summed) agree as Burnside's lemma says
    /// they must, past [`Tally::consistent`]: `total + sym180 + 2·sym90` is 8 times the
    /// number of classes, and the quarters found in symmetric borders cover the classes of 2
    /// and 4 with a multiple of 4 left (whole classes of 8).
    pub fn whole_consistent(&self) -> bool {
        let Some(c) = self.classes else {
            return true;
        };
        if c.c1 > 0 {
            // The 1×1 board: its one solution is fixed by every symmetry, reflections too.
            return self.consistent();
        }
        let burnside = self
            .total
            .checked_add(c.sym180)
            .and_then(|s| s.checked_add(c.sym90.checked_mul(2)?));
        let (c2, c4) = (c.sym90 / 2, (c.sym180 - c.sym90.min(c.sym180)) / 4);
        let short = c4.checked_mul(2).and_then(|x| x.checked_add(c2));
        self.consistent()
            && burnside.is_some_and(|b| b % 8 == 0)
            && short.is_some_and(|s| s <= c.quarters && (c.quarters - s) % 4 == 0)
    }
}

impl Tally {
    /// Whether every count is zero: a task that found nothing (and visited nothing). Shard
    /// files of version 5 leave such tasks out.
    pub fn is_zero(&self) -> bool {
        self.total == 0
            && self.nodes == 0
            && self.classes.is_none_or(|c| <[u128; 5]>::from(c) == [0; 5])
    }

    /// Whether `self` and `o` count the same, class counts left out taken as zeros (a sum of
    /// no task has none; a shard of no task, or of tasks that found nothing, writes zeros).
    pub fn same_counts(&self, o: &Tally) -> bool {
        (self.total, self.nodes, self.classes_or_zeros())
            == (o.total, o.nodes, o.classes_or_zeros())
    }

    /// The class counts, zeros where there are none.
    fn classes_or_zeros(&self) -> [u128; 5] {
        self.classes.map_or([0; 5], <[u128; 5]>::from)
    }

    /// Which of the counts differ between `self` and `o` (`total`, `classes`, `nodes`),
    /// separated by commas.
    pub fn differing(&self, o: &Tally) -> String {
        [
            ("total", self.total != o.total),
            ("classes", self.classes_or_zeros() != o.classes_or_zeros()),
            ("nodes", self.nodes != o.nodes),
        ]
        .iter()
        .filter(|(_, d)| *d)
        .map(|(w, _)| *w)
        .collect::<Vec<_>>()
        .join(", ")
    }

    /// `self + o`, or `None` where a count would pass `u128` (only forged files get there:
    /// a sum that saturated would pass for a count).
    pub fn checked_add(&self, o: &Tally) -> Option<Tally> {
        let classes = match (self.classes, o.classes) {
            (Some(a), Some(b)) => {
                let (a, b): ([u128; 5], [u128; 5]) = (a.into(), b.into());
                let mut c = [0u128; 5];
                for i in 0..5 {
                    c[i] = a[i].checked_add(b[i])?;
                }
                Some(Classes::from(c))
            }
            (a, None) => a,
            (None, b) => b,
        };
        Some(Tally {
            total: self.total.checked_add(o.total)?,
            classes,
            nodes: self.nodes.checked_add(o.nodes)?,
        })
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.total = self.total.saturating_add(o.total);
        self.nodes = self.nodes.saturating_add(o.nodes);
        self.classes = match (self.classes, o.classes) {
            (Some(mut a), Some(b)) => {
                a += b;
                Some(a)
            }
            (a, None) => a,
            (None, b) => b,
        };
    }
}

impl std::iter::Sum for Tally {
    fn sum<I: Iterator<Item = Tally>>(it: I) -> Tally {
        let mut s = Tally::default();
        for t in it {
            s += t;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_json_keeps_the_file_format() {
        let t = Tally {
            total: 8,
            classes: Some(Classes {
                c8: 1,
                ..Classes::default()
            }),
            nodes: 123,
        };
        let text = serde_json::to_string(&t).unwrap();
        assert_eq!(text, r#"{"total":8,"classes":[0,1,0,0,0],"nodes":123}"#);
        assert_eq!(serde_json::from_str::<Tally>(&text).unwrap(), t);
        let sum: Tally = [t, t].into_iter().sum();
        assert_eq!((sum.total, sum.unique()), (16, Some(2)));
    }
}
