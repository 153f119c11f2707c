//! `nqueens solve N` and `nqueens list N`.

use super::args::common::PlaceArgs;
use super::args::parse::bounded;
use super::output::{document, json_line};
use super::trace::{board_page, PageBoard, TRACE_DRAW_MAX};
use clap::builder::TypedValueParser;
use nqueens::board::check::{holds, is_solution};
use nqueens::board::format::{is_multiline, render_placed, Format};
use nqueens::board::svg::{marked, Marks, SVG_MAX};
use nqueens::{complete, construct, Completion, Error, Solutions};

/// The largest board `solve` answers by lexicographic backtracking when no method is forced:
/// beyond it the first solution can take billions of nodes.
pub const LEXICOGRAPHIC_MAX: usize = 30;

/// The largest board `solve` accepts.
pub const SOLVE_MAX: usize = 100_000_000;

/// The largest board drawn in a multi-line format.
pub const DRAW_MAX: usize = 1000;

/// How many queens `--method auto` lets lexicographic backtracking place, with placed queens,
/// before it hands over to `search`.
pub const LEXICOGRAPHIC_BUDGET: u64 = 50_000_000;

/// How `solve` finds its solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SolveMethod {
    /// Lexicographic backtracking up to N = 30, the explicit construction above; with placed
    /// queens, lexicographic up to N = 30 (handing over to `search` if it takes too long),
    /// `search` above.
    Auto,
    /// Row-by-row backtracking, columns left to right: the first solution in lexicographic
    /// order (N <= 64).
    Lexicographic,
    /// The classical closed-form construction: any N >= 4, linear time (no placed queens).
    Construct,
    /// Completes placed queens on any board: exact most-constrained-row-first backtracking
    /// for N <= 64 (it proves when there is no completion), min-conflicts local search above.
    Search,
}

impl SolveMethod {
    fn name(self) -> &'static str {
        match self {
            SolveMethod::Auto => "auto",
            SolveMethod::Lexicographic => "lexicographic",
            SolveMethod::Construct => "construct",
            SolveMethod::Search => "search",
        }
    }

    /// How the answer was found, in plain words for a reader who did not ask (stderr), the
    /// method's name after it for one who wants to ask for it.
    fn said(self) -> &'static str {
        match self {
            SolveMethod::Auto => "found as --method auto chose",
            SolveMethod::Lexicographic => {
                "found by trying columns left to right, row by row (--method lexicographic)"
            }
            SolveMethod::Construct => "built by a formula, without a search (--method construct)",
            SolveMethod::Search => "completed by a search from the placed queens (--method search)",
        }
    }
}

/// Arguments of `solve`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  nqueens solve 8\n  nqueens solve 8 --format grid\n  \
    nqueens solve 1000000 --json\n  nqueens solve 8 --first-queen 2 --format grid\n  \
    nqueens solve 100 --place 1:7 --place 50:1"
)]
pub struct SolveArgs {
    /// Board size N, from 1 to 100,000,000 (lexicographic search: up to 64). A large board
    /// takes about 80 bytes per row (8 GB at the largest); more than half the available memory
    /// is refused.
    #[arg(value_name = "N", value_parser = parse_solve_n, allow_negative_numbers = true)]
    pub n: usize,
    /// How the solution is found; the method used is reported (stderr, or in the JSON).
    #[arg(long, short = 'm', value_enum, default_value_t = SolveMethod::Auto)]
    pub method: SolveMethod,
    /// Output format: `json` is one object {"n", "method", "placed", "solution" (columns per
    /// row, or null)}; `svg` a picture of the board (N up to 256); `html` a web page of the
    /// board in the style of `trace --format html` (N up to 32). Queens placed with
    /// --place or --first-queen are marked: `(Q)` in grid, `@` in dots, blue in svg and html
    /// (list, pairs and matrix give the queens only; json lists them in "placed").
    #[arg(long, short = 'f', value_parser = output_format(), default_value_t = OutputFormat::Board(Format::List))]
    pub format: OutputFormat,
    /// The same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Write 0-based coordinates instead of 1-based.
    #[arg(long)]
    pub zero_based: bool,
    #[command(flatten)]
    pub place: PlaceArgs,
    /// Write the answer to FILE (replaced whole, or written into where it is a pipe or a
    /// device) instead of standard output; a web page needs it on a terminal.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
}

impl SolveArgs {
    fn format(&self) -> OutputFormat {
        if self.json {
            OutputFormat::Board(Format::Json)
        } else {
            self.format
        }
    }
}

