//! `nqueens solve N` and `nqueens list N`.

use super::{parse_n, print};
use nqueens::board::{is_multiline, render, Format};
use nqueens::solutions::{construct, first_lexicographic, unique, Solutions};
use nqueens::Error;
use std::io::{BufWriter, Write};

/// The largest board `solve` answers by lexicographic backtracking when no method is forced:
/// beyond it the first solution can take billions of nodes.
pub const LEXICOGRAPHIC_MAX: usize = 30;

/// The largest board `solve` accepts.
pub const SOLVE_MAX: usize = 100_000_000;

/// The largest board drawn in a multi-line format.
pub const DRAW_MAX: usize = 1000;

/// How `solve` finds its solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// Lexicographic backtracking up to N = 30, the explicit construction above.
    Auto,
    /// Row-by-row backtracking, columns left to right: the first solution in lexicographic
    /// order (N <= 64).
    Lexicographic,
    /// The classical closed-form construction: any N >= 4, linear time.
    Construct,
}

/// Arguments of `solve`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  nqueens solve 8\n  nqueens solve 8 --format grid\n  \
    nqueens solve 1000000 --json"
)]
pub struct SolveArgs {
    /// Board size N, from 1 to 100,000,000 (lexicographic search: up to 64).
    #[arg(value_name = "N", value_parser = parse_solve_n, allow_negative_numbers = true)]
    pub n: usize,
    /// How the solution is found; the method used is reported (stderr, or in the JSON).
    #[arg(long, short = 'm', value_enum, default_value_t = Method::Auto)]
    pub method: Method,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::List)]
    pub format: Format,
    /// One JSON object: {"n", "method", "solution" (1-based columns per row, or null)}.
    #[arg(long)]
    pub json: bool,
    /// Write 0-based coordinates instead of 1-based.
    #[arg(long)]
    pub zero_based: bool,
}

/// Arguments of `list`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Solutions are streamed in lexicographic order; nothing is held in \
    memory.\n\nExamples:\n  nqueens list 8 --limit 3\n  nqueens list 8 --unique --format dots"
)]
pub struct ListArgs {
    /// Board size N, from 1 to 64.
    #[arg(value_name = "N", value_parser = parse_n, allow_negative_numbers = true)]
    pub n: u32,
    /// Stop after K solutions.
    #[arg(long, value_name = "K")]
    pub limit: Option<u64>,
    /// Only one representative per class of the 8 rotations and reflections (the
    /// lexicographically smallest of its orbit).
    #[arg(long)]
    pub unique: bool,
    /// Output format (`json` gives JSON lines).
    #[arg(long, short = 'f', value_enum, default_value_t = Format::List)]
    pub format: Format,
    /// Write 0-based coordinates instead of 1-based.
    #[arg(long)]
    pub zero_based: bool,
}

fn parse_solve_n(s: &str) -> Result<usize, String> {
    match s.trim().parse::<i64>() {
        Ok(v) if (1..=SOLVE_MAX as i64).contains(&v) => Ok(v as usize),
        Ok(v) => Err(format!(
            "board size {v} is out of range: solve takes N from 1 to {SOLVE_MAX}"
        )),
        Err(_) => Err(format!(
            "'{s}' is not a board size: N must be a whole number from 1 to {SOLVE_MAX}"
        )),
    }
}

fn check_drawable(n: usize, format: Format) -> Result<(), Error> {
    if is_multiline(format) && n > DRAW_MAX {
        return Err(Error::Usage(format!(
            "a {n}×{n} board is too large to draw as --format {format:?}: multi-line formats \
             go up to N = {DRAW_MAX}; use list, pairs or json"
        )));
    }
    Ok(())
}

pub fn run_solve(a: SolveArgs) -> anyhow::Result<()> {
    check_drawable(a.n, a.format)?;
    let method = match a.method {
        Method::Auto if a.n <= LEXICOGRAPHIC_MAX => Method::Lexicographic,
        Method::Auto => Method::Construct,
        m => m,
    };
    let solution = match method {
        Method::Lexicographic => {
            let n = nqueens::bits::check_n(a.n as i64).map_err(|_| {
                Error::Usage(format!(
                    "--method lexicographic works on boards up to 64 (the u64 masks); \
                     N = {} needs --method construct",
                    a.n
                ))
            })?;
            first_lexicographic(n).0
        }
        _ => construct(a.n),
    };
    let name = if method == Method::Lexicographic {
        "lexicographic"
    } else {
        "construct"
    };
    let off = usize::from(!a.zero_based);
    if a.json {
        let sol = solution
            .as_ref()
            .map(|s| s.iter().map(|c| c + off).collect::<Vec<_>>());
        let v = serde_json::json!({ "n": a.n, "method": name, "solution": sol });
        return print(&(v.to_string() + "\n"));
    }
    eprintln!("method: {name}");
    match solution {
        Some(s) => {
            let mut text = render(&s, a.format, a.zero_based);
            if !text.ends_with('\n') {
                text.push('\n');
            }
            print(&text)
        }
        None => print(&format!("no solution: the {0}×{0} board has none\n", a.n)),
    }
}

pub fn run_list(a: ListArgs) -> anyhow::Result<()> {
    let all: Box<dyn Iterator<Item = Vec<usize>>> = if a.unique {
        Box::new(unique(a.n))
    } else {
        Box::new(Solutions::new(a.n))
    };
    let limit = a.limit.unwrap_or(u64::MAX);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let result = (|| -> std::io::Result<()> {
        for (i, s) in all.enumerate() {
            if i as u64 >= limit {
                break;
            }
            if i > 0 && is_multiline(a.format) {
                writeln!(out)?;
            }
            let text = render(&s, a.format, a.zero_based);
            if text.ends_with('\n') {
                out.write_all(text.as_bytes())?;
            } else {
                writeln!(out, "{text}")?;
            }
        }
        out.flush()
    })();
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}
