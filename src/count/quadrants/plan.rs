//! The quadrant method's plan: the middle configurations of an odd board, the row sets (which
//! rows hold their queen east of the middle) with their symmetry weights, and the tasks that
//! group them. A plan depends on `N` alone.
//!
//! Symmetry: turning the board upside down maps the east rows `E` to their mirror image, and
//! the left-right mirror maps them to the west rows; all four images of `E` have the same
//! count. Only the smallest of them is a row set, weighted by how many distinct images it has
//! (2 or 4: `E` is never its own complement). On an odd board the middle configurations are
//! taken one per class under the 8 symmetries of the square (which keep the middle cross).

use super::super::plan::Fnv;

/// The queens of the middle row and the middle column of an odd board, placed before the
/// quadrants are joined (an even board has no middle: one empty `Middle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Middle {
    /// The fixed queens `(row, col)`: none, the centre, or one on the middle row and one on
    /// the middle column.
    pub queens: [(u32, u32); 2],
    pub len: u8,
    /// Their diagonals, global (`r + c` and `r - c + N - 1`).
    pub d1: u64,
    pub d2: u64,
    /// Global rows left for the quadrants.
    pub rows: u32,
    /// Local columns (`0..h`) left in the west and the east half.
    pub west: u32,
    pub east: u32,
}

/// One choice of east rows under one middle configuration: the unit the method counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RowSet {
    /// The middle configuration (an index).
    pub middle: u16,
    /// The rows whose queen is east.
    pub east: u32,
    /// How many images of this choice it stands for.
    pub weight: u32,
    /// On an even board (long diagonals), the weight of the solutions with no queen on either
    /// long diagonal (see [`super::Quadrants`]); 1 elsewhere.
    pub open: u32,
}

/// The most tasks a plan has: row sets are grouped into tasks of consecutive ones, so that
/// checkpoints and shards stay small however many row sets there are.
const MAX_TASKS: usize = 32_768;

/// One task of the quadrant method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum QTask {
    /// The row sets `start..start + len`.
    Rows { start: u32, len: u32 },
    /// The half- and quarter-turn symmetric solutions, for the unique count.
    Rotational,
}

/// The plan of an `n` board: its middle configurations, row sets and tasks.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    pub n: u32,
    /// The quarters' width: `N / 2`.
    pub h: u32,
    /// First row of the south quadrants and first column of the east ones: `N - h`.
    pub far: u32,
    pub middles: Vec<Middle>,
    pub rowsets: Vec<RowSet>,
    pub tasks: Vec<QTask>,
}

/// The next larger number with as many bits set as `x` (Gosper's hack; `x` not 0).
fn next_subset(x: u64) -> u64 {
    let low = x & x.wrapping_neg();
    let ripple = x + low;
    (((ripple ^ x) >> 2) / low) | ripple
}

/// The rows `x` of an `n` board turned upside down.
fn mirror(n: u32, x: u32) -> u32 {
    x.reverse_bits() >> (32 - n)
}

/// The images of the middle configuration `(cm, rm)` (the middle row's queen in column `cm`,
/// the middle column's queen in row `rm`) under the 8 symmetries of the square, which keep
/// the middle cross.
fn middle_images(n: u32, cm: u32, rm: u32) -> Vec<(u32, u32)> {
    let m = n - 1;
    let mut v = vec![
        (cm, rm),
        (m - cm, rm),
        (cm, m - rm),
        (m - cm, m - rm),
        (rm, cm),
        (m - rm, cm),
        (rm, m - cm),
        (m - rm, m - cm),
    ];
    v.sort_unstable();
    v.dedup();
    v
}

impl Layout {
    /// The plan of an `n` board (the caller has checked that the method applies).
    pub fn new(n: u32) -> Layout {
        let h = n / 2;
        let mut p = Layout {
            n,
            h,
            far: n - h,
            middles: Vec::new(),
            rowsets: Vec::new(),
            tasks: Vec::new(),
        };
        let all_rows = (1u32 << n) - 1;
        if n.is_multiple_of(2) {
            let mid = p.middle(&[]);
            p.add_even_rowsets(mid, all_rows);
        } else {
            p.add_odd_rowsets(all_rows);
        }
        let group = p.rowsets.len().div_ceil(MAX_TASKS).max(1);
        for start in (0..p.rowsets.len()).step_by(group) {
            let len = group.min(p.rowsets.len() - start);
            p.tasks.push(QTask::Rows {
                start: start as u32,
                len: len as u32,
            });
        }
        p.tasks.push(QTask::Rotational);
        p
    }

    /// An odd board's middle configurations, one per class under the 8 symmetries, and their
    /// row sets.
    fn add_odd_rowsets(&mut self, all_rows: u32) {
        let (n, c) = (self.n, self.h);
        let centre = self.middle(&[(c, c)]);
        self.add_rowsets(centre, all_rows & !(1 << c), 1, true);
        for cm in (0..n).filter(|&x| x != c) {
            for rm in (0..n).filter(|&x| x != c) {
                // The two queens must not share a diagonal.
                if cm.abs_diff(c) == rm.abs_diff(c) {
                    continue;
                }
                let images = middle_images(n, cm, rm);
                if images[0] != (cm, rm) {
                    continue;
                }
                let mid = self.middle(&[(c, cm), (rm, c)]);
                let rows = all_rows & !(1 << c) & !(1 << rm);
                self.add_rowsets(mid, rows, images.len() as u32, false);
            }
        }
    }

