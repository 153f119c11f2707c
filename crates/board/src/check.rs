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
    let show = |q: (usize, usize)| crate::format::square(q, base);
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
    /// Two or more queens attack each other along one `line` ("row", "column" or
    /// "diagonal"): every queen on it is named, in reading order, up to [`NAMED_ON_A_LINE`].
    Attack {
        /// How they attack: "row", "column" or "diagonal".
        line: &'static str,
        /// The queens on the line, 1-based `[row, col]` (at least two).
        queens: Vec<[usize; 2]>,
        /// How many more queens are on the line than are named.
        #[serde(skip_serializing_if = "is_zero")]
        more: usize,
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

/// The most queens a problem names on one line (the count of the others is given).
pub const NAMED_ON_A_LINE: usize = 16;

fn is_zero(x: &usize) -> bool {
    *x == 0
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Attack { line, queens, more } => {
                let a = queens[0];
                let on = match *line {
                    "row" => format!("share row {}", a[0]),
                    "column" => format!("share column {}", a[1]),
                    _ => "are on the same diagonal".to_string(),
                };
                let mut names: Vec<String> = queens
                    .iter()
                    .map(|q| format!("{}:{}", q[0], q[1]))
                    .collect();
                if *more > 0 {
                    names.push(format!("{more} more"));
                }
                let last = names.pop().unwrap_or_default();
                write!(f, "queens {} and {last} {on}", names.join(", "))
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

/// The first `max` reasons `board` is not a solution, and how many there are in all: a line
/// (row, column or diagonal) that two or more queens share is one reason, naming every queen on
/// it (up to [`NAMED_ON_A_LINE`]); so is an empty row and a queen off the board. The memory
/// stays small for a huge board full of attacks: a few bits per line, and the queens of the
/// lines named.
pub fn problems_up_to(board: &Board, max: usize) -> (Vec<Problem>, usize) {
    let n = board.n;
    // First pass: one bit per line for "a queen is on it" and one for "two are", every
    // problem counted, and the first `max` shared lines noted, as they become shared.
    let (mut seen, mut shared) = (Lines::new(n), Lines::new(n));
    let mut named: Vec<(usize, usize)> = Vec::new(); // (line kind 0..4, line)
    let mut all = 0usize;
    for &(r, c) in &board.queens {
        if r >= n || c >= n {
            all += 1;
            continue;
        }
        for (k, key) in keys(n, r, c).into_iter().enumerate() {
            if seen.set(k, key) && !shared.set(k, key) {
                all += 1;
                if named.len() < max {
                    named.push((k, key));
                }
            }
        }
    }
    let empty = (0..n).filter(|&r| !seen.get(0, r)).count();
    all += empty;
    // Second pass: the queens of the lines noted, in reading order.
    let index: std::collections::HashMap<(usize, usize), usize> = named
        .iter()
        .enumerate()
        .map(|(i, &line)| (line, i))
        .collect();
    const LINES: [&str; 4] = ["row", "column", "diagonal", "diagonal"];
    let mut attacks: Vec<Problem> = named
        .iter()
        .map(|&(k, _)| Problem::Attack {
            line: LINES[k],
            queens: Vec::new(),
            more: 0,
        })
        .collect();
    let mut out = Vec::new();
    for &(r, c) in &board.queens {
        if r >= n || c >= n {
            if out.len() < max {
                out.push(Problem::OffBoard {
                    queen: [r.saturating_add(1), c.saturating_add(1)],
                });
            }
            continue;
        }
        for (k, key) in keys(n, r, c).into_iter().enumerate() {
            if let Some(&i) = index.get(&(k, key)) {
                if let Problem::Attack { queens, more, .. } = &mut attacks[i] {
                    if queens.len() < NAMED_ON_A_LINE {
                        queens.push([r + 1, c + 1]);
                    } else {
                        *more += 1;
                    }
                }
            }
        }
    }
    attacks.truncate(max.saturating_sub(out.len()));
    out.extend(attacks);
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
        assert!(p.contains(&"queens 1:1, 2:2 and 3:3 are on the same diagonal".to_string()));
        assert!(p.contains(&"queens 3:3 and 4:3 share column 3".to_string()));
        // Every queen on a shared line is named, grouped by the line.
        let d = Board {
            n: 8,
            queens: (0..8).map(|r| (r, r)).collect(),
        };
        let p: Vec<String> = problems(&d).iter().map(|p| p.to_string()).collect();
        assert_eq!(
            p,
            ["queens 1:1, 2:2, 3:3, 4:4, 5:5, 6:6, 7:7 and 8:8 are on the same diagonal"]
        );
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

    /// The problems as a plain reading finds them: every line's queens listed in a map, a
    /// line a problem once its second queen comes (in reading order, then by kind of line).
    fn by_lists(board: &Board, max: usize) -> (Vec<Problem>, usize) {
        let n = board.n;
        let mut lines: std::collections::HashMap<(usize, usize), Vec<[usize; 2]>> =
            Default::default();
        let (mut off, mut order, mut all) = (Vec::new(), Vec::new(), 0);
        for &(r, c) in &board.queens {
            if r >= n || c >= n {
                all += 1;
                off.push(Problem::OffBoard {
                    queen: [r.saturating_add(1), c.saturating_add(1)],
                });
                continue;
            }
            for (k, key) in keys(n, r, c).into_iter().enumerate() {
                let v = lines.entry((k, key)).or_default();
                v.push([r + 1, c + 1]);
                if v.len() == 2 {
                    all += 1;
                    order.push((k, key));
                }
            }
        }
        let kinds = ["row", "column", "diagonal", "diagonal"];
        let mut out: Vec<Problem> = off.into_iter().take(max).collect();
        let attacks = order.iter().map(|line| {
            let q = &lines[line];
            Problem::Attack {
                line: kinds[line.0],
                queens: q.iter().copied().take(NAMED_ON_A_LINE).collect(),
                more: q.len().saturating_sub(NAMED_ON_A_LINE),
            }
        });
        let room = max.saturating_sub(out.len()).min(order.len()).min(max);
        out.extend(attacks.take(room));
        for r in 0..n {
            if !lines.contains_key(&(0, r)) {
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
                assert_eq!(problems_up_to(&b, max), by_lists(&b, max), "{b:?} {max}");
            }
        }
    }
}
