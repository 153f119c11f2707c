//! Whether queens attack each other: placed queens checked before a search, and whole boards
//! checked as solutions (naming every attack).

use crate::error::{Error, Result};
use serde::Serialize;

/// True if queens at `a` and `b` (`(row, col)`) attack each other: same row, column or
/// diagonal.
fn attacks(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

/// True if no two of the queens attack each other.
pub fn peaceful(qs: &[(u32, u32)]) -> bool {
    qs.iter()
        .enumerate()
        .all(|(i, &a)| qs[i + 1..].iter().all(|&b| !attacks(a, b)))
}

/// Checks placed queens (0-based `(row, col)`) on an `n` board: every queen on the board, no
/// two in one row, none attacking another. Returns them sorted by row. The error names the
/// queen off the board or the first two queens that clash, and how, in 1-based coordinates.
pub fn placements(n: usize, queens: &[(usize, usize)]) -> Result<Vec<(usize, usize)>> {
    placements_as(n, queens, 1)
}

/// [`placements`], naming queens counting from `base` (0 or 1).
pub fn placements_as(
    n: usize,
    queens: &[(usize, usize)],
    base: usize,
) -> Result<Vec<(usize, usize)>> {
    let show = |q: (usize, usize)| crate::board::format::square(q, base);
    for &q in queens {
        if q.0 >= n || q.1 >= n {
            let range = match n {
                0 => "the board has no squares".to_string(),
                _ => format!("rows and columns go from {base} to {}", n - 1 + base),
            };
            return Err(Error::Placement(format!(
                "queen {} is off the {n}×{n} board: {range}",
                show(q)
            )));
        }
    }
    for (i, &a) in queens.iter().enumerate() {
        for &b in &queens[i + 1..] {
            let how = if a == b {
                "are the same square (placed twice)".to_string()
            } else if a.0 == b.0 {
                format!("share row {}", a.0 + base)
            } else if a.1 == b.1 {
                format!("share column {}", a.1 + base)
            } else if a.0.abs_diff(b.0) == a.1.abs_diff(b.1) {
                "attack each other on a diagonal".to_string()
            } else {
                continue;
            };
            return Err(Error::Placement(format!(
                "queens {} and {} {how}: placed queens must not attack each other",
                show(a),
                show(b)
            )));
        }
    }
    let mut v = queens.to_vec();
    v.sort_unstable();
    Ok(v)
}

/// Whether the solution `cols` holds every placed queen.
pub fn holds(cols: &[usize], placed: &[(usize, usize)]) -> bool {
    placed.iter().all(|&(r, c)| cols.get(r) == Some(&c))
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

/// A board as read: its size and its queens `(row, col)`, 0-based, in reading order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Board size.
    pub n: usize,
    /// The queens.
    pub queens: Vec<(usize, usize)>,
}

/// One reason a board is not a solution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Problem {
    /// Two queens attack each other along `line` ("row", "column" or "diagonal").
    Attack {
        /// How they attack: "row", "column" or "diagonal".
        line: &'static str,
        /// The two queens, 1-based `[row, col]`.
        queens: [[usize; 2]; 2],
    },
    /// A row without a queen (1-based).
    EmptyRow {
        /// The row, 1-based.
        row: usize,
    },
    /// A queen outside the board (1-based `[row, col]`).
    OffBoard {
        /// The queen, 1-based `[row, col]`.
        queen: [usize; 2],
    },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Attack {
                line,
                queens: [a, b],
            } => {
                let on = match *line {
                    "row" => format!("share row {}", a[0]),
                    "column" => format!("share column {}", a[1]),
                    _ => "are on the same diagonal".to_string(),
                };
                write!(f, "queens {}:{} and {}:{} {on}", a[0], a[1], b[0], b[1])
            }
            Problem::EmptyRow { row } => write!(f, "row {row} has no queen"),
            Problem::OffBoard { queen: [r, c] } => write!(f, "queen {r}:{c} is off the board"),
        }
    }
}

/// Every reason `board` is not a solution (empty for a solution), in O(n + queens).
pub fn problems(board: &Board) -> Vec<Problem> {
    problems_up_to(board, usize::MAX).0
}

