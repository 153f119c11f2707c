//! Finding solutions: the first in backtracking order, all of them as a stream, and an
//! explicit construction for large boards.
//!
//! Backtracking fills rows top to bottom and tries columns left to right, so solutions come in
//! lexicographic order of their permutations `cols[row]` (0-based).

use crate::kernel::Spec;
use crate::symmetry::canonical;

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
    /// Starts the enumeration of an `n` board (`1 <= n <= 64`).
    pub fn new(n: u32) -> Solutions {
        Solutions::with_fixed(n, &[])
    }

    /// Starts the enumeration of the completions of the fixed queens `(row, col)` (0-based;
    /// checked with [`crate::place::check`]): only the free rows are searched.
    pub fn with_fixed(n: u32, fixed: &[(usize, usize)]) -> Solutions {
        let q: Vec<(u8, u8)> = fixed.iter().map(|&(r, c)| (r as u8, c as u8)).collect();
        let spec = Spec::new(n, &q);
        let mut board = vec![0; n as usize];
        for &(r, c) in fixed {
            board[r] = c;
        }
        let mut avail = [0; 64];
        avail[0] = spec.full & !spec.forbid[0];
        Solutions {
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
        }
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
/// [`construct`] there.
pub fn first_lexicographic(n: u32) -> (Option<Vec<usize>>, u64) {
    let mut it = Solutions::new(n);
    let s = it.next();
    (s, it.nodes())
}

/// One representative per symmetry class (the lexicographically smallest of its orbit), in
/// lexicographic order.
pub fn unique(n: u32) -> impl Iterator<Item = Vec<usize>> {
    Solutions::new(n).filter(|s| canonical(s) == *s)
}

/// An explicit solution for any `n >= 4` (and `n = 1`), in O(n) time and memory, by the
/// classical construction (Hoffman, Loessi and Moore, 1969; as popularised by Bernhardsson,
/// 1991): even columns first, then odd ones, with fixed repairs when `n mod 6` is 2 or 3.
/// Returns `None` for n = 2, 3 (no solution).
pub fn construct(n: usize) -> Option<Vec<usize>> {
    match n {
        1 => return Some(vec![0]),
        2 | 3 => return None,
        _ => {}
    }
    // 1-based columns, as the construction is usually stated.
    let evens = (2..=n).step_by(2);
    let odds = (1..=n).step_by(2);
    let cols: Vec<usize> = match n % 6 {
        2 => {
            // Evens; then the odds with 1 and 3 swapped and 5 moved to the end.
            let mut v: Vec<usize> = evens.collect();
            v.extend([3, 1]);
            v.extend(odds.filter(|&c| c > 5));
            v.push(5);
            v
        }
        3 => {
            // Evens with 2 moved to the end; then the odds with 1 and 3 moved to the end.
            let mut v: Vec<usize> = evens.filter(|&c| c != 2).collect();
            v.push(2);
            v.extend(odds.filter(|&c| c > 3));
            v.extend([1, 3]);
            v
        }
        _ => evens.chain(odds).collect(),
    };
    Some(cols.into_iter().map(|c| c - 1).collect())
}

/// True if `cols` is a solution: a permutation with no two queens on one diagonal. O(n).
pub fn is_solution(cols: &[usize]) -> bool {
    let n = cols.len();
    let mut seen = vec![false; n];
    let mut d1 = vec![false; 2 * n];
    let mut d2 = vec![false; 2 * n];
    cols.iter().enumerate().all(|(r, &c)| {
        if c >= n || seen[c] || d1[r + c] || d2[r + n - c] {
            return false;
        }
        seen[c] = true;
        d1[r + c] = true;
        d2[r + n - c] = true;
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_solution_of_8() {
        let (s, _) = first_lexicographic(8);
        let one_based: Vec<usize> = s.unwrap().iter().map(|c| c + 1).collect();
        assert_eq!(one_based, vec![1, 5, 8, 6, 3, 7, 2, 4]);
        assert_eq!(first_lexicographic(3).0, None);
    }

    #[test]
    fn stream_is_complete_valid_and_increasing() {
        let all: Vec<Vec<usize>> = Solutions::new(8).collect();
        assert_eq!(all.len(), 92);
        assert!(all.iter().all(|s| is_solution(s)));
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(unique(8).count(), 12);
    }

    #[test]
    fn a_full_placement_is_its_own_one_completion() {
        let all: Vec<Vec<usize>> = Solutions::with_fixed(1, &[(0, 0)]).collect();
        assert_eq!(all, vec![vec![0]]);
        let four: Vec<Vec<usize>> =
            Solutions::with_fixed(4, &[(0, 1), (1, 3), (2, 0), (3, 2)]).collect();
        assert_eq!(four, vec![vec![1, 3, 0, 2]]);
        assert_eq!(Solutions::with_fixed(4, &[(0, 0)]).count(), 0);
    }

    #[test]
    fn construction_is_valid_from_4_to_2000() {
        for n in 4..=2000 {
            let s = construct(n).unwrap();
            assert_eq!(s.len(), n);
            assert!(is_solution(&s), "n={n}");
        }
        assert!(is_solution(&construct(1).unwrap()));
        assert_eq!(construct(2), None);
        assert_eq!(construct(3), None);
    }

    #[test]
    fn is_solution_rejects_attacks() {
        assert!(is_solution(&[1, 3, 0, 2]));
        assert!(!is_solution(&[0, 1, 2, 3]));
        assert!(!is_solution(&[0, 0, 1, 2]));
        assert!(!is_solution(&[0, 2, 4]));
    }
}
