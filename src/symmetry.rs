//! The dihedral group of the square acting on solutions, and the leaf check that picks one
//! representative per class in the symmetric count.
//!
//! A solution is a permutation `cols[row]` (0-based). The images under the rotations are again
//! permutations; lexicographic order on these vectors is the order used to pick representatives.

use crate::kernel::{Classes, Spec};
use std::cmp::Ordering;

/// The 8 symmetries of the square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leave the board as it is.
    Identity,
    /// Quarter turn clockwise.
    Rot90,
    /// Half turn.
    Rot180,
    /// Quarter turn counter-clockwise.
    Rot270,
    /// Mirror left-right.
    FlipH,
    /// Mirror top-bottom.
    FlipV,
    /// Reflect in the main diagonal (transpose).
    Transpose,
    /// Reflect in the anti-diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rot90,
        Symmetry::Rot180,
        Symmetry::Rot270,
        Symmetry::FlipH,
        Symmetry::FlipV,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Maps the square `(row, col)` of an `n` board.
    pub fn map(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        let m = n - 1;
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rot90 => (c, m - r),
            Symmetry::Rot180 => (m - r, m - c),
            Symmetry::Rot270 => (m - c, r),
            Symmetry::FlipH => (r, m - c),
            Symmetry::FlipV => (m - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (m - c, m - r),
        }
    }

    /// The image of a permutation board.
    pub fn apply(self, cols: &[usize]) -> Vec<usize> {
        let n = cols.len();
        let mut out = vec![0; n];
        for (r, &c) in cols.iter().enumerate() {
            let (r2, c2) = self.map(n, r, c);
            out[r2] = c2;
        }
        out
    }
}

/// The lexicographically smallest image of a solution: its class's canonical form.
pub fn canonical(cols: &[usize]) -> Vec<usize> {
    Symmetry::ALL
        .iter()
        .map(|s| s.apply(cols))
        .min()
        .unwrap_or_default()
}

/// The number of distinct images of a board under the 8 symmetries (1, 2, 4 or 8).
pub fn orbit_size(cols: &[usize]) -> usize {
    let mut images: Vec<Vec<usize>> = Symmetry::ALL.iter().map(|s| s.apply(cols)).collect();
    images.sort();
    images.dedup();
    images.len()
}

/// The leaf check of an edge-family solution whose row-0 queen is at column `b`, the nearest
/// any border queen comes to a corner. Among the rotations that also put a queen on row 0 at
/// column `b` (the only images the search reaches), the solution counts only if it is the
/// smallest. Returns the orbit size (2, 4 or 8) if it counts, `None` if another image does.
pub fn classify_edge(cols: &[usize], b: usize) -> Option<u8> {
    let n = cols.len();
    let mut inv = [0usize; 64];
    for (r, &c) in cols.iter().enumerate() {
        inv[c] = r;
    }
    let cmp = |f: &dyn Fn(usize) -> usize| -> Ordering {
        (0..n)
            .map(|r| f(r).cmp(&cols[r]))
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    };
    // Quarter turn clockwise: row r of the image holds column n-1-inv[r]; it has a queen on
    // row 0 at column b when the column-0 queen stands on row n-1-b.
    if cols[n - 1 - b] == 0 {
        match cmp(&|r| n - 1 - inv[r]) {
            Ordering::Less => return None,
            Ordering::Equal => return Some(2),
            Ordering::Greater => {}
        }
    }
    if cols[n - 1] == n - 1 - b {
        match cmp(&|r| n - 1 - cols[n - 1 - r]) {
            Ordering::Less => return None,
            Ordering::Equal => return Some(4),
            Ordering::Greater => {}
        }
    }
    if cols[b] == n - 1 && cmp(&|r| inv[n - 1 - r]) == Ordering::Less {
        return None;
    }
    Some(8)
}

/// Counts the classes below an edge task whose border queens tie with a rotation: a plain
/// recursive search that keeps the board and runs [`classify_edge`] at each leaf. Returns the
/// classes and the queens placed.
pub fn count_tied(spec: &Spec, fixed: &[(u8, u8)], b: u32) -> (Classes, u64) {
    let n = spec.n as usize;
    let mut cols = vec![0usize; n];
    for &(r, c) in fixed {
        cols[r as usize] = c as usize;
    }
    let mut out = Classes::default();
    let mut nodes = 0;
    rec(spec, 0, [0; 3], &mut cols, b as usize, &mut out, &mut nodes);
    (out, nodes)
}

fn rec(
    s: &Spec,
    i: usize,
    m: [u64; 3],
    cols: &mut [usize],
    b: usize,
    out: &mut Classes,
    nodes: &mut u64,
) {
    if i == s.k {
        match classify_edge(cols, b) {
            Some(2) => out.c2 += 1,
            Some(4) => out.c4 += 1,
            Some(_) => out.c8 += 1,
            None => {}
        }
        return;
    }
    let mut free = s.full & !(m[0] | m[1] | m[2] | s.forbid[i]);
    *nodes += free.count_ones() as u64;
    let g = s.gap[i];
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        cols[s.rows[i] as usize] = bit.trailing_zeros() as usize;
        rec(
            s,
            i + 1,
            [m[0] | bit, (m[1] | bit) << g, (m[2] | bit) >> g],
            cols,
            b,
            out,
            nodes,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_of_the_4_queens_solution() {
        let s = [1, 3, 0, 2];
        assert_eq!(Symmetry::Rot90.apply(&s), s.to_vec());
        assert_eq!(Symmetry::FlipH.apply(&s), vec![2, 0, 3, 1]);
        assert_eq!(orbit_size(&s), 2);
        assert_eq!(canonical(&[2, 0, 3, 1]), s.to_vec());
    }

    #[test]
    fn group_is_closed_and_rotations_compose() {
        let s = [0, 4, 7, 5, 2, 6, 1, 3];
        let r90 = Symmetry::Rot90.apply(&s);
        assert_eq!(Symmetry::Rot90.apply(&r90), Symmetry::Rot180.apply(&s));
        assert_eq!(Symmetry::Rot270.apply(&r90), s.to_vec());
        assert_eq!(orbit_size(&s), 8);
    }
}
