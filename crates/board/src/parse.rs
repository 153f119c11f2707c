//! Reading a board written in any of the output formats ([`super::format`]).
//!
//! Accepted (the format is recognised from the text):
//! - `list`: one line of columns, one per row, `1 5 8 6 3 7 2 4` (commas and brackets allowed);
//!   a single run of digits such as `15863724` is read as one column per digit (OEIS style,
//!   N <= 9);
//! - `pairs`: `(1,1) (2,5) ...`, one `(row,col)` per queen;
//! - `grid`: the boxed board, `| Q |   |` rows between rule lines;
//! - `dots`: rows of `Q` and `.`; `matrix`: rows of `1` and `0` (spaces between squares optional);
//! - `json`: `{"n":8,"solution":[1,5,8,6,3,7,2,4]}` or a bare array.
//!
//! Coordinates are 1-based unless read with `zero_based`. Empty lines and lines starting with
//! `#` are ignored.

use super::check::Board;
use super::json::parse_json;
use super::tokens::{bad, in_range, in_range_as, number};
use crate::error::{Error, Result};

/// Reads a board from text in any accepted format (see the module docs).
pub fn parse(text: &str, zero_based: bool) -> Result<Board> {
    // The lines that hold something, read again by each pass rather than collected: a board
    // of millions of rows costs its queens' memory, not a vector per line.
    let lines = || {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
    };
    let one_line = lines().nth(1).is_none();
    let Some((first_no, first)) = lines().next() else {
        return Err(Error::Input(
            "no board in the input: expected a solution as `1 5 8 6 3 7 2 4`, pairs, a grid, \
             dots, a 0/1 matrix or JSON"
                .into(),
        ));
    };
    let off = usize::from(!zero_based);
    let board = if first.starts_with('{') || first.starts_with('[') {
        parse_json(&lines().collect::<Vec<_>>(), off)
    } else if first.contains('(') {
        parse_pairs(lines(), off)
    } else if lines().any(|(_, l)| l.contains('|')) {
        parse_squares(lines, true)
    } else if one_line && zero_based && first == "1" {
        // The 1×1 board's 0/1 matrix; as a 0-based list it would name column 1, off the board.
        parse_squares(lines, false)
    } else if one_line && first.chars().any(|c| c.is_ascii_digit()) {
        parse_list(first_no, first, off)
    } else {
        parse_squares(lines, false)
    }?;
    if board.n == 0 {
        return Err(bad(
            first_no,
            "the board is empty: expected at least one column",
        ));
    }
    Ok(board)
}

/// Reads every board of a stream: what `list` writes in any format, or one board. Boards
/// are told apart as `list` separates them: one per line in the one-line formats (list,
/// pairs, JSON lines), an empty line between drawn boards (grid, dots, matrix). Returns each
/// board (or why it cannot be read) with the line it starts on; an input without a board
/// gives one error.
pub fn parse_stream(text: &str, zero_based: bool) -> Vec<(usize, Result<Board>)> {
    let mut out = Vec::new();
    parse_each(text, zero_based, |no, board| out.push((no, board)));
    out
}

/// [`parse_stream`] one board at a time: calls `each(line, board)` for every board as it is
/// read, so that a caller that does not keep them holds one board at a time. An input
/// without a board gives one error.
pub fn parse_each(text: &str, zero_based: bool, mut each: impl FnMut(usize, Result<Board>)) {
    let mut boards = 0usize;
    let mut flush = |block: Option<Block>| {
        let Some(block) = block else { return };
        let mut one = |no: usize, text: &str| {
            boards += 1;
            each(no, parse(text, zero_based).map_err(|e| renumber(e, no - 1)));
        };
        match split_block(block) {
            Split::Whole => one(block.first, block.text),
            Split::EachLine => block.lines().for_each(|(no, l)| one(no, l)),
        }
    };
    // The open block: where its first line starts in `text`, and its number.
    let mut open: Option<(usize, usize)> = None;
    let mut at = 0;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let l = raw.trim();
        if l.is_empty() {
            flush(open.take().map(|(start, first)| Block {
                text: &text[start..at],
                first,
            }));
        } else if open.is_none() && !l.starts_with('#') {
            open = Some((at, i + 1));
        }
        at += raw.len();
    }
    flush(open.map(|(start, first)| Block {
        text: &text[start..],
        first,
    }));
    if boards == 0 {
        each(1, parse("", zero_based));
    }
}

/// A board parsed alone numbers its lines from 1: its errors get the stream's line numbers
/// (`offset` more).
fn renumber(e: Error, offset: usize) -> Error {
    let Error::Input(m) = e else {
        return e;
    };
    let line = m
        .strip_prefix("line ")
        .and_then(|r| r.split_once(':'))
        .and_then(|(k, rest)| Some((k.parse::<usize>().ok()?, rest)));
    match line {
        Some((k, rest)) => Error::Input(format!("line {}:{rest}", k + offset)),
        None => Error::Input(m),
    }
}

