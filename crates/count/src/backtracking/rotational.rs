//! The rotational count: solutions that a half turn, and those that a quarter turn, leave as
//! they are. The symmetric plan's one [`Rotational`](crate::backtracking::task::TaskKind::Rotational) task
//! counts them, so that the unique count follows by Burnside's lemma.

use super::super::tally::{Classes, Tally};
use nqueens_board::symmetry::Symmetry;

/// The rotational task's tally on an `n` board (4..=64): no solutions of its own, the
/// half- and quarter-turn symmetric counts for the unique count, and the pairs of queens
/// its search placed as nodes.
pub fn tally(n: u32) -> Tally {
    let r = count_rotational(n);
    Tally {
        total: 0,
        classes: Some(Classes {
            sym90: r.sym90 as u128,
            sym180: r.sym180 as u128,
            ..Classes::default()
        }),
        nodes: r.nodes as u128,
    }
}

/// What [`count_rotational`] found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rotational {
    /// Solutions that a quarter turn leaves as they are.
    pub sym90: u64,
    /// Solutions that a half turn leaves as they are (the quarter-turn ones included).
    pub sym180: u64,
    /// Pairs of queens placed by the search.
    pub nodes: u64,
}

/// Counts the solutions of an `n` board (4 <= n <= 64) that a half turn, and those that a
/// quarter turn, leave as they are. A half-turn symmetric solution is fixed by its top half:
/// each queen (r, c) of rows `0..n/2` brings its image (n-1-r, n-1-c), and on an odd board
/// the middle queen sits in the centre. So this searches only the top half, two queens per
/// row, and checks the quarter turn at each leaf: far fewer nodes than the whole count.
pub fn count_rotational(n: u32) -> Rotational {
    assert!((4..=64).contains(&n), "count_rotational needs 4 <= n <= 64");
    let n = n as usize;
    let mut s = HalfBoard {
        n,
        cols: 0,
        sum: 0,
        diff: 0,
        board: vec![usize::MAX; n],
        out: Rotational::default(),
    };
    if n % 2 == 1 {
        let h = n / 2;
        s.put(h, h);
        s.board[h] = h;
    }
    s.rows(0);
    s.out
}

/// The half-board search of [`count_rotational`]: columns and both diagonals as bit sets
/// (`r + c` and `r - c + n - 1` index the diagonals, up to 127).
struct HalfBoard {
    n: usize,
    cols: u64,
    sum: u128,
    diff: u128,
    board: Vec<usize>,
    out: Rotational,
}

impl HalfBoard {
    fn free(&self, r: usize, c: usize) -> bool {
        self.cols >> c & 1 == 0
            && self.sum >> (r + c) & 1 == 0
            && self.diff >> (r + self.n - 1 - c) & 1 == 0
    }

    fn put(&mut self, r: usize, c: usize) {
        self.cols ^= 1 << c;
        self.sum ^= 1 << (r + c);
        self.diff ^= 1 << (r + self.n - 1 - c);
    }

    fn rows(&mut self, r: usize) {
        let (n, m) = (self.n, self.n - 1);
        if r == n / 2 {
            self.out.sym180 += 1;
            let turned = Symmetry::Rot90.apply(&self.board);
            self.out.sym90 += (turned == self.board) as u64;
            return;
        }
        for c in 0..n {
            if !self.free(r, c) {
                continue;
            }
            self.put(r, c);
            // The image (m-r, m-c) must be free, (r, c) included: that bars r + c = m and
            // r = c (one diagonal for both); the column differs unless c is an odd board's
            // middle column, which the centre queen holds.
            if self.free(m - r, m - c) {
                self.out.nodes += 1;
                self.put(m - r, m - c);
                self.board[r] = c;
                self.board[m - r] = m - c;
                self.rows(r + 1);
                self.put(m - r, m - c);
            }
            self.put(r, c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotational_counts_match_every_solution_checked() {
        for n in 4..=10u32 {
            let (mut s90, mut s180) = (0, 0);
            for sol in nqueens_solve::enumerate::Solutions::new(n).unwrap() {
                s90 += (Symmetry::Rot90.apply(&sol) == sol) as u64;
                s180 += (Symmetry::Rot180.apply(&sol) == sol) as u64;
            }
            let r = count_rotational(n);
            assert_eq!((r.sym90, r.sym180), (s90, s180), "n = {n}");
        }
        // The 16 board: 3000 half-turn symmetric solutions, 64 of them quarter-turn symmetric
        // (as the leaf-checked count of earlier versions found).
        let r = count_rotational(16);
        assert_eq!((r.sym90, r.sym180), (64, 3000));
    }
}
