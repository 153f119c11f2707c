//! The quadrant method: a count that joins half-boards instead of backtracking row by row.
//!
//! Every row holds one queen, east or west of the middle; every column one queen, north or
//! south. A task chooses the set `E` of rows whose queen is east (`|E| = N/2`). For that
//! choice, the east half-boards are joined from placements of the north-east and south-east
//! quarters (both read from one [`quarter::Quarter`] table, enumerated once): a north and a
//! south quarter fit when their columns split the half's columns and their diagonals do not
//! meet. The west half-boards are joined the same way. An east and a west half-board make a
//! solution exactly when their diagonals are disjoint, so the task's count is the number of
//! (east, west) pairs whose diagonal sets do not meet ([`matcher::Matcher`]).
//!
//! Symmetry: turning the board upside down maps the east rows `E` to their mirror image, and
//! the left-right mirror maps them to the west rows; all four images of `E` have the same
//! count. Only the smallest of them is a task, weighted by how many distinct images it has
//! (2 or 4: `E` is never its own complement). The unique count follows by Burnside's lemma
//! from the half- and quarter-turn symmetric counts of the rotational task, as in the
//! symmetric backtracker.
//!
//! Coordinates: global diagonals `D1 = r + c` and `D2 = r - c + N - 1`. A quadrant whose
//! top-left square is `(R0, C0)` shifts a quarter's local `d1` by `R0 + C0` and its `d2` by
//! `R0 - C0 + N - h`. East and west half-boards can meet only on the `2h - 1` diagonals of
//! each family from `N - h` on: the match key holds those bits of both families.
//!
//! The method applies to even boards from 4 to 2 × [`quarter::MAX_H`]; `nodes` counts the
//! half-boards it built (east and west), a measure of its work, not queens placed.

pub mod matcher;
pub mod quarter;

use self::matcher::Matcher;
use self::quarter::Quarter;
use super::engine::Counter;
use super::plan::{Algorithm, Fnv, PlanId};
use super::rotational::count_rotational;
use super::tally::{Classes, Tally};
use crate::error::{Error, Result};
use std::sync::Arc;

/// One task of the quadrant method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QTask {
    /// The rows whose queen is east, and how many images of that choice it stands for.
    Rows { east: u32, weight: u32 },
    /// The half- and quarter-turn symmetric solutions, for the unique count.
    Rotational,
}

/// A plan of the quadrant method and its task counter.
#[derive(Debug, Clone)]
pub struct Quadrants {
    n: u32,
    h: u32,
    quarter: Arc<Quarter>,
    tasks: Vec<QTask>,
}

/// Whether the quadrant method counts an `n` board, and if not, why.
pub fn applies(n: u32) -> std::result::Result<(), String> {
    if n % 2 == 1 {
        return Err(format!(
            "the quadrant method counts even boards only so far (N = {n} is odd)"
        ));
    }
    if !(4..=2 * quarter::MAX_H).contains(&n) {
        return Err(format!(
            "the quadrant method counts boards from 4 to {} (N = {n})",
            2 * quarter::MAX_H
        ));
    }
    Ok(())
}