/// Consecutive non-empty lines of a stream: its text (comment lines included, skipped when
/// read) and the number of its first line. Held as a slice of the input, so a block of
/// millions of one-line boards costs no memory per line.
#[derive(Debug, Clone, Copy)]
struct Block<'a> {
    text: &'a str,
    first: usize,
}

impl<'a> Block<'a> {
    /// Its lines that hold something, trimmed, with their numbers in the stream.
    fn lines(self) -> impl Iterator<Item = (usize, &'a str)> + Clone {
        self.text
            .lines()
            .enumerate()
            .map(move |(i, l)| (self.first + i, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
    }
}

/// How a block holds its boards.
enum Split {
    /// One board over all its lines (grid, dots, matrix, a JSON document).
    Whole,
    /// A board per line (list, pairs, JSON lines).
    EachLine,
}

/// How a block of consecutive lines holds its boards (see [`parse_stream`]).
fn split_block(block: Block) -> Split {
    let lines = block.lines();
    let count = lines.clone().count();
    let Some((_, first)) = lines.clone().next() else {
        return Split::Whole;
    };
    let each_if = |yes: bool| if yes { Split::EachLine } else { Split::Whole };
    if count == 1 {
        return Split::Whole;
    }
    if first.starts_with('{') || first.starts_with('[') {
        // JSON lines (their first line a whole document: a damaged line later is a board of
        // its own, named with its line), or one JSON document over several lines.
        return each_if(serde_json::from_str::<serde::de::IgnoredAny>(first).is_ok());
    }
    if first.contains('(') {
        // Pairs: a board per line, unless each line holds one queen.
        return each_if(lines.clone().all(|(_, l)| l.matches('(').count() >= 2));
    }
    if lines.clone().any(|(_, l)| l.contains('|')) {
        return Split::Whole;
    }
    let listy = |l: &str| {
        l.chars()
            .all(|c| c.is_ascii_digit() || c.is_whitespace() || matches!(c, ',' | '[' | ']'))
    };
    // A matrix row: 0s and 1s, as many as the block has lines. Decided by the first line, so
    // that one damaged line of a stream of lists is a board of its own (named with its line),
    // not a reason to read the whole block as one board.
    let matrix_row = |l: &str| {
        l.chars()
            .all(|c| matches!(c, '0' | '1') || c.is_whitespace())
            && l.chars().filter(|c| !c.is_whitespace()).count() == count
    };
    each_if(!matrix_row(first) && listy(first))
}

fn parse_list(line: usize, text: &str, off: usize) -> Result<Board> {
    let body = text.trim_start_matches('[').trim_end_matches(']');
    // Read as it is split, not collected first: a board of millions of queens costs its
    // queens' memory and nothing more.
    let toks = || {
        body.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
    };
    let mut two = toks().take(2);
    let (first, alone) = (two.next().unwrap_or(""), two.next().is_none());
    if alone && first.len() > 9 {
        return Err(bad(
            line,
            format!(
                "'{first}' is not a board: separate the columns with spaces or commas (a run \
                 of digits is read as one column per digit only for boards up to 9×9)"
            ),
        ));
    }
    let queens: Vec<(usize, usize)> = if alone && first.len() > 1 {
        // OEIS style: one digit per row.
        first
            .chars()
            .enumerate()
            .map(|(r, ch)| Ok((r, number(line, &ch.to_string(), off, "column")?)))
            .collect::<Result<_>>()?
    } else {
        toks()
            .enumerate()
            .map(|(r, t)| Ok((r, number(line, t, off, "column")?)))
            .collect::<Result<_>>()?
    };
    let n = queens.len();
    let b = Board { n, queens };
    let hint = format!(
        " (a list gives one column per row: {n} columns make a {n}×{n} board; is a row missing?)"
    );
    in_range_as(line, b, off, &hint)
}

fn parse_pairs<'a>(lines: impl Iterator<Item = (usize, &'a str)>, off: usize) -> Result<Board> {
    let mut queens = Vec::new();
    let mut last = 1;
    for (no, l) in lines {
        last = no;
        let mut rest = l;
        while let Some(open) = rest.find('(') {
            let junk = rest[..open].trim_matches(|c: char| c.is_whitespace() || c == ',');
            if !junk.is_empty() {
                return Err(bad(
                    no,
                    format!(
                        "'{}' is not a pair: expected (ROW,COL)",
                        junk.escape_debug()
                    ),
                ));
            }
            let close = rest[open..]
                .find(')')
                .ok_or_else(|| bad(no, "a '(' without its ')': expected pairs like (1,5)"))?
                + open;
            let inner = &rest[open + 1..close];
            let (r, c) = inner
                .split_once(',')
                .ok_or_else(|| bad(no, format!("'({inner})' is not a pair: expected (ROW,COL)")))?;
            queens.push((
                number(no, r.trim(), off, "row")?,
                number(no, c.trim(), off, "column")?,
            ));
            rest = &rest[close + 1..];
        }
        if !rest.trim().is_empty() {
            return Err(bad(
                no,
                format!(
                    "'{}' is not a pair: expected (ROW,COL)",
                    rest.trim().escape_debug()
                ),
            ));
        }
    }
    // The board is as large as its pairs reach: a missing queen is an empty row, not a
    // queen off a smaller board (unless the pairs reach far beyond their number).
    let reach = queens.iter().map(|&(r, c)| r.max(c) + 1).max().unwrap_or(0);
    let n = if reach <= 2 * queens.len() + 1 {
        reach.max(queens.len())
    } else {
        queens.len()
    };
    let b = Board { n, queens };
    in_range(last, b, off)
}

