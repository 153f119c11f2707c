//! `nqueens verify [FILE]`.

use super::exit::Exit;
use super::output::stdout;
use super::output::{print_json, print_rendered};
use nqueens::board::check::problems_up_to;
use nqueens::board::parse::parse_each;
use nqueens::board::shown::Show;
use nqueens::board::svg::{marked, Marks, SVG_MAX};
use nqueens::longrun::files::reading::read_bounded;
use nqueens::Error;
use nqueens::{Board, Problem};
use std::io::{Read, Write};
use std::path::PathBuf;

/// The most problems listed in text output (the count of all of them is always given).
const SHOW_PROBLEMS: usize = 20;

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads a board, or a stream of boards, in any output format of solve and \
    list (list, pairs, grid, dots, matrix, json) or as an OEIS-style permutation (15863724). \
    Boards are told apart as list separates them: one per line in the one-line formats, an \
    empty line between drawn boards; each gets a verdict as it is read, then a summary. At \
    most 64 MiB of input is read; memory stays about the input's size plus 16 bytes per queen of \
    the board being checked (a 16 MiB list of 8 million queens: about 150 MiB).\n\n\
    Exit codes: 0 every board a solution; 1 a board that is not a solution; 2 input that cannot \
    be read.\n\n\
    Examples:\n  nqueens solve 8 --format grid | nqueens verify\n  \
    echo '1 5 8 6 3 7 2 4' | nqueens verify\n  nqueens list 8 --format dots | nqueens verify\n  \
    nqueens verify board.txt --json"
)]
pub struct VerifyArgs {
    /// The file holding the board(s); standard input when left out (or `-`).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Read coordinates as 0-based (as written by `--zero-based`).
    #[arg(long)]
    pub zero_based: bool,
    /// One JSON object: {"n", "queens", "solution" (bool), "problem_count", "problems" [...]}
    /// for one board; {"boards", "solutions", "not_solutions", "unreadable", "results"} for
    /// several.
    #[arg(long, conflicts_with = "svg")]
    pub json: bool,
    /// Draw the board as an SVG picture instead of the verdict: its queens, and a red line
    /// between each pair that attack each other (the first 1,000). One board, N up to 256;
    /// the exit code is the verdict's.
    #[arg(long)]
    pub svg: bool,
}

/// The exit code of a readable board that is not a solution.
pub const NOT_A_SOLUTION: Exit = Exit::Failure;

/// The most input read: a board of several million queens, or a stream of a million boards.
const MAX_INPUT: u64 = 64 << 20;

/// The most problems kept per board (the count of all of them is always given).
const KEEP_PROBLEMS: usize = 1000;

/// What one board of the input is.
struct Verdict {
    line: usize,
    board: Result<(Board, Vec<Problem>, usize), Error>,
}

fn read_input(file: &Option<PathBuf>) -> Result<String, Error> {
    let (name, reader): (String, Box<dyn Read>) = match file {
        // A directory opens, then fails to read: bad input, as a missing file is.
        Some(p) if p.is_dir() => {
            return Err(Error::Input(format!(
                "cannot read {}: it is a directory; give a board file, or - for standard input",
                p.shown()
            )))
        }
        Some(p) if p.as_os_str() != "-" => (
            p.shown().to_string(),
            Box::new(std::fs::File::open(p).map_err(|e| {
                let why = match e.kind() {
                    std::io::ErrorKind::NotFound => "no such file".to_string(),
                    std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                    _ => e.to_string(),
                };
                Error::Input(format!("cannot read {}: {why}", p.shown()))
            })?),
        ),
        _ => ("standard input".into(), Box::new(std::io::stdin())),
    };
    read_bounded(reader, &name, "board", MAX_INPUT)
}

