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
    let mut out = Vec::new();
    let mut all = 0usize;
    let mut push = |p: Problem| {
        all += 1;
        if out.len() < max {
            out.push(p);
        }
    };
    const NONE: u32 = u32::MAX;
    // The last queen seen on each row, column and diagonal (u32: a board that large would
    // not fit in memory anyway; larger indexes are treated as off the board).
    let mut last: [Vec<u32>; 4] = [
        vec![NONE; n],
        vec![NONE; n],
        vec![NONE; 2 * n],
        vec![NONE; 2 * n],
    ];
    let one = |q: (usize, usize)| [q.0 + 1, q.1 + 1];
    for (i, &(r, c)) in board.queens.iter().enumerate() {
        if r >= n || c >= n || i >= NONE as usize {
            push(Problem::OffBoard {
                queen: [r.saturating_add(1), c.saturating_add(1)],
            });
            continue;
        }
        let keys = [r, c, r + c, c + n - 1 - r];
        for (k, line) in ["row", "column", "diagonal", "diagonal"].iter().enumerate() {
            let j = last[k][keys[k]];
            if j != NONE {
                push(Problem::Attack {
                    line,
                    queens: [one(board.queens[j as usize]), one((r, c))],
                });
            }
            last[k][keys[k]] = i as u32;
        }
    }
    for (r, &q) in last[0].iter().enumerate() {
        if q == NONE {
            push(Problem::EmptyRow { row: r + 1 });
        }
    }
    (out, all)
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
}