/// The first `max` reasons `board` is not a solution, and how many there are in all: the
/// memory stays small for a huge board full of attacks.
pub fn problems_up_to(board: &Board, max: usize) -> (Vec<Problem>, usize) {
    let n = board.n;
    // First pass: one bit per row, column and diagonal (memory a 64th of a list of indexes),
    // every problem counted, and the first `max` attacks' second queens and lines noted.
    let mut seen = Lines::new(n);
    let mut attacks: Vec<(usize, usize)> = Vec::new(); // (queen, line 0..4)
    let mut all = 0usize;
    for (i, &(r, c)) in board.queens.iter().enumerate() {
        if r >= n || c >= n {
            all += 1;
            continue;
        }
        for (k, key) in keys(n, r, c).into_iter().enumerate() {
            if seen.set(k, key) {
                all += 1;
                if attacks.len() < max {
                    attacks.push((i, k));
                }
            }
        }
    }
    let empty = (0..n).filter(|&r| !seen.get(0, r)).count();
    all += empty;
    // Second pass, for the attacks kept alone: the queen each one's second queen meets (the
    // last one before it on the line), from an index of only the lines they lie on.
    let mut last: std::collections::HashMap<(usize, usize), usize> = attacks
        .iter()
        .map(|&(i, k)| {
            let (r, c) = board.queens[i];
            ((k, keys(n, r, c)[k]), usize::MAX)
        })
        .collect();
    let mut met = attacks.iter().peekable();
    let mut out = Vec::new();
    let one = |q: (usize, usize)| [q.0 + 1, q.1 + 1];
    const LINES: [&str; 4] = ["row", "column", "diagonal", "diagonal"];
    for (i, &(r, c)) in board.queens.iter().enumerate() {
        if r >= n || c >= n {
            if out.len() < max {
                out.push(Problem::OffBoard {
                    queen: [r.saturating_add(1), c.saturating_add(1)],
                });
            }
            continue;
        }
        for (k, key) in keys(n, r, c).into_iter().enumerate() {
            let Some(j) = last.get_mut(&(k, key)) else {
                continue;
            };
            if met.peek() == Some(&&(i, k)) {
                met.next();
                if out.len() < max {
                    out.push(Problem::Attack {
                        line: LINES[k],
                        queens: [one(board.queens[*j]), one((r, c))],
                    });
                }
            }
            *j = i;
        }
    }
    out.extend(
        (0..n)
            .filter(|&r| !seen.get(0, r))
            .take(max.saturating_sub(out.len()))
            .map(|r| Problem::EmptyRow { row: r + 1 }),
    );
    (out, all)
}

/// The row, column and two diagonals of square (`r`, `c`) of an `n` board.
fn keys(n: usize, r: usize, c: usize) -> [usize; 4] {
    [r, c, r + c, c + n - 1 - r]
}

/// One bit for each row, column and diagonal of an `n` board: whether a queen is on it.
struct Lines([Vec<u64>; 4]);

impl Lines {
    fn new(n: usize) -> Lines {
        let words = |k: usize| vec![0u64; k.div_ceil(64)];
        Lines([words(n), words(n), words(2 * n), words(2 * n)])
    }

    fn get(&self, k: usize, key: usize) -> bool {
        self.0[k][key / 64] >> (key % 64) & 1 == 1
    }