/// Grid (`| Q |   |` rows), dots (`Q . .`) or matrix (`1 0 0`) rows: one line per row. Two
/// passes over the lines (`lines` gives them again): the rows counted, then each read and
/// its queens kept, so that nothing but the queens is held.
fn parse_squares<'a, I>(lines: impl Fn() -> I, grid: bool) -> Result<Board>
where
    I: Iterator<Item = (usize, &'a str)>,
{
    let is_rule = |l: &str| grid && l.chars().all(|c| c == '-' || c == '+');
    let n = lines().filter(|(_, l)| !is_rule(l)).count();
    let mut queens = Vec::new();
    for (r, (no, l)) in lines().filter(|(_, l)| !is_rule(l)).enumerate() {
        let mut squares = 0usize;
        let mut square = |q: bool| {
            if q {
                queens.push((r, squares));
            }
            squares += 1;
        };
        if grid {
            let inner = l.trim_start_matches('|').trim_end_matches('|');
            for cell in inner.split('|') {
                match cell.trim() {
                    "" => square(false),
                    "Q" | "q" | "(Q)" | "(q)" => square(true),
                    other => {
                        return Err(bad(
                            no,
                            format!("'{other}' is not a square: expected 'Q', '(Q)' or blank"),
                        ))
                    }
                }
            }
        } else {
            for ch in l.chars().filter(|c| !c.is_whitespace()) {
                match ch {
                    'Q' | 'q' | '@' | '1' => square(true),
                    '.' | '0' => square(false),
                    other => {
                        return Err(bad(
                            no,
                            format!(
                                "'{other}' is not a square: expected Q, @ or . (dots), 1 or 0 \
                                 (matrix)"
                            ),
                        ))
                    }
                }
            }
        }
        if squares != n {
            let hint = if squares < n && n.is_multiple_of(squares.max(1)) {
                format!(
                    " (do the {n} lines hold {} boards of {} rows? separate boards with an \
                     empty line)",
                    n / squares.max(1),
                    squares
                )
            } else {
                String::new()
            };
            return Err(bad(
                no,
                format!(
                    "row {} has {squares} squares, but the board has {n} rows: expected {n} \
                     squares{hint}",
                    r + 1
                ),
            ));
        }
    }
    Ok(Board { n, queens })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::problems;
    use crate::format::{render, Format};

    #[test]
    fn every_output_format_reads_back() {
        let s = vec![0, 4, 7, 5, 2, 6, 1, 3];
        let want: Vec<(usize, usize)> = s.iter().copied().enumerate().collect();
        for f in [
            Format::List,
            Format::Pairs,
            Format::Grid,
            Format::Dots,
            Format::Matrix,
            Format::Json,
        ] {
            for zero in [false, true] {
                let b = parse(&render(&s, f, zero), zero).unwrap();
                assert_eq!((b.n, &b.queens), (8, &want), "{f:?}");
                assert!(problems(&b).is_empty());
            }
        }
        assert_eq!(parse("15863724", false).unwrap().queens, want);
    }

    #[test]
    fn unreadable_input_names_the_line() {
        let e = |t: &str| parse(t, false).unwrap_err().to_string();
        assert!(e("").contains("no board"));
        assert!(e("1 5 x").contains("line 1: 'x' is not a column"));
        assert!(e("1 9 2").contains("queen 2:9 is off the 3×3 board"));
        assert!(e("Q . .\n. .").contains("line 1: row 1 has 3 squares, but the board has 2 rows"));
        assert!(e("# comment\nQ . Z").contains("line 2: 'Z' is not a square"));
        assert!(e("{\"n\":4,\"solution\":null}").contains("null"));
        assert!(e("(1,2) (2").contains("without its ')'"));
        assert!(e("[]").contains("the board is empty"));
        assert!(e("{\"n\":-1,\"solution\":[1]}").contains("\"n\" is -1"));
        assert!(e("1234567890").contains("only for boards up to 9×9"));
    }
}
