//! `nqueens verify [FILE]`.

use super::print;
use nqueens::board::check::problems_up_to;
use nqueens::board::parse::parse_stream;
use nqueens::longrun::files::read_bounded;
use nqueens::Error;
use nqueens::{Board, Problem};
use std::io::Read;
use std::path::PathBuf;

/// The most problems listed in text output (the count of all of them is always given).
const SHOW_PROBLEMS: usize = 20;

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads a board, or a stream of boards, in any output format of solve and \
    list (list, pairs, grid, dots, matrix, json) or as an OEIS-style permutation (15863724). \
    Boards are told apart as list separates them: one per line in the one-line formats, an \
    empty line between drawn boards; each gets a verdict, then a summary. At most 64 MiB of \
    input is read.\n\n\
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
    #[arg(long)]
    pub json: bool,
}

/// The exit code of a readable board that is not a solution.
pub const NOT_A_SOLUTION: u8 = 1;

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
        Some(p) if p.as_os_str() != "-" => (
            p.display().to_string(),
            Box::new(
                std::fs::File::open(p)
                    .map_err(|e| Error::Input(format!("cannot read {}: {e}", p.display())))?,
            ),
        ),
        _ => ("standard input".into(), Box::new(std::io::stdin())),
    };
    read_bounded(reader, &name, "board", MAX_INPUT)
}

pub fn run(a: VerifyArgs) -> anyhow::Result<u8> {
    let text = read_input(&a.file)?;
    let verdicts: Vec<Verdict> = parse_stream(&text, a.zero_based)
        .into_iter()
        .map(|(line, b)| Verdict {
            line,
            board: b.map(|b| {
                let (found, all) = problems_up_to(&b, KEEP_PROBLEMS);
                (b, found, all)
            }),
        })
        .collect();
    if let [one] = &verdicts[..] {
        return single(one, a.json);
    }
    stream(&verdicts, a.json)
}

/// One board: its verdict, as it always was.
fn single(v: &Verdict, json: bool) -> anyhow::Result<u8> {
    let (board, found, all) = match &v.board {
        Ok(b) => b,
        Err(e) => return Err(e.clone().into()),
    };
    let ok = *all == 0;
    if json {
        print(&(one_json(board, found, *all).to_string() + "\n"))?;
    } else if ok {
        let queens = if board.n == 1 { "queen" } else { "queens" };
        print(&format!(
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
        print(&s)?;
    }
    Ok(if ok { 0 } else { NOT_A_SOLUTION })
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

/// The verdicts of a stream, board by board: the text lines, the JSON results, and the
/// positions (from 1) of the good, bad and unreadable boards.
#[derive(Default)]
struct Tally {
    text: String,
    results: Vec<serde_json::Value>,
    good: Vec<usize>,
    bad: Vec<usize>,
    unreadable: Vec<usize>,
}

impl Tally {
    /// Adds the verdict on board `pos`.
    fn add(&mut self, pos: usize, v: &Verdict) {
        match &v.board {
            Ok((board, found, all)) => {
                if *all == 0 {
                    self.good.push(pos);
                    self.text +=
                        &format!("board {pos} (line {}): solution, N = {}\n", v.line, board.n);
                } else {
                    self.bad.push(pos);
                    let more = match *all {
                        1 => String::new(),
                        _ => format!(" (and {} more problems)", all - 1),
                    };
                    let first = found.first().map(|p| p.to_string()).unwrap_or_default();
                    self.text += &format!(
                        "board {pos} (line {}): NOT A SOLUTION, N = {}: {first}{more}\n",
                        v.line, board.n,
                    );
                }
                let mut j = one_json(board, found, *all);
                j["board"] = pos.into();
                j["line"] = v.line.into();
                self.results.push(j);
            }
            Err(e) => {
                self.unreadable.push(pos);
                self.text += &format!("board {pos} (line {}): UNREADABLE: {e}\n", v.line);
                self.results.push(serde_json::json!({
                    "board": pos, "line": v.line, "error": e.to_string(),
                }));
            }
        }
    }

    /// The closing summary line of `boards` boards.
    fn summary(&self, boards: usize) -> String {
        let names = |v: &[usize]| {
            let shown: Vec<String> = v.iter().take(10).map(|p| p.to_string()).collect();
            let more = if v.len() > 10 { ", ..." } else { "" };
            format!("{}{more}", shown.join(", "))
        };
        let mut text = format!("{boards} boards: {} solutions", self.good.len());
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
}

/// Several boards (a `list` stream): a verdict per board, then a summary; exit 1 if a board is
/// not a solution, 2 if one cannot be read.
fn stream(verdicts: &[Verdict], json: bool) -> anyhow::Result<u8> {
    let mut t = Tally::default();
    for (i, v) in verdicts.iter().enumerate() {
        t.add(i + 1, v);
    }
    if json {
        let v = serde_json::json!({
            "boards": verdicts.len(),
            "solutions": t.good.len(),
            "not_solutions": t.bad,
            "unreadable": t.unreadable,
            "results": t.results,
        });
        print(&(v.to_string() + "\n"))?;
    } else {
        print(&(t.text.clone() + &t.summary(verdicts.len())))?;
    }
    if let Some(&first) = t.unreadable.first() {
        return Err(Error::Input(format!(
            "board {first} of the input (line {}) cannot be read",
            verdicts[first - 1].line
        ))
        .into());
    }
    Ok(if t.bad.is_empty() { 0 } else { NOT_A_SOLUTION })
}
