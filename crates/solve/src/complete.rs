//! Completing pre-placed queens on boards of any size.
//!
//! - [`mrv`]: complete backtracking for N <= 64 that fills the most constrained free row first
//!   (fewest free squares; a row with none ends the branch at once). It either finds a
//!   completion or proves there is none, within a node budget.
//! - [`min_conflicts`]: local search for boards of any size (Sosic and Gu's swap-based
//!   min-conflicts): the free rows take the free columns as a permutation, so only diagonals
//!   can clash, and pairs of rows swap columns while that lowers the number of clashes. Fast
//!   on large boards, but it cannot prove that no completion exists.
//!
//! [`complete`] picks between them.

use nqueens_board::check::placements;
use nqueens_board::error::Result;
use nqueens_board::masks::full_mask;

/// What a completion search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// A full solution holding every placed queen (`cols[row]`, 0-based).
    Found(Vec<usize>),
    /// The placed queens cannot be completed: proved by exhaustive search, or a free row or
    /// column with every square attacked (named in the message).
    Impossible(String),
    /// The search stopped at its budget without an answer either way.
    GaveUp(String),
}

/// How many nodes [`mrv`] may visit when called by [`complete`].
pub const MRV_BUDGET: u64 = 200_000_000;

/// Complete backtracking, most constrained row first, for `n <= 64` and placed queens
/// `(row, col)` (0-based, already checked). Stops after `budget` queens placed.
pub fn mrv(n: u32, placed: &[(usize, usize)], budget: u64) -> Result<Completion> {
    nqueens_board::masks::check_n(n as i64)?;
    let placed = placements(n as usize, placed)?;
    Ok(mrv_checked(n, &placed, budget))
}

fn mrv_checked(n: u32, placed: &[(usize, usize)], budget: u64) -> Completion {
    let nn = n as usize;
    let mut st = CompletionSearch {
        n: nn,
        full: full_mask(n),
        cols: 0,
        dp: 0,
        dm: 0,
        board: vec![usize::MAX; nn],
        nodes: 0,
        budget,
    };
    let mut free_rows = full_mask(n);
    for &(r, c) in placed {
        st.set(r, c);
        free_rows &= !(1u64 << r);
    }
    match st.rec(free_rows) {
        Some(true) => Completion::Found(st.board),
        Some(false) => Completion::Impossible(format!(
            "no completion exists: an exhaustive search ({} queens placed) found none",
            st.nodes
        )),
        None => Completion::GaveUp(format!(
            "the search stopped after {} queens placed without an answer",
            st.nodes
        )),
    }
}

struct CompletionSearch {
    n: usize,
    full: u64,
    cols: u64,
    /// Diagonals `row + col`.
    dp: u128,
    /// Diagonals `col - row + n - 1`.
    dm: u128,
    board: Vec<usize>,
    nodes: u64,
    budget: u64,
}

impl CompletionSearch {
    fn set(&mut self, r: usize, c: usize) {
        self.cols |= 1 << c;
        self.dp |= 1 << (r + c);
        self.dm |= 1 << (c + self.n - 1 - r);
        self.board[r] = c;
    }

    fn unset(&mut self, r: usize, c: usize) {
        self.cols &= !(1 << c);
        self.dp &= !(1 << (r + c));
        self.dm &= !(1 << (c + self.n - 1 - r));
    }

    fn avail(&self, r: usize) -> u64 {
        let d = (self.dp >> r) as u64 | (self.dm >> (self.n - 1 - r)) as u64;
        self.full & !(self.cols | d)
    }

    /// `Some(true)`: completed; `Some(false)`: no completion below; `None`: out of budget.
    fn rec(&mut self, free_rows: u64) -> Option<bool> {
        if free_rows == 0 {
            return Some(true);
        }
        let mut best = (u32::MAX, 0usize, 0u64);
        let mut rows = free_rows;
        while rows != 0 {
            let r = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let a = self.avail(r);
            let k = a.count_ones();
            if k < best.0 {
                best = (k, r, a);
                if k == 0 {
                    return Some(false);
                }
            }
        }
        let (_, r, mut a) = best;
        while a != 0 {
            let c = a.trailing_zeros() as usize;
            a &= a - 1;
            self.nodes += 1;
            if self.nodes > self.budget {
                return None;
            }
            self.set(r, c);
            match self.rec(free_rows & !(1 << r)) {
                Some(false) => self.unset(r, c),
                done => return done,
            }
        }
        Some(false)
    }
}

/// A small deterministic generator (SplitMix64): the same board gives the same answer.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }
}

