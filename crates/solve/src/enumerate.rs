//! Solutions in backtracking order: the first, all of them as a stream, one per class.
//!
//! Backtracking fills rows top to bottom and tries columns left to right, so solutions come in
//! lexicographic order of their permutations `cols[row]` (0-based).

use nqueens_board::check::placements;
use nqueens_board::error::Result;
use nqueens_board::masks::check_n;
use nqueens_board::spec::Spec;
use nqueens_board::symmetry::canonical;

/// Every solution of an `n` board (or every completion of some fixed queens), in
/// lexicographic order, found lazily by backtracking on the bit masks over the free rows:
/// memory is O(n) however many solutions there are.
#[derive(Debug, Clone)]
pub struct Solutions {
    spec: Spec,
    i: usize,
    cols: [u64; 64],
    d1: [u64; 64],
    d2: [u64; 64],
    avail: [u64; 64],
    board: Vec<usize>,
    nodes: u64,
    budget: u64,
    done: bool,
}

impl Solutions {
    /// Starts the enumeration of an `n` board (1..=64; else [`BoardSize`](nqueens_board::Error::BoardSize)).
    pub fn new(n: u32) -> Result<Solutions> {
        Solutions::with_fixed(n, &[])
    }

    /// Starts the enumeration of the completions of the placed queens `(row, col)` (0-based;
    /// checked with [`nqueens_board::check::placements`]): only the free rows are searched.
    pub fn with_fixed(n: u32, fixed: &[(usize, usize)]) -> Result<Solutions> {
        check_n(n as i64)?;
        let fixed = placements(n as usize, fixed)?;
        let q: Vec<(u8, u8)> = fixed.iter().map(|&(r, c)| (r as u8, c as u8)).collect();
        let spec = Spec::new(n, &q);
        let mut board = vec![0; n as usize];
        for &(r, c) in &fixed {
            board[r] = c;
        }
        let mut avail = [0; 64];
        avail[0] = spec.full & !spec.forbid[0];
        Ok(Solutions {
            done: false,
            spec,
            i: 0,
            cols: [0; 64],
            d1: [0; 64],
            d2: [0; 64],
            avail,
            board,
            nodes: 0,
            budget: u64::MAX,
        })
    }

    /// Stops the enumeration once `nodes` queens have been placed (see [`Self::out_of_budget`]).
    pub fn with_budget(mut self, nodes: u64) -> Solutions {
        self.budget = nodes;
        self
    }

    /// Whether the enumeration stopped at its budget rather than at its end.
    pub fn out_of_budget(&self) -> bool {
        self.nodes >= self.budget
    }

    /// Queens placed so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

impl Iterator for Solutions {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        if self.spec.k == 0 {
            // Every row fixed: the placement is the one solution.
            let first = !self.done;
            self.done = true;
            return first.then(|| self.board.clone());
        }
        let s = &self.spec;
        while !self.done && self.nodes < self.budget {
            let i = self.i;
            let a = self.avail[i];
            if a == 0 {
                if i == 0 {
                    self.done = true;
                    break;
                }
                self.i -= 1;
                continue;
            }
            let bit = a & a.wrapping_neg();
            self.avail[i] = a ^ bit;
            self.nodes += 1;
            self.board[s.rows[i] as usize] = bit.trailing_zeros() as usize;
            if i + 1 == s.k {
                return Some(self.board.clone());
            }
            let g = s.gap[i];
            self.cols[i + 1] = self.cols[i] | bit;
            self.d1[i + 1] = ((self.d1[i] | bit) << g) & s.full;
            self.d2[i + 1] = (self.d2[i] | bit) >> g;
            self.avail[i + 1] =
                s.full & !(self.cols[i + 1] | self.d1[i + 1] | self.d2[i + 1] | s.forbid[i + 1]);
            self.i += 1;
        }
        None
    }
}

/// The first solution in backtracking order (lexicographically smallest), with the queens
/// placed to find it; `None` when the board has no solution (N = 2, 3).
///
/// Fast up to about N = 33; beyond, the search can take billions of nodes: use
/// [`super::construct::construct`] there.
pub fn first_solution(n: u32) -> Result<(Option<Vec<usize>>, u64)> {
    let mut it = Solutions::new(n)?;
    let s = it.next();
    Ok((s, it.nodes()))
}

/// One representative per symmetry class (the lexicographically smallest of its orbit), in
/// lexicographic order.
pub fn unique(n: u32) -> Result<impl Iterator<Item = Vec<usize>>> {
    Ok(Solutions::new(n)?.filter(|s| canonical(s) == *s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_solution_of_8() {
        let (s, _) = first_solution(8).unwrap();
        let one_based: Vec<usize> = s.unwrap().iter().map(|c| c + 1).collect();
        assert_eq!(one_based, vec![1, 5, 8, 6, 3, 7, 2, 4]);
        assert_eq!(first_solution(3).unwrap().0, None);
        assert!(first_solution(65).is_err());
        assert!(Solutions::with_fixed(8, &[(0, 0), (1, 1)]).is_err());
    }

    #[test]
    fn stream_is_complete_valid_and_increasing() {
        let all: Vec<Vec<usize>> = Solutions::new(8).unwrap().collect();
        assert_eq!(all.len(), 92);
        assert!(all.iter().all(|s| nqueens_board::check::is_solution(s)));
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(unique(8).unwrap().count(), 12);
    }

    #[test]
    fn a_full_placement_is_its_own_one_completion() {
        let all: Vec<Vec<usize>> = Solutions::with_fixed(1, &[(0, 0)]).unwrap().collect();
        assert_eq!(all, vec![vec![0]]);
        let four: Vec<Vec<usize>> = Solutions::with_fixed(4, &[(0, 1), (1, 3), (2, 0), (3, 2)])
            .unwrap()
            .collect();
        assert_eq!(four, vec![vec![1, 3, 0, 2]]);
        assert_eq!(Solutions::with_fixed(4, &[(0, 0)]).unwrap().count(), 0);
    }
}
