//! What `trace` takes: the board, how far to search, how to show each step.

use crate::cli::args::common::PlaceArgs;
use crate::cli::args::parse::{bounded, parse_n};
use std::path::PathBuf;

/// The largest board `trace` draws (`--format grid`, `dots` or `html`, and `--animate`).
pub const TRACE_DRAW_MAX: u32 = 32;

/// How `trace` shows each step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    /// One line per step.
    Steps,
    /// Each step's line, then the board drawn as a boxed grid.
    Grid,
    /// Each step's line, then the board as rows of `Q` and `.`.
    Dots,
    /// JSON lines: {"step", "event", "row", "col", ...}, 1-based (0-based with --zero-based).
    Json,
    /// One web page that replays the steps: the board, play and pause, a step back and
    /// forth, jumps (best written with -o FILE.html).
    Html,
}

/// Arguments of `trace`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Each step is one of:\n  \
    place    a queen goes on a free square (columns are tried left to right)\n  \
    blocked  a row has no free square (left): the search goes back a row\n  \
    remove   a queen is taken back\n  \
    solution every row holds a queen\n\n\
    Examples:\n  nqueens trace 4 --format grid\n  \
    nqueens trace 8 --all --max-steps 0 | grep solution\n  \
    nqueens trace 6 --format html -o search.html")]
pub struct TraceArgs {
    /// Board size N, from 1 to 64.
    #[arg(value_name = "N", value_parser = parse_n, allow_negative_numbers = true)]
    pub n: u32,
    /// Go on past the first solution to every solution.
    #[arg(long)]
    pub all: bool,
    /// Stop after K steps (0: no limit).
    #[arg(long, value_name = "K", default_value_t = 10_000, value_parser = parse_max_steps)]
    pub max_steps: u64,
    /// How each step is printed [default: steps].
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<TraceFormat>,
    /// Write the page of --format html to FILE (replaced whole, or not at all) instead of
    /// stdout. The other formats stream to stdout: redirect them with `>`.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// On a terminal, redraw the board in place at each step, the step's line under it
    /// (Ctrl-C stops and leaves the terminal clean). On a pipe the steps are printed as text
    /// instead, and a note on stderr says so. N up to 32.
    #[arg(long)]
    pub animate: bool,
    /// Milliseconds between frames of --animate, 0 to 10000.
    #[arg(long, value_name = "MS", default_value_t = 150, value_parser = parse_delay, requires = "animate")]
    pub delay: u64,
    /// Write rows and columns from 0 instead of 1 (in every format, --place included).
    #[arg(long)]
    pub zero_based: bool,
    #[command(flatten)]
    pub place: PlaceArgs,
}

fn parse_delay(s: &str) -> Result<u64, String> {
    bounded(s, "a delay in milliseconds", 0, 10_000)
}

fn parse_max_steps(s: &str) -> Result<u64, String> {
    bounded(s, "a step limit", 0, u64::MAX)
}
