//! Writing boards: solutions (`cols[row]`, 0-based) in their text formats, and squares as
//! the user writes them.

use crate::named_enum;
use serde::Serialize;
use std::fmt::Write as _;

/// How a solution is written out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Format {
    /// The permutation, one column per row: `1 5 8 6 3 7 2 4`.
    List,
    /// Row-column pairs: `(1,1) (2,5) ...`.
    Pairs,
    /// The boxed board with `Q` in the queens' squares, as in textbooks.
    Grid,
    /// Compact rows of `Q` and `.`.
    Dots,
    /// Rows of 0/1.
    Matrix,
    /// One JSON object: `{"n":8,"solution":[1,5,8,6,3,7,2,4]}`.
    Json,
    /// A picture: an SVG document of the board (see [`super::svg`]); nothing reads it back.
    Svg,
}

named_enum!(Format, "format", {
    List => "list",
    Pairs => "pairs",
    Grid => "grid",
    Dots => "dots",
    Matrix => "matrix",
    Json => "json",
    Svg => "svg",
});

/// Writes `cols` in `format`; coordinates are 1-based unless `zero_based`. Multi-line formats
/// end with a newline, single-line ones do not.
pub fn render(cols: &[usize], format: Format, zero_based: bool) -> String {
    render_placed(cols, format, zero_based, &[])
}

/// The mark of a queen placed by hand in the grid, in place of ` Q ` (a ring, as in the
/// pictures).
pub const GRID_PLACED: &str = "(Q)";

/// The mark of a queen placed by hand in dots, in place of `Q`.
pub const DOTS_PLACED: char = '@';

/// Writes `cols` as [`render`] does, marking the queens of `placed` (0-based rows and
/// columns) as placed by hand where the format has room for a mark: [`GRID_PLACED`] in the
/// grid, [`DOTS_PLACED`] in dots (both read back as queens). The other text formats give the
/// queens only; the pictures draw the placed ones blue ([`super::svg::PLACED`]), through
/// [`super::svg::marked`].
pub fn render_placed(
    cols: &[usize],
    format: Format,
    zero_based: bool,
    placed: &[(usize, usize)],
) -> String {
    let is_placed = |r: usize, c: usize| placed.contains(&(r, c));
    let off = usize::from(!zero_based);
    let n = cols.len();
    let mut s = String::new();
    match format {
        Format::List => {
            let v: Vec<String> = cols.iter().map(|c| (c + off).to_string()).collect();
            s = v.join(" ");
        }
        Format::Pairs => {
            let v: Vec<String> = cols
                .iter()
                .enumerate()
                .map(|(r, c)| format!("({},{})", r + off, c + off))
                .collect();
            s = v.join(" ");
        }
        Format::Grid => {
            let rule = "-".repeat(4 * n + 1);
            let _ = writeln!(s, "{rule}");
            for (r, &c) in cols.iter().enumerate() {
                for x in 0..n {
                    s.push('|');
                    s.push_str(match x == c {
                        true if is_placed(r, c) => GRID_PLACED,
                        true => " Q ",
                        false => "   ",
                    });
                }
                let _ = writeln!(s, "|\n{rule}");
            }
        }
        Format::Dots | Format::Matrix => {
            let (q, e) = if format == Format::Dots {
                ("Q", ".")
            } else {
                ("1", "0")
            };
            let mark = DOTS_PLACED.to_string();
            let mark = if format == Format::Dots { &mark[..] } else { q };
            for (r, &c) in cols.iter().enumerate() {
                let at = |x| match x == c {
                    true if is_placed(r, c) => mark,
                    true => q,
                    false => e,
                };
                let v: Vec<&str> = (0..n).map(at).collect();
                let _ = writeln!(s, "{}", v.join(" "));
            }
        }
        Format::Json => {
            let v: Vec<usize> = cols.iter().map(|c| c + off).collect();
            s = serde_json::json!({ "n": n, "solution": v }).to_string();
        }
        Format::Svg => s = super::svg::board(cols, zero_based),
    }
    s
}

/// Writes a 0-based square as the user writes it: `ROW:COL`, counting from `base` (1, or 0
/// with `--zero-based`).
pub fn square(q: (usize, usize), base: usize) -> String {
    format!("{}:{}", q.0 + base, q.1 + base)
}

/// Writes 1-based `[row, col]` pairs as `ROW:COL ROW:COL ...`.
pub fn squares(placed: &[[usize; 2]]) -> String {
    let v: Vec<String> = placed
        .iter()
        .map(|q| format!("{}:{}", q[0], q[1]))
        .collect();
    v.join(" ")
}

/// A count with a comma every three digits (`4,457,401`), as the reports write large counts.
pub fn thousands(v: u128) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Whether the format spans several lines (then solutions are separated by a blank line).
pub fn is_multiline(format: Format) -> bool {
    matches!(
        format,
        Format::Grid | Format::Dots | Format::Matrix | Format::Svg
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placed_queens_are_marked_in_the_grid_and_dots_only() {
        let s = [1, 3, 0, 2];
        let placed = [(0, 1), (2, 0)];
        assert_eq!(
            render_placed(&s, Format::Dots, false, &placed),
            ". @ . .\n. . . Q\n@ . . .\n. . Q .\n"
        );
        let grid = render_placed(&s, Format::Grid, false, &placed);
        assert!(grid.contains("\n|   |(Q)|   |   |\n"), "{grid}");
        assert!(grid.contains("\n|(Q)|   |   |   |\n"), "{grid}");
        assert!(grid.contains("\n|   |   |   | Q |\n"), "{grid}");
        for f in [Format::Matrix, Format::List, Format::Json] {
            assert_eq!(render_placed(&s, f, false, &placed), render(&s, f, false));
        }
    }

    #[test]
    fn formats_of_the_4_queens_solution() {
        let s = [1, 3, 0, 2];
        assert_eq!(render(&s, Format::List, false), "2 4 1 3");
        assert_eq!(render(&s, Format::List, true), "1 3 0 2");
        assert_eq!(render(&s, Format::Pairs, false), "(1,2) (2,4) (3,1) (4,3)");
        assert_eq!(
            render(&s, Format::Dots, false),
            ". Q . .\n. . . Q\nQ . . .\n. . Q .\n"
        );
        assert_eq!(
            render(&s, Format::Matrix, false),
            "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n"
        );
        assert_eq!(
            render(&s, Format::Grid, false)
                .lines()
                .take(3)
                .collect::<Vec<_>>(),
            vec![
                "-----------------",
                "|   | Q |   |   |",
                "-----------------"
            ]
        );
        assert_eq!(
            render(&s, Format::Json, false),
            r#"{"n":4,"solution":[2,4,1,3]}"#
        );
    }
}