/// The state of the local search: a permutation board and the queens on each diagonal.
struct Permutation {
    n: usize,
    cols: Vec<usize>,
    dp: Vec<u32>,
    dm: Vec<u32>,
}

impl Permutation {
    fn diag(&self, r: usize, c: usize) -> (usize, usize) {
        (r + c, c + self.n - 1 - r)
    }
    /// Removes the queen at (r, c); returns how many queens shared its diagonals.
    fn remove(&mut self, r: usize, c: usize) -> i64 {
        let (p, m) = self.diag(r, c);
        self.dp[p] -= 1;
        self.dm[m] -= 1;
        (self.dp[p] + self.dm[m]) as i64
    }
    /// Adds a queen at (r, c); returns how many queens already shared its diagonals.
    fn add(&mut self, r: usize, c: usize) -> i64 {
        let (p, m) = self.diag(r, c);
        let k = (self.dp[p] + self.dm[m]) as i64;
        self.dp[p] += 1;
        self.dm[m] += 1;
        k
    }
    fn clashes(&self, r: usize) -> u32 {
        let (p, m) = self.diag(r, self.cols[r]);
        self.dp[p] + self.dm[m] - 2
    }
    /// Swaps the columns of rows `i` and `j` if that lowers the clashes (or, with `any`, does
    /// not raise them); returns the change made.
    fn try_swap(&mut self, i: usize, j: usize, any: bool) -> i64 {
        let (ci, cj) = (self.cols[i], self.cols[j]);
        let delta = -self.remove(i, ci) - self.remove(j, cj) + self.add(i, cj) + self.add(j, ci);
        if delta < 0 || (any && delta == 0) {
            self.cols.swap(i, j);
            delta
        } else {
            self.remove(i, cj);
            self.remove(j, ci);
            self.add(i, ci);
            self.add(j, cj);
            0
        }
    }
}

/// Min-conflicts local search on an `n` board (any size) with placed queens `(row, col)`
/// (0-based, already checked). Deterministic for a given `seed`. Gives up after `max_rounds`
/// passes over the clashing rows (each restart counts its own rounds; there are 4 restarts).
pub fn min_conflicts(
    n: usize,
    placed: &[(usize, usize)],
    seed: u64,
    max_rounds: u32,
) -> Result<Completion> {
    let placed = placements(n, placed)?;
    Ok(match n {
        0 => Completion::Impossible("a 0×0 board has no squares".into()),
        _ => min_conflicts_checked(n, &placed, seed, max_rounds),
    })
}