/// What `solve` and `list` write: boards in one of the library's formats, or a web page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// A board format: list, pairs, grid, dots, matrix, json or svg.
    Board(Format),
    /// A self-contained web page of the board.
    Html,
}

impl std::fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputFormat::Board(b) => b.fmt(f),
            OutputFormat::Html => f.write_str("html"),
        }
    }
}

/// Reads `--format` of `solve` and `list`: a board format's name, or `html`.
pub(super) fn output_format() -> impl TypedValueParser<Value = OutputFormat> {
    let names: Vec<&'static str> = Format::NAMES.iter().copied().chain(["html"]).collect();
    clap::builder::PossibleValuesParser::new(names).try_map(|s: String| match s.as_str() {
        "html" => Ok(OutputFormat::Html),
        _ => s.parse::<Format>().map(OutputFormat::Board),
    })
}

fn parse_solve_n(s: &str) -> Result<usize, String> {
    bounded(s, "a board size for solve", 1, SOLVE_MAX as u64).map(|n| n as usize)
}

fn check_drawable(n: usize, format: Format) -> Result<(), Error> {
    if format == Format::Svg && n > SVG_MAX {
        return Err(Error::Usage(format!(
            "a {n}×{n} board is too large for a legible picture: --format svg goes up to N = \
             {SVG_MAX}; use list, pairs or json"
        )));
    }
    if is_multiline(format) && n > DRAW_MAX {
        return Err(Error::Usage(format!(
            "a {n}×{n} board is too large to draw as --format {format}: multi-line formats \
             go up to N = {DRAW_MAX}; use list, pairs or json"
        )));
    }
    Ok(())
}

fn lexicographic_n(n: usize) -> Result<u32, Error> {
    nqueens::board::masks::check_n(n as i64).map_err(|_| {
        Error::Usage(format!(
            "--method lexicographic works on boards up to 64 (the u64 masks); N = {n} needs \
             --method construct (or search, with placed queens)"
        ))
    })
}

/// Says, before a search that may print nothing for minutes, that it may (the first
/// solution in lexicographic order takes under a second up to N = 32 and grows fast beyond).
pub(super) fn slow_note(n: u32) {
    if n > LEXICOGRAPHIC_QUICK {
        note!(
            "note: searching in lexicographic order on a {n}×{n} board can take minutes or \
             more before the first solution (above N = {LEXICOGRAPHIC_QUICK}); `nqueens solve \
             {n} --method construct` gives a solution at once (Ctrl-C stops)"
        );
    }
}

/// The largest N whose first lexicographic solution was measured to take under a second.
const LEXICOGRAPHIC_QUICK: u32 = 32;

/// Finds the solution: the method used and its answer (`Err` carries why there is none).
fn find(a: &SolveArgs, placed: &[(usize, usize)]) -> Result<(SolveMethod, Completion), Error> {
    let method = match a.method {
        SolveMethod::Auto if a.n <= LEXICOGRAPHIC_MAX => SolveMethod::Lexicographic,
        SolveMethod::Auto if placed.is_empty() => SolveMethod::Construct,
        SolveMethod::Auto => SolveMethod::Search,
        m => m,
    };
    let none = |why: &str| Completion::Impossible(why.to_string());
    Ok(match method {
        SolveMethod::Lexicographic => {
            let n = lexicographic_n(a.n)?;
            slow_note(n);
            let mut it = Solutions::with_fixed(n, placed)?;
            if a.method == SolveMethod::Auto && !placed.is_empty() {
                // Placements deep in the board can make row order slow: hand over in time.
                it = it.with_budget(LEXICOGRAPHIC_BUDGET);
            }
            match it.next() {
                Some(sol) => (method, Completion::Found(sol)),
                None if it.out_of_budget() => (SolveMethod::Search, complete(a.n, placed)?),
                None if placed.is_empty() => (method, none("the board has no solution")),
                None => (method, none("the placed queens cannot be completed")),
            }
        }
        SolveMethod::Construct => {
            if !placed.is_empty() {
                return Err(Error::Usage(
                    "--method construct cannot honour placed queens: use --method search (or \
                     leave --method out)"
                        .into(),
                ));
            }
            match construct(a.n) {
                Some(sol) => (method, Completion::Found(sol)),
                None => (method, none("the board has no solution")),
            }
        }
        SolveMethod::Search | SolveMethod::Auto => (SolveMethod::Search, complete(a.n, placed)?),
    })
}

/// Bytes `solve` holds per row of a large board (the solution, its check and its text;
/// measured: 705 MB at N = 10,000,000), rounded up.
const SOLVE_BYTES_PER_ROW: u64 = 80;