pub fn run(a: VerifyArgs) -> anyhow::Result<Exit> {
    let text = read_input(&a.file)?;
    // The first board is held until a second shows the input is a stream; then each board
    // is written as it is read and dropped, so memory stays about the input's size (and the
    // board being checked: 16 bytes per queen, one bit per row, column and diagonal).
    let mut first: Option<Verdict> = None;
    let mut stream: Option<Stream> = None;
    parse_each(&text, a.zero_based, |line, b| {
        let v = verdict(line, b);
        match (&mut stream, first.take()) {
            (Some(s), _) => s.add(&v),
            (None, None) => first = Some(v),
            (None, Some(one)) => {
                let mut s = Stream::new(a.json);
                s.add(&one);
                s.add(&v);
                stream = Some(s);
            }
        }
    });
    match (stream, first) {
        (Some(_), _) if a.svg => Err(Error::Usage(
            "--svg draws one board, and the input holds several: give one board".into(),
        )
        .into()),
        (Some(s), _) => s.finish(),
        (None, Some(one)) if a.svg => picture(&one, a.zero_based),
        (None, Some(one)) => single(&one, a.json),
        (None, None) => unreachable!("parse_each gives at least one board"),
    }
}

/// The verdict on one board read from line `line`.
fn verdict(line: usize, board: Result<Board, Error>) -> Verdict {
    Verdict {
        line,
        board: board.map(|b| {
            let (found, all) = problems_up_to(&b, KEEP_PROBLEMS);
            (b, found, all)
        }),
    }
}

/// One board: its verdict, as it always was.
fn single(v: &Verdict, json: bool) -> anyhow::Result<Exit> {
    let (board, found, all) = match &v.board {
        Ok(b) => b,
        Err(e) => return Err(e.clone().into()),
    };
    let ok = *all == 0;
    if json {
        print_json(&one_json(board, found, *all))?;
    } else if ok {
        let queens = if board.n == 1 { "queen" } else { "queens" };
        print_rendered(&format!(
            "solution: {0} {queens} on the {0}×{0} board, no two attack each other\n",
            board.n
        ))?;
    } else {
        let mut s = format!(
            "not a solution: {} queens on the {1}×{1} board, {2} problem{3}\n",
            board.queens.len(),
            board.n,
            all,
            if *all == 1 { "" } else { "s" }
        );
        for p in found.iter().take(SHOW_PROBLEMS) {
            s += &format!("  {p}\n");
        }
        if *all > SHOW_PROBLEMS {
            s += &format!(
                "  ... and {} more (--json lists up to {KEEP_PROBLEMS})\n",
                all - SHOW_PROBLEMS
            );
        }
        print_rendered(&s)?;
    }
    Ok(if ok { Exit::Success } else { NOT_A_SOLUTION })
}

/// One board as a picture, its attacking pairs joined; the verdict's exit code.
fn picture(v: &Verdict, zero_based: bool) -> anyhow::Result<Exit> {
    let (board, found, all) = match &v.board {
        Ok(b) => b,
        Err(e) => return Err(e.clone().into()),
    };
    if board.n > SVG_MAX {
        return Err(Error::Usage(format!(
            "a {0}×{0} board is too large for a legible picture: --svg goes up to N = {SVG_MAX}",
            board.n
        ))
        .into());
    }
    // Each shared line drawn as its queens joined one to the next.
    let attacks: Vec<[(usize, usize); 2]> = found
        .iter()
        .filter_map(|p| match p {
            Problem::Attack { queens, .. } => Some(queens.windows(2).map(|w| {
                let (a, b) = (w[0], w[1]);
                [(a[0] - 1, a[1] - 1), (b[0] - 1, b[1] - 1)]
            })),
            _ => None,
        })
        .flatten()
        .collect();
    let title = match all {
        0 => format!("a solution: {0} queens on the {0}×{0} board", board.n),
        k => format!(
            "not a solution: {k} problem{} on the {1}×{1} board ({2} attacking pair{3} in red)",
            if *k == 1 { "" } else { "s" },
            board.n,
            attacks.len(),
            if attacks.len() == 1 { "" } else { "s" }
        ),
    };
    let marks = Marks {
        placed: &[],
        attacks: &attacks,
    };
    print_rendered(&marked(board.n, &board.queens, zero_based, &title, marks))?;
    Ok(if *all == 0 {
        Exit::Success
    } else {
        NOT_A_SOLUTION
    })
}

fn one_json(board: &Board, found: &[Problem], all: usize) -> serde_json::Value {
    serde_json::json!({
        "n": board.n,
        "queens": board.queens.len(),
        "solution": all == 0,
        "problem_count": all,
        "problems": found,
    })
}