fn min_conflicts_checked(
    n: usize,
    placed: &[(usize, usize)],
    seed: u64,
    max_rounds: u32,
) -> Completion {
    let mut fixed = vec![false; n];
    let mut used = vec![false; n];
    for &(r, c) in placed {
        fixed[r] = true;
        used[c] = true;
    }
    let rows: Vec<usize> = (0..n).filter(|&r| !fixed[r]).collect();
    let free_cols: Vec<usize> = (0..n).filter(|&c| !used[c]).collect();
    if rows.is_empty() {
        let mut cols = vec![0; n];
        for &(r, c) in placed {
            cols[r] = c;
        }
        return Completion::Found(cols);
    }
    if let Some(msg) = blocked_line(n, placed, &rows) {
        return Completion::Impossible(msg);
    }
    let mut rng = Rng(seed ^ (n as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
    for _restart in 0..4 {
        let mut b = greedy_start(n, placed, &rows, &free_cols, &mut rng);
        if repair(&mut b, &rows, &mut rng, max_rounds) {
            return Completion::Found(b.cols);
        }
    }
    Completion::GaveUp(format!(
        "local search found no completion after 4 restarts of {max_rounds} rounds; it cannot \
         prove that none exists"
    ))
}

/// A first guess: the placed queens, then each free row takes a random remaining column that
/// clashes with nothing placed so far, if a few tries find one.
fn greedy_start(
    n: usize,
    placed: &[(usize, usize)],
    rows: &[usize],
    free_cols: &[usize],
    rng: &mut Rng,
) -> Permutation {
    let mut b = Permutation {
        n,
        cols: vec![0; n],
        dp: vec![0; 2 * n],
        dm: vec![0; 2 * n],
    };
    for &(r, c) in placed {
        b.cols[r] = c;
        b.add(r, c);
    }
    let mut pool = free_cols.to_vec();
    for (i, &r) in rows.iter().enumerate() {
        let left = pool.len() - i;
        let mut pick = i + rng.below(left);
        for _ in 0..8 {
            let (p, m) = b.diag(r, pool[pick]);
            if b.dp[p] == 0 && b.dm[m] == 0 {
                break;
            }
            pick = i + rng.below(left);
        }
        pool.swap(i, pick);
        b.cols[r] = pool[i];
        b.add(r, pool[i]);
    }
    b
}

/// Swaps the free rows' columns to remove clashes, for at most `max_rounds` rounds; true when
/// `b` is a solution.
fn repair(b: &mut Permutation, rows: &[usize], rng: &mut Rng, max_rounds: u32) -> bool {
    for round in 0..max_rounds {
        let bad: Vec<usize> = rows.iter().copied().filter(|&r| b.clashes(r) > 0).collect();
        if bad.is_empty() {
            return true;
        }
        // Late rounds also take sideways moves to leave plateaus.
        let any = round % 16 == 15;
        for &i in &bad {
            for _ in 0..64 {
                if b.clashes(i) == 0 {
                    break;
                }
                let j = rows[rng.below(rows.len())];
                if j != i && b.try_swap(i, j, any) < 0 {
                    break;
                }
            }
        }
    }
    false
}

/// A free row or free column on which every square is attacked by the placed queens, if
/// any: then no completion exists. Only checked when there are enough placed queens for it
/// to be possible (each attacks at most 3 squares of another line).
fn blocked_line(n: usize, placed: &[(usize, usize)], rows: &[usize]) -> Option<String> {
    if 3 * placed.len() < n - placed.len() {
        return None;
    }
    let cols: Vec<usize> = (0..n)
        .filter(|c| placed.iter().all(|q| q.1 != *c))
        .collect();
    let hit = |r: usize, c: usize| {
        placed
            .iter()
            .any(|&(pr, pc)| pc == c || pr.abs_diff(r) == pc.abs_diff(c))
    };
    if let Some(r) = rows.iter().find(|&&r| cols.iter().all(|&c| hit(r, c))) {
        return Some(format!(
            "no completion exists: every free square of row {} is attacked",
            r + 1
        ));
    }
    let col = cols.iter().find(|&&c| rows.iter().all(|&r| hit(r, c)))?;
    Some(format!(
        "no completion exists: every free square of column {} is attacked",
        col + 1
    ))
}

/// Completes the placed queens `(row, col)` (0-based) on an `n` board: [`mrv`] for
/// `n <= 64` (exact), otherwise [`min_conflicts`]. The placements are checked first
/// ([`nqueens_board::check::placements`]); `n = 0` has nothing to complete.
pub fn complete(n: usize, placed: &[(usize, usize)]) -> Result<Completion> {
    let placed = placements(n, placed)?;
    Ok(match n {
        0 => Completion::Impossible("a 0×0 board has no squares".into()),
        1..=64 => mrv_checked(n as u32, &placed, MRV_BUDGET),
        _ => min_conflicts_checked(n, &placed, 1, 2000),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens_board::check::{holds, is_solution};

    fn found(c: Result<Completion>) -> Vec<usize> {
        match c.unwrap() {
            Completion::Found(v) => v,
            other => panic!("expected a completion, got {other:?}"),
        }
    }

    #[test]
    fn mrv_completes_or_proves_impossible() {
        for n in 4..=30u32 {
            let s = found(mrv(n, &[], 1_000_000));
            assert!(is_solution(&s), "n={n}");
        }
        let s = found(mrv(8, &[(0, 0)], 1_000_000));
        assert!(is_solution(&s) && s[0] == 0);
        // N=6: no solution has a corner queen.
        assert!(matches!(
            mrv(6, &[(0, 0)], 1_000_000),
            Ok(Completion::Impossible(_))
        ));
        assert!(matches!(
            mrv(3, &[], 1_000_000),
            Ok(Completion::Impossible(_))
        ));
        assert!(mrv(65, &[], 1).is_err());
        assert!(min_conflicts(8, &[(0, 0), (1, 1)], 1, 1).is_err());
    }

    #[test]
    fn min_conflicts_completes_placements() {
        for n in [8usize, 50, 100, 1000, 20_000] {
            let placed = [(0, n / 3), (n - 1, n / 2 + 1)];
            let placed = placements(n, &placed).unwrap();
            let s = found(min_conflicts(n, &placed, 7, 2000));
            assert!(is_solution(&s) && holds(&s, &placed), "n={n}");
        }
        let s = found(min_conflicts(200, &[], 3, 2000));
        assert!(is_solution(&s));
    }

    #[test]
    fn blocked_rows_are_reported() {
        // 4×4, queen at 1:1 and 2:3 leave row 3 (0-based 2) ... every square attacked? Check.
        let placed = [(0, 0), (1, 2)];
        match min_conflicts(4, &placed, 1, 50).unwrap() {
            Completion::Impossible(m) => assert!(m.contains("every free square"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