pub fn run_solve(a: SolveArgs) -> anyhow::Result<()> {
    let (format, page) = match a.format() {
        OutputFormat::Board(f) => (f, false),
        OutputFormat::Html => (Format::List, true),
    };
    check_drawable(a.n, format)?;
    if page && a.n > TRACE_DRAW_MAX as usize {
        return Err(Error::Usage(format!(
            "--format html draws boards up to N = {TRACE_DRAW_MAX}; use --format svg (up to \
             N = {SVG_MAX}) or list for N = {}",
            a.n
        ))
        .into());
    }
    let needed = a.n as u64 * SOLVE_BYTES_PER_ROW;
    let limit = nqueens::memory::default_limit();
    if needed > limit {
        return Err(Error::Memory(format!(
            "solve {} needs about {} of memory ({SOLVE_BYTES_PER_ROW} bytes per row), more than \
             half of the memory available ({}): ask for a smaller board",
            a.n,
            nqueens::memory::show(needed),
            nqueens::memory::show(limit)
        ))
        .into());
    }
    let placed = a.place.queens(a.n, Some(a.zero_based))?;
    // Where the answer goes, checked before the search: not found out after it.
    let target = document(a.output.as_deref(), "board", page)?;
    let (method, answer) = find(&a, &placed)?;
    let name = method.name();
    let off = usize::from(!a.zero_based);
    let (solution, why) = match answer {
        Completion::Found(s) => {
            debug_assert!(is_solution(&s) && holds(&s, &placed));
            (Some(s), String::new())
        }
        Completion::Impossible(why) => (None, why),
        Completion::GaveUp(why) => {
            return Err(anyhow::anyhow!(
                "no answer for the {0}×{0} board with these placements: {why}",
                a.n
            ))
        }
    };
    if format == Format::Json {
        let sol = solution
            .as_ref()
            .map(|s| s.iter().map(|c| c + off).collect::<Vec<_>>());
        let placed: Vec<[usize; 2]> = placed.iter().map(|&(r, c)| [r + off, c + off]).collect();
        let v = serde_json::json!({ "n": a.n, "method": name, "placed": placed, "solution": sol });
        return target.write(&json_line(&v)?);
    }
    note!("{}", method.said());
    let text = if page {
        page_of(&a, name, solution.as_deref(), &placed, &why)?
    } else {
        answer_of(&a, format, solution, &placed, &why)
    };
    target.write(&text)
}

/// `solve`'s answer as a web page: the board (its placed queens blue), the solution or why
/// there is none under it, and the method that found it.
fn page_of(
    a: &SolveArgs,
    method: &str,
    solution: Option<&[usize]>,
    placed: &[(usize, usize)],
    why: &str,
) -> anyhow::Result<String> {
    let line = match solution {
        Some(s) => {
            let cols: Vec<String> = s
                .iter()
                .map(|c| (c + usize::from(!a.zero_based)).to_string())
                .collect();
            format!("solution: {}", cols.join(" "))
        }
        None => no_solution(a.n, placed, why),
    };
    let page = board_page(&PageBoard {
        n: a.n,
        queens: solution,
        placed,
        zero_based: a.zero_based,
        line,
        summary: format!("found by the {method} method"),
    })?;
    Ok(page)
}

/// What `solve` says where the board has no solution (`why`, with placed queens).
fn no_solution(n: usize, placed: &[(usize, usize)], why: &str) -> String {
    if placed.is_empty() {
        format!("no solution: the {n}×{n} board has none")
    } else {
        format!("no solution on the {n}×{n} board: {why}")
    }
}

/// `solve`'s answer in `format`: the solution (its placed queens blue in a picture), or that
/// there is none (`why`, with placed queens), as text or as the empty board drawn.
fn answer_of(
    a: &SolveArgs,
    format: Format,
    solution: Option<Vec<usize>>,
    placed: &[(usize, usize)],
    why: &str,
) -> String {
    match solution {
        Some(s) if format == Format::Svg && !placed.is_empty() => {
            let queens: Vec<(usize, usize)> = s.iter().copied().enumerate().collect();
            let title = format!(
                "{0} queens on the {0}×{0} board, the placed ones in blue",
                a.n
            );
            let marks = Marks {
                placed,
                attacks: &[],
            };
            marked(a.n, &queens, a.zero_based, &title, marks)
        }
        Some(s) => {
            let mut text = render_placed(&s, format, a.zero_based, placed);
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text
        }
        None => {
            let says = no_solution(a.n, placed, why);
            if format == Format::Svg {
                nqueens::board::svg::empty(a.n, a.zero_based, &says)
            } else {
                says + "\n"
            }
        }
    }
}
