//! What every text format's reader of boards shares: a token read as a coordinate, a board
//! checked to hold its queens, and errors that name the line.

use super::check::Board;
use crate::error::{Error, Result};

/// An error of the board read from line `line`.
pub(super) fn bad(line: usize, what: impl std::fmt::Display) -> Error {
    Error::Input(format!("line {line}: {what}"))
}

/// A whole number read from token `tok` of line `line`, counted from `off`; `what` names it
/// (`column`, `row`).
pub(super) fn number(line: usize, tok: &str, off: usize, what: &str) -> Result<usize> {
    match tok.parse::<usize>() {
        Ok(v) if v >= off => Ok(v - off),
        // A 0 where counting starts at 1: most likely a board written 0-based.
        Ok(0) => Err(bad(
            line,
            format!(
                "'{tok}' is not a {what}: expected a whole number from {off} (coordinates are \
                 {off}-based; for a board written 0-based, give `zero_based`)"
            ),
        )),
        _ => Err(bad(
            line,
            format!(
                "'{tok}' is not a {what}: expected a whole number from {off} (coordinates are \
                 {off}-based)"
            ),
        )),
    }
}

/// `b`, with every queen on its board: else an error naming the first that is not.
pub(super) fn in_range(line: usize, b: Board, off: usize) -> Result<Board> {
    in_range_as(line, b, off, "")
}

/// [`in_range`] with a hint added to the message.
pub(super) fn in_range_as(line: usize, b: Board, off: usize, hint: &str) -> Result<Board> {
    let n = b.n;
    if let Some(&(r, c)) = b.queens.iter().find(|&&(r, c)| r >= n || c >= n) {
        return Err(bad(
            line,
            format!(
                "queen {}:{} is off the {n}×{n} board: coordinates go from {off} to {}{hint}",
                r + off,
                c + off,
                n - 1 + off
            ),
        ));
    }
    Ok(b)
}