/// A stream's verdicts, written board by board as they come (text lines, or the `results`
/// of one JSON object), with what the summary needs: how many boards and solutions, and the
/// positions (from 1) of the bad and unreadable boards.
struct Stream {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    json: bool,
    /// The first write error: nothing more is written after it.
    failed: Option<std::io::Error>,
    boards: usize,
    good: usize,
    bad: Vec<usize>,
    /// The unreadable boards, and the line of the first.
    unreadable: Vec<usize>,
    first_unreadable_line: usize,
}

impl Stream {
    fn new(json: bool) -> Stream {
        let mut s = Stream {
            out: stdout::stream(),
            json,
            failed: None,
            boards: 0,
            good: 0,
            bad: Vec::new(),
            unreadable: Vec::new(),
            first_unreadable_line: 0,
        };
        if json {
            s.write("{\"results\":[");
        }
        s
    }

    fn write(&mut self, text: &str) {
        if self.failed.is_none() {
            if let Err(e) = self.out.write_all(text.as_bytes()) {
                self.failed = Some(e);
            }
        }
    }

    /// Writes the verdict on the next board.
    fn add(&mut self, v: &Verdict) {
        self.boards += 1;
        let pos = self.boards;
        let (text, mut j) = match &v.board {
            Ok((board, found, all)) => {
                let text = if *all == 0 {
                    self.good += 1;
                    format!("board {pos} (line {}): solution, N = {}\n", v.line, board.n)
                } else {
                    self.bad.push(pos);
                    let more = match *all {
                        1 => String::new(),
                        _ => format!(" (and {} more problems)", all - 1),
                    };
                    let first = found.first().map(|p| p.to_string()).unwrap_or_default();
                    format!(
                        "board {pos} (line {}): NOT A SOLUTION, N = {}: {first}{more}\n",
                        v.line, board.n,
                    )
                };
                (text, one_json(board, found, *all))
            }
            Err(e) => {
                if self.unreadable.is_empty() {
                    self.first_unreadable_line = v.line;
                }
                self.unreadable.push(pos);
                let text = format!("board {pos} (line {}): UNREADABLE: {e}\n", v.line);
                (text, serde_json::json!({ "error": e.to_string() }))
            }
        };
        if self.json {
            j["board"] = pos.into();
            j["line"] = v.line.into();
            let sep = if pos == 1 { "" } else { "," };
            self.write(&format!("{sep}{j}"));
        } else {
            self.write(&text);
        }
    }

    /// The closing summary line.
    fn summary(&self) -> String {
        let names = |v: &[usize]| {
            let shown: Vec<String> = v.iter().take(10).map(|p| p.to_string()).collect();
            let more = if v.len() > 10 { ", ..." } else { "" };
            format!("{}{more}", shown.join(", "))
        };
        let mut text = format!("{} boards: {} solutions", self.boards, self.good);
        if !self.bad.is_empty() {
            let (k, which) = (self.bad.len(), names(&self.bad));
            text += &format!(", {k} not a solution (board {which})");
        }
        if !self.unreadable.is_empty() {
            let (k, which) = (self.unreadable.len(), names(&self.unreadable));
            text += &format!(", {k} unreadable (board {which})");
        }
        text + "\n"
    }

    /// Writes the summary; exit 1 if a board is not a solution, 2 if one cannot be read.
    fn finish(mut self) -> anyhow::Result<Exit> {
        let end = if self.json {
            let tail = serde_json::json!({
                "boards": self.boards,
                "solutions": self.good,
                "not_solutions": self.bad,
                "unreadable": self.unreadable,
            })
            .to_string();
            format!("],{}\n", &tail[1..])
        } else {
            self.summary()
        };
        self.write(&end);
        let flushed = self.out.flush();
        if let Some(e) = self.failed.take().map_or(flushed.err(), Some) {
            return Err(Error::io("cannot write the result to stdout", e).into());
        }
        print_rendered("")?;
        if let Some(&first) = self.unreadable.first() {
            return Err(Error::Input(format!(
                "board {first} of the input (line {}) cannot be read",
                self.first_unreadable_line
            ))
            .into());
        }
        Ok(if self.bad.is_empty() {
            Exit::Success
        } else {
            NOT_A_SOLUTION
        })
    }
}
