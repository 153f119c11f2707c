//! `nqueens verify [FILE]`.

use super::print;
use nqueens::Error;
use nqueens::{parse, problems};
use std::io::Read;
use std::path::PathBuf;

/// The most problems listed in text output (the count of all of them is always given).
const SHOW_PROBLEMS: usize = 20;

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads one board in any output format of solve and list (list, pairs, \
    grid, dots, matrix, json) or as an OEIS-style permutation (15863724).\n\n\
    Exit codes: 0 a solution; 1 a board that is not a solution; 2 input that cannot be read.\n\n\
    Examples:\n  nqueens solve 8 --format grid | nqueens verify\n  \
    echo '1 5 8 6 3 7 2 4' | nqueens verify\n  nqueens verify board.txt --json"
)]
pub struct VerifyArgs {
    /// The file holding the board; standard input when left out (or `-`).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Read coordinates as 0-based (as written by `--zero-based`).
    #[arg(long)]
    pub zero_based: bool,
    /// One JSON object: {"n", "queens", "solution" (bool), "problems" [...]}.
    #[arg(long)]
    pub json: bool,
}

/// The exit code of a readable board that is not a solution.
pub const NOT_A_SOLUTION: u8 = 1;

pub fn run(a: VerifyArgs) -> anyhow::Result<u8> {
    let mut text = String::new();
    match &a.file {
        Some(p) if p.as_os_str() != "-" => {
            text = std::fs::read_to_string(p)
                .map_err(|e| Error::Input(format!("cannot read {}: {e}", p.display())))?;
        }
        _ => {
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Error::Input(format!("cannot read standard input: {e}")))?;
        }
    }
    let board = parse(&text, a.zero_based)?;
    let found = problems(&board);
    let ok = found.is_empty();
    if a.json {
        let v = serde_json::json!({
            "n": board.n,
            "queens": board.queens.len(),
            "solution": ok,
            "problems": found,
        });
        print(&(v.to_string() + "\n"))?;
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
            found.len(),
            if found.len() == 1 { "" } else { "s" }
        );
        for p in found.iter().take(SHOW_PROBLEMS) {
            s += &format!("  {p}\n");
        }
        if found.len() > SHOW_PROBLEMS {
            s += &format!(
                "  ... and {} more (--json lists all)\n",
                found.len() - SHOW_PROBLEMS
            );
        }
        print(&s)?;
    }
    Ok(if ok { 0 } else { NOT_A_SOLUTION })
}
