//! The dihedral group of the square acting on solutions: images, canonical forms, orbits.
//!
//! A solution is a permutation `cols[row]` (0-based). The images under the rotations are again
//! permutations; lexicographic order on these vectors is the order used to pick representatives.

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
    ///
    /// `cols` should be a permutation of `0..n`; a board that is not one (a column off the
    /// board, or two queens in one column) has no image as a permutation and is returned as
    /// it is.
    pub fn apply(self, cols: &[usize]) -> Vec<usize> {
        let n = cols.len();
        let mut out = vec![usize::MAX; n];
        for (r, &c) in cols.iter().enumerate() {
            if c >= n {
                return cols.to_vec();
            }
            let (r2, c2) = self.map(n, r, c);
            out[r2] = c2;
        }
        if out.contains(&usize::MAX) {
            return cols.to_vec();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_of_the_4_queens_solution() {
        let s = [1, 3, 0, 2];
        assert_eq!(Symmetry::Rot90.apply(&s), s.to_vec());
        assert_eq!(Symmetry::FlipH.apply(&s), vec![2, 0, 3, 1]);
        assert_eq!(Symmetry::Rot180.apply(&s), s.to_vec());
        assert_eq!(canonical(&[2, 0, 3, 1]), s.to_vec());
    }

    #[test]
    fn boards_that_are_not_permutations_are_their_own_images() {
        assert_eq!(Symmetry::Rot90.apply(&[5, 0]), vec![5, 0]);
        assert_eq!(Symmetry::Transpose.apply(&[0, 0]), vec![0, 0]);
        assert_eq!(canonical(&[]), Vec::<usize>::new());
    }

    #[test]
    fn group_is_closed_and_rotations_compose() {
        let s = [0, 4, 7, 5, 2, 6, 1, 3];
        let r90 = Symmetry::Rot90.apply(&s);
        assert_eq!(Symmetry::Rot90.apply(&r90), Symmetry::Rot180.apply(&s));
        assert_eq!(Symmetry::Rot270.apply(&r90), s.to_vec());
        assert_ne!(Symmetry::Rot180.apply(&s), s.to_vec());
    }
}