impl Quadrants {
    /// Plans the count of an `n` board (even, 4..=22) and builds its quarter table.
    pub fn new(n: u32) -> Result<Quadrants> {
        applies(n).map_err(Error::Usage)?;
        let h = n / 2;
        let mut tasks = Vec::new();
        let all = (1u32 << n) - 1;
        let mirror = |rows: u32| rows.reverse_bits() >> (32 - n);
        let mut east: u32 = (1 << h) - 1;
        // Every set of h rows, in increasing order (Gosper's hack).
        while east <= all {
            let images = [east, mirror(east), !east & all, mirror(!east & all)];
            if images.iter().all(|&i| east <= i) {
                let mut distinct = images.to_vec();
                distinct.sort_unstable();
                distinct.dedup();
                tasks.push(QTask::Rows {
                    east,
                    weight: distinct.len() as u32,
                });
            }
            let low = east & east.wrapping_neg();
            let ripple = east + low;
            east = (((ripple ^ east) >> 2) / low) | ripple;
        }
        tasks.push(QTask::Rotational);
        Ok(Quadrants {
            n,
            h,
            quarter: Arc::new(Quarter::new(h)),
            tasks,
        })
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// What identifies this plan in checkpoint and shard files (split depth 0: the quadrant
    /// method has none).
    pub fn id(&self) -> PlanId {
        let mut h = Fnv::new();
        h.bytes(b"nqueens-quadrants-v1");
        h.bytes(&self.n.to_le_bytes());
        for t in &self.tasks {
            match *t {
                QTask::Rows { east, weight } => {
                    h.bytes(&east.to_le_bytes());
                    h.bytes(&weight.to_le_bytes());
                }
                QTask::Rotational => h.bytes(b"r"),
            }
        }
        PlanId {
            n: self.n,
            algorithm: Algorithm::Quadrants,
            split_depth: 0,
            placed: Vec::new(),
            fingerprint: h.hex(),
        }
    }

    /// Memory held by the plan (the quarter table), in bytes.
    pub fn bytes(&self) -> usize {
        self.quarter.bytes()
    }

    /// The match keys of the half-boards whose rows are `rows` (a set of `h` global rows),
    /// east of the middle or west.
    fn halves(&self, rows: u32, east: bool, out: &mut Vec<u64>) {
        let (n, h) = (self.n, self.h);
        let full = (1u32 << h) - 1;
        let (north, south) = (rows & full, rows >> (n - h) & full);
        let c0 = if east { n - h } else { 0 };
        let (r_north, r_south) = (0, n - h);
        // Shifts of d1 and d2 into global diagonals, per quadrant.
        let s1 = |r0: u32| r0 + c0;
        let s2 = |r0: u32| r0 + n - h - c0;
        let lo = n - h;
        let mask = (1u64 << (2 * h - 1)) - 1;
        let k = north.count_ones();
        for cols in 0..=full {
            if cols.count_ones() != k {
                continue;
            }
            let top = self.quarter.get(north, cols);
            let bottom = self.quarter.get(south, full & !cols);
            if top.is_empty() || bottom.is_empty() {
                continue;
            }
            for &[a1, a2] in top {
                let (n1, n2) = ((a1 as u64) << s1(r_north), (a2 as u64) << s2(r_north));
                for &[b1, b2] in bottom {
                    let (m1, m2) = ((b1 as u64) << s1(r_south), (b2 as u64) << s2(r_south));
                    if n1 & m1 != 0 || n2 & m2 != 0 {
                        continue;
                    }
                    let (d1, d2) = (n1 | m1, n2 | m2);
                    out.push((d1 >> lo & mask) | (d2 >> lo & mask) << (2 * h - 1));
                }
            }
        }
    }

    /// The count of the solutions whose east rows are `east`, and the half-boards built.
    pub fn count_rows(&self, east: u32) -> (u64, u64) {
        let all = (1u32 << self.n) - 1;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        self.halves(east, true, &mut a);
        self.halves(!east & all, false, &mut b);
        let built = (a.len() + b.len()) as u64;
        // Store the smaller side: building the tables costs more per pattern than a query.
        if a.len() > b.len() {
            std::mem::swap(&mut a, &mut b);
        }
        let m = Matcher::new(&a, 2 * (2 * self.h - 1));
        (m.count(&b), built)
    }

    /// An upper bound of a task's half-board pairs: its expected work.
    fn pairs_bound(&self, east: u32) -> u64 {
        let all = (1u32 << self.n) - 1;
        let side = |rows: u32| {
            let (h, full) = (self.h, (1u32 << self.h) - 1);
            let (north, south) = (rows & full, rows >> (self.n - h) & full);
            (0..=full)
                .filter(|c| c.count_ones() == north.count_ones())
                .map(|c| {
                    (self.quarter.len_of(north, c) * self.quarter.len_of(south, full & !c)) as u64
                })
                .sum::<u64>()
        };
        side(east).saturating_mul(side(!east & all)) / 256 + 1
    }
}

impl Counter for Quadrants {
    fn tasks(&self) -> usize {
        self.tasks.len()
    }

    fn count(&self, ids: &[u32]) -> Vec<Tally> {
        ids.iter()
            .map(|&i| match self.tasks[i as usize] {
                QTask::Rows { east, weight } => {
                    let (found, built) = self.count_rows(east);
                    let total = found as u128 * weight as u128;
                    Tally {
                        total,
                        // Burnside: unique = (total + 2 sym90 + sym180) / 8, as the orbit
                        // split of `Classes` computes it from quarters = total / 2 (weights
                        // are 2 or 4, so it is whole).
                        classes: Some(Classes {
                            quarters: total / 2,
                            ..Classes::default()
                        }),
                        nodes: built as u128,
                    }
                }
                QTask::Rotational => {
                    let r = count_rotational(self.n);
                    Tally {
                        total: 0,
                        classes: Some(Classes {
                            sym90: r.sym90 as u128,
                            sym180: r.sym180 as u128,
                            ..Classes::default()
                        }),
                        nodes: 0,
                    }
                }
            })
            .collect()
    }

    fn estimates(&self) -> Vec<u64> {
        use rayon::prelude::*;
        self.tasks
            .par_iter()
            .map(|t| match *t {
                QTask::Rows { east, .. } => self.pairs_bound(east),
                QTask::Rotational => 1,
            })
            .collect()
    }

    fn planned(&self) -> Tally {
        Tally::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::oeis::Sequence;

    #[test]
    fn counts_every_even_board_it_accepts_up_to_14() {
        for n in (4..=14u32).step_by(2) {
            let q = Quadrants::new(n).unwrap();
            let all: Vec<u32> = (0..q.tasks() as u32).collect();
            let t: Tally = q.count(&all).into_iter().sum();
            assert_eq!(Some(t.total), Sequence::A000170.known(n), "total n={n}");
            assert_eq!(t.unique(), Sequence::A002562.known(n), "unique n={n}");
        }
        assert!(Quadrants::new(9).is_err());
        assert!(Quadrants::new(2).is_err());
        assert!(Quadrants::new(24).is_err());
    }
}
