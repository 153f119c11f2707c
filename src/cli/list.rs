//! `nqueens list`: every solution of a board (or one per symmetry class) streamed in
//! lexicographic order, in one of the board formats, or drawn side by side as a picture.

use super::args::common::{named, PlaceArgs};
use super::args::parse::{bounded, parse_n};
use super::output::print_rendered;
use super::output::stdout::{self, stream_end};
use super::solve::slow_note;
use nqueens::board::format::{is_multiline, render, Format};
use nqueens::board::svg::{gallery, GALLERY_MAX};
use nqueens::{unique, Error, Solutions};
use std::io::Write;

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
    #[arg(long, value_name = "K", value_parser = parse_limit)]
    pub limit: Option<u64>,
    /// Only one representative per class of the 8 rotations and reflections (the
    /// lexicographically smallest of its orbit).
    #[arg(long)]
    pub unique: bool,
    /// Output format: `json` gives JSON lines {"n", "placed", "solution"}; `svg` one picture
    /// of the boards side by side (at most 400: use --limit).
    #[arg(long, short = 'f', value_parser = named::<Format>(Format::NAMES), default_value_t = Format::List)]
    pub format: Format,
    /// The same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Write 0-based coordinates instead of 1-based.
    #[arg(long)]
    pub zero_based: bool,
    #[command(flatten)]
    pub place: PlaceArgs,
}

fn parse_limit(s: &str) -> Result<u64, String> {
    bounded(s, "a limit", 1, u64::MAX)
}

pub fn run_list(a: ListArgs) -> anyhow::Result<()> {
    let placed = a.place.queens(a.n as usize, Some(a.zero_based))?;
    if a.unique && !placed.is_empty() {
        return Err(Error::Usage(
            "--unique cannot be combined with placed queens: a class's representative need not \
             hold them; list the completions without --unique"
                .into(),
        )
        .into());
    }
    let all: Box<dyn Iterator<Item = Vec<usize>>> = if a.unique {
        Box::new(unique(a.n)?)
    } else {
        Box::new(Solutions::with_fixed(a.n, &placed)?)
    };
    slow_note(a.n);
    let limit = a.limit.unwrap_or(u64::MAX);
    let format = if a.json { Format::Json } else { a.format };
    if format == Format::Svg {
        return list_svg(all, &a, &placed);
    }
    let off = usize::from(!a.zero_based);
    let placed_json: Vec<[usize; 2]> = placed.iter().map(|&(r, c)| [r + off, c + off]).collect();
    let mut out = stdout::stream();
    let mut listed = 0u64;
    let result = (|| -> std::io::Result<()> {
        for (i, s) in all.enumerate() {
            if i as u64 >= limit {
                break;
            }
            listed += 1;
            if i > 0 && is_multiline(format) {
                writeln!(out)?;
            }
            let text = if format == Format::Json {
                // The fields of solve's JSON, less the method.
                let sol: Vec<usize> = s.iter().map(|c| c + off).collect();
                serde_json::json!({ "n": a.n, "placed": placed_json, "solution": sol }).to_string()
            } else {
                render(&s, format, a.zero_based)
            };
            if text.ends_with('\n') {
                out.write_all(text.as_bytes())?;
            } else {
                writeln!(out, "{text}")?;
            }
        }
        out.flush()
    })();
    stream_end(result)?;
    if listed == 0 && limit > 0 {
        // An empty list is the answer, said where a person reads it (a script reads no lines).
        let with = if placed.is_empty() {
            ""
        } else {
            " with these queens"
        };
        note!("no solution: the {0}×{0} board has none{with}", a.n);
    }
    Ok(())
}

/// `list --format svg`: the boards (at most [`GALLERY_MAX`]) as one picture.
fn list_svg(
    all: Box<dyn Iterator<Item = Vec<usize>>>,
    a: &ListArgs,
    placed: &[(usize, usize)],
) -> anyhow::Result<()> {
    let cap = a.limit.unwrap_or(u64::MAX).min(GALLERY_MAX as u64 + 1) as usize;
    let boards: Vec<Vec<usize>> = all.take(cap).collect();
    if boards.len() > GALLERY_MAX {
        return Err(Error::Usage(format!(
            "a gallery holds at most {GALLERY_MAX} boards, and the {0}×{0} board has more \
             solutions: add --limit K (K <= {GALLERY_MAX})",
            a.n
        ))
        .into());
    }
    if boards.is_empty() {
        // No solution is an answer, as `solve --format svg` draws it: the empty board, titled.
        let says = if a.place.place.is_empty() && a.place.first_queen.is_none() {
            format!("no solution: the {0}×{0} board has none", a.n)
        } else {
            format!("no solution on the {0}×{0} board with these queens", a.n)
        };
        return print_rendered(&nqueens::board::svg::empty(
            a.n as usize,
            a.zero_based,
            &says,
        ));
    }
    let per_row = (boards.len() as f64).sqrt().ceil().clamp(1.0, 8.0) as usize;
    print_rendered(&gallery(&boards, a.zero_based, per_row, placed))
}
