//! Pre-placed queens (`--place ROW:COL`, `--first-queen COL`): parsing and checking.
//!
//! On the command line coordinates are 1-based (`1:1` is the top-left square); in the library
//! they are 0-based `(row, col)` pairs, as everywhere else.

use crate::error::{Error, Result};
use crate::plan::attacks;

/// Parses one `ROW:COL` square as typed (1-based, or 0-based with `--zero-based`); the
/// conversion and the range check against the board are done by [`from_user`].
pub fn parse_square(s: &str) -> std::result::Result<(usize, usize), String> {
    let bad = || format!("'{s}' is not a square: write ROW:COL with whole numbers, e.g. 1:5");
    let (r, c) = s.trim().split_once(':').ok_or_else(bad)?;
    let r: usize = r.trim().parse().map_err(|_| bad())?;
    let c: usize = c.trim().parse().map_err(|_| bad())?;
    Ok((r, c))
}

/// Parses a `--first-queen` column as typed.
pub fn parse_column(s: &str) -> std::result::Result<usize, String> {
    s.trim().parse::<usize>().map_err(|_| {
        format!("'{s}' is not a column: give a whole number from 1 (the leftmost column) to N")
    })
}

/// Writes a 0-based square as the user writes it: `ROW:COL`, counting from `base` (1, or 0
/// with `--zero-based`).
pub fn show(q: (usize, usize), base: usize) -> String {
    format!("{}:{}", q.0 + base, q.1 + base)
}

/// Writes 1-based `[row, col]` pairs as `ROW:COL ROW:COL ...`.
pub fn show_all(placed: &[[usize; 2]]) -> String {
    let v: Vec<String> = placed
        .iter()
        .map(|q| format!("{}:{}", q[0], q[1]))
        .collect();
    v.join(" ")
}

/// Converts squares typed by the user (counting from `base`) to 0-based ones and checks them
/// with [`check_as`].
pub fn from_user(n: usize, typed: &[(usize, usize)], base: usize) -> Result<Vec<(usize, usize)>> {
    let mut qs = Vec::with_capacity(typed.len());
    for &(r, c) in typed {
        if r < base || c < base {
            return Err(Error::Placement(format!(
                "'{r}:{c}' is not a square: rows and columns count from 1 (1:1 is the top-left \
                 square; with --zero-based they count from 0)"
            )));
        }
        qs.push((r - base, c - base));
    }
    check_as(n, &qs, base)
}

/// Checks placements (0-based) on an `n` board: every queen on the board, no two in one
/// row, none attacking another. Returns them sorted by row. The error names the queen off the
/// board or the first two queens that clash, and how, in 1-based coordinates.
pub fn check(n: usize, queens: &[(usize, usize)]) -> Result<Vec<(usize, usize)>> {
    check_as(n, queens, 1)
}

/// [`check`], naming queens counting from `base`.
pub fn check_as(n: usize, queens: &[(usize, usize)], base: usize) -> Result<Vec<(usize, usize)>> {
    let (lo, hi) = (base, n - 1 + base);
    for &q in queens {
        if q.0 >= n || q.1 >= n {
            return Err(Error::Placement(format!(
                "queen {} is off the {n}×{n} board: rows and columns go from {lo} to {hi}",
                show(q, base)
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
            } else if attacks((a.0 as u32, a.1 as u32), (b.0 as u32, b.1 as u32)) {
                "attack each other on a diagonal".to_string()
            } else {
                continue;
            };
            return Err(Error::Placement(format!(
                "queens {} and {} {how}: placed queens must not attack each other",
                show(a, base),
                show(b, base)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_one_based() {
        assert_eq!(parse_square("1:5"), Ok((1, 5)));
        assert_eq!(parse_square(" 8 : 8 "), Ok((8, 8)));
        assert!(parse_square("3").is_err());
        assert!(parse_square("a:b").is_err());
        assert_eq!(parse_column("7"), Ok(7));
        assert!(parse_column("x").is_err());
        assert_eq!(from_user(8, &[(1, 5)], 1), Ok(vec![(0, 4)]));
        assert_eq!(from_user(8, &[(0, 4)], 0), Ok(vec![(0, 4)]));
        assert!(from_user(8, &[(0, 3)], 1)
            .unwrap_err()
            .to_string()
            .contains("count from 1"));
        let e = from_user(8, &[(0, 0), (2, 2)], 0).unwrap_err().to_string();
        assert!(e.contains("queens 0:0 and 2:2"), "{e}");
        let e = from_user(8, &[(8, 0)], 0).unwrap_err().to_string();
        assert!(e.contains("queen 8:0 is off the 8×8 board: rows and columns go from 0 to 7"));
    }

    #[test]
    fn clashes_are_named() {
        let e = |qs: &[(usize, usize)]| check(8, qs).unwrap_err().to_string();
        assert!(e(&[(8, 0)]).contains("queen 9:1 is off the 8×8 board"));
        assert!(e(&[(0, 0), (0, 4)]).contains("queens 1:1 and 1:5 share row 1"));
        assert!(e(&[(0, 2), (5, 2)]).contains("share column 3"));
        assert!(e(&[(0, 0), (2, 2)]).contains("1:1 and 3:3 attack each other on a diagonal"));
        assert!(e(&[(1, 1), (1, 1)]).contains("placed twice"));
        assert_eq!(check(8, &[(3, 1), (0, 0)]), Ok(vec![(0, 0), (3, 1)]));
    }
}