    /// Marks line `key` of kind `k`; whether a queen was on it already.
    fn set(&mut self, k: usize, key: usize) -> bool {
        let was = self.get(k, key);
        self.0[k][key / 64] |= 1 << (key % 64);
        was
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clashes_are_named() {
        let e = |qs: &[(usize, usize)]| placements(8, qs).unwrap_err().to_string();
        assert!(e(&[(8, 0)]).contains("queen 9:1 is off the 8×8 board"));
        assert!(e(&[(0, 0), (0, 4)]).contains("queens 1:1 and 1:5 share row 1"));
        assert!(e(&[(0, 2), (5, 2)]).contains("share column 3"));
        assert!(e(&[(0, 0), (2, 2)]).contains("1:1 and 3:3 attack each other on a diagonal"));
        assert!(e(&[(1, 1), (1, 1)]).contains("placed twice"));
        assert_eq!(placements(8, &[(3, 1), (0, 0)]), Ok(vec![(0, 0), (3, 1)]));
        let z = placements_as(8, &[(8, 0)], 0).unwrap_err().to_string();
        assert!(z.contains("queen 8:0 is off the 8×8 board: rows and columns go from 0 to 7"));
        assert!(placements(0, &[(0, 0)]).is_err());
    }

    #[test]
    fn is_solution_rejects_attacks() {
        assert!(is_solution(&[1, 3, 0, 2]));
        assert!(!is_solution(&[0, 1, 2, 3]));
        assert!(!is_solution(&[0, 0, 1, 2]));
        assert!(!is_solution(&[0, 2, 4]));
        assert!(peaceful(&[(0, 1), (1, 3)]));
        assert!(!peaceful(&[(0, 1), (2, 3)]));
    }

    #[test]
    fn attacks_and_gaps_are_named() {
        let b = Board {
            n: 4,
            queens: vec![(0, 0), (1, 1), (2, 2), (3, 2)],
        };
        let p: Vec<String> = problems(&b).iter().map(|p| p.to_string()).collect();
        assert!(p.contains(&"queens 1:1 and 2:2 are on the same diagonal".to_string()));
        assert!(p.contains(&"queens 3:3 and 4:3 share column 3".to_string()));
        let g = Board {
            n: 3,
            queens: vec![(0, 0), (2, 1)],
        };
        let p: Vec<String> = problems(&g).iter().map(|p| p.to_string()).collect();
        assert_eq!(p, vec!["row 2 has no queen"]);
        let off = Board {
            n: 2,
            queens: vec![(0, 0), (5, 1), (1, usize::MAX)],
        };
        let p: Vec<String> = problems(&off).iter().map(|p| p.to_string()).collect();
        assert!(
            p.contains(&"queen 6:2 is off the board".to_string()),
            "{p:?}"
        );
        assert!(p.contains(&"row 2 has no queen".to_string()), "{p:?}");
    }

    /// The problems as the first version named them: the last queen seen on each line, kept
    /// in a list of indexes (4 words per line).
    fn by_index_lists(board: &Board, max: usize) -> (Vec<Problem>, usize) {
        let n = board.n;
        let (mut out, mut all) = (Vec::new(), 0);
        let mut last = [
            vec![None; n],
            vec![None; n],
            vec![None; 2 * n],
            vec![None; 2 * n],
        ];
        let one = |q: (usize, usize)| [q.0 + 1, q.1 + 1];
        for (i, &(r, c)) in board.queens.iter().enumerate() {
            if r >= n || c >= n {
                all += 1;
                if out.len() < max {
                    out.push(Problem::OffBoard {
                        queen: [r.saturating_add(1), c.saturating_add(1)],
                    });
                }
                continue;
            }
            let lines = ["row", "column", "diagonal", "diagonal"];
            for (k, key) in keys(n, r, c).into_iter().enumerate() {
                if let Some(j) = last[k][key] {
                    all += 1;
                    if out.len() < max {
                        out.push(Problem::Attack {
                            line: lines[k],
                            queens: [one(board.queens[j]), one((r, c))],
                        });
                    }
                }
                last[k][key] = Some(i);
            }
        }
        for (r, q) in last[0].iter().enumerate() {
            if q.is_none() {
                all += 1;
                if out.len() < max {
                    out.push(Problem::EmptyRow { row: r + 1 });
                }
            }
        }
        (out, all)
    }

    /// The problems found in two passes over one bit per line are the ones a list of indexes
    /// finds, in the same order, cut at the same `max`.
    #[test]
    fn two_passes_name_what_an_index_list_names() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m as u64) as usize
        };
        for _ in 0..2000 {
            let n = 1 + next(9);
            let queens = (0..next(2 * n + 1))
                .map(|_| (next(n + 1), next(n + 1)))
                .collect();
            let b = Board { n, queens };
            for max in [0, 1, 3, usize::MAX] {
                assert_eq!(
                    problems_up_to(&b, max),
                    by_index_lists(&b, max),
                    "{b:?} {max}"
                );
            }
        }
    }
}