    /// The middle configuration of the fixed `queens`.
    fn middle(&self, queens: &[(u32, u32)]) -> Middle {
        let (n, h, far) = (self.n, self.h, self.far);
        let full = (1u32 << h) - 1;
        let mut m = Middle {
            queens: [(0, 0); 2],
            len: queens.len() as u8,
            d1: 0,
            d2: 0,
            rows: 0,
            west: full,
            east: full,
        };
        for (i, &(r, c)) in queens.iter().enumerate() {
            m.queens[i] = (r, c);
            m.d1 |= 1 << (r + c);
            m.d2 |= 1 << (r + n - 1 - c);
            if c < h {
                m.west &= !(1 << c);
            } else if c >= far {
                m.east &= !(1 << (c - far));
            }
        }
        m
    }

    /// Adds the row sets of an even board: one set of east rows per class under the up-down
    /// mirror (weight 1 or 2), with the weight of its solutions that have no queen on either
    /// long diagonal (`open`: the left-right mirror pairs such a row set with its half-turn
    /// image; one of the two takes weight 2, the other 0, one that is its own image 1).
    fn add_even_rowsets(&mut self, mut mid: Middle, rows: u32) {
        let (n, h) = (self.n, self.h);
        mid.rows = rows;
        self.middles.push(mid);
        let mut east: u32 = (1 << h) - 1;
        while east <= rows {
            let up_down = mirror(n, east);
            if east <= up_down {
                // Rows where the set and its mirror image agree; the lowest decides.
                let agree = !(east ^ up_down) & rows;
                let open = match agree & agree.wrapping_neg() {
                    0 => 1,
                    low if east & low != 0 => 2,
                    _ => 0,
                };
                self.rowsets.push(RowSet {
                    middle: 0,
                    east,
                    weight: if east == up_down { 1 } else { 2 },
                    open,
                });
            }
            east = next_subset(east.into()) as u32;
        }
    }

    /// Adds the row sets of middle configuration `mid` (standing for `weight`
    /// configurations): every set of rows of `rows` as large as the east half's free columns.
    /// With `mirrors`, the configuration is kept by the up-down and left-right mirrors, so
    /// only one row set per class under them is kept.
    fn add_rowsets(&mut self, mut mid: Middle, rows: u32, weight: u32, mirrors: bool) {
        let n = self.n;
        mid.rows = rows;
        let index = self.middles.len() as u16;
        self.middles.push(mid);
        let k = mid.east.count_ones();
        let positions: Vec<u32> = (0..n).filter(|&r| rows >> r & 1 == 1).collect();
        let choose = positions.len() as u32;
        let mut pick: u64 = (1u64 << k) - 1;
        // Every k of the free rows, by Gosper's hack over their positions.
        while pick < 1u64 << choose {
            let east = positions
                .iter()
                .enumerate()
                .filter(|(i, _)| pick >> i & 1 == 1)
                .fold(0u32, |a, (_, &r)| a | 1 << r);
            let mut w = weight;
            let mut keep = true;
            if mirrors {
                let west = rows & !east;
                let mut images = [east, mirror(n, east), west, mirror(n, west)];
                keep = images.iter().all(|&i| east <= i);
                images.sort_unstable();
                w *= 1 + images.windows(2).filter(|p| p[0] != p[1]).count() as u32;
            }
            if keep {
                self.rowsets.push(RowSet {
                    middle: index,
                    east,
                    weight: w,
                    open: 1,
                });
            }
            if k == 0 {
                break;
            }
            pick = next_subset(pick);
        }
    }

    /// Feeds what identifies the plan (its middle configurations, row sets and tasks, in
    /// order) to `h`.
    pub fn fingerprint(&self, h: &mut Fnv) {
        for m in &self.middles {
            for &(r, c) in &m.queens[..m.len as usize] {
                h.bytes(&[b'm', r as u8, c as u8]);
            }
        }
        for r in &self.rowsets {
            h.bytes(&r.middle.to_le_bytes());
            h.bytes(&r.east.to_le_bytes());
            h.bytes(&r.weight.to_le_bytes());
            h.bytes(&r.open.to_le_bytes());
        }
        for t in &self.tasks {
            match *t {
                QTask::Rows { start, len } => {
                    h.bytes(&start.to_le_bytes());
                    h.bytes(&len.to_le_bytes());
                }
                QTask::Rotational => h.bytes(b"r"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gosper_steps_through_every_subset_of_a_size_in_order() {
        let mut x = 0b111u64;
        let mut seen = Vec::new();
        while x < 1 << 6 {
            seen.push(x);
            x = next_subset(x);
        }
        let want: Vec<u64> = (0..64u64).filter(|v| v.count_ones() == 3).collect();
        assert_eq!(seen, want);
        assert_eq!(mirror(5, 0b00011), 0b11000);
    }
}
