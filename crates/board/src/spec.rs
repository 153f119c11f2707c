//! A partly filled board as a search sees it: the free rows, how far apart they are, and
//! the squares of each free row that the fixed queens attack.

use super::masks::full_mask;

/// A board with some queens fixed, ready for a search over its free rows (the counting
/// kernels, the solution stream). Built by [`Spec::new`] from queens that are on the board,
/// in distinct rows and not attacking each other (the planner and [`super::check`] make sure
/// of that).
#[derive(Debug, Clone)]
pub struct Spec {
    /// Board size (1..=64).
    pub n: u32,
    /// `n` low bits set.
    pub full: u64,
    /// Number of free rows.
    pub k: usize,
    /// The free rows, top to bottom (`rows[..k]`).
    pub rows: [u8; 64],
    /// `gap[i] = rows[i+1] - rows[i]`: how far the diagonals move between free rows.
    pub gap: [u8; 64],
    /// Columns of free row `i` attacked by the fixed queens (their columns and diagonals),
    /// and any squares barred by the task (see [`Spec::forbid_square`]).
    pub forbid: [u64; 64],
}

impl Spec {
    /// The spec of an `n` board (1..=64) with the given fixed queens `(row, col)`, 0-based.
    pub fn new(n: u32, fixed: &[(u8, u8)]) -> Spec {
        let nn = n as usize;
        let mut row_forbid = [0u64; 64];
        let mut taken = [false; 64];
        for &(r, c) in fixed {
            let (r, c) = (r as usize, c as usize);
            taken[r] = true;
            for (y, f) in row_forbid.iter_mut().enumerate().take(nn) {
                let d = y.abs_diff(r);
                *f |= 1 << c;
                if c + d < nn {
                    *f |= 1 << (c + d);
                }
                if c >= d {
                    *f |= 1 << (c - d);
                }
            }
        }
        let mut spec = Spec {
            n,
            full: full_mask(n),
            k: 0,
            rows: [0; 64],
            gap: [0; 64],
            forbid: [0; 64],
        };
        for y in (0..nn).filter(|&y| !taken[y]) {
            spec.rows[spec.k] = y as u8;
            spec.forbid[spec.k] = row_forbid[y];
            if spec.k > 0 {
                spec.gap[spec.k - 1] = (y - spec.rows[spec.k - 1] as usize) as u8;
            }
            spec.k += 1;
        }
        spec
    }

    /// Bars the square (`row`, `col`) if `row` is free.
    pub fn forbid_square(&mut self, row: u32, col: u32) {
        if let Some(i) = self.rows[..self.k].iter().position(|&r| r as u32 == row) {
            self.forbid[i] |= 1 << col;
        }
    }

    /// The same board cut to its first `rows` free rows (a search of it counts the partial
    /// placements of those rows: the work estimate of a task).
    pub fn first_rows(&self, rows: usize) -> Spec {
        let mut s = self.clone();
        s.k = s.k.min(rows);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_of_fixed_queens() {
        // 4×4 with a queen at row 0, column 1: rows 1..3 free.
        let s = Spec::new(4, &[(0, 1)]);
        assert_eq!(s.k, 3);
        assert_eq!(&s.rows[..3], &[1, 2, 3]);
        assert_eq!(&s.gap[..2], &[1, 1]);
        assert_eq!(s.forbid[0], 0b0111); // column 1 and both diagonals
        assert_eq!(s.forbid[1], 0b1010); // column 1 and column 3 (two rows down)
        assert_eq!(s.forbid[2], 0b0010); // column 1; the diagonals fell off the board
        let t = Spec::new(6, &[(0, 1), (3, 0), (5, 4)]);
        assert_eq!(&t.rows[..t.k], &[1, 2, 4]);
        assert_eq!(&t.gap[..2], &[1, 2]);
        let mut u = Spec::new(6, &[(0, 1)]);
        u.forbid_square(2, 5);
        u.forbid_square(0, 5); // row 0 is fixed: nothing to bar
        assert_eq!(u.forbid[1] >> 5 & 1, 1);
        assert_eq!(u.first_rows(2).k, 2);
    }
}
