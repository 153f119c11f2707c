//! `nqueens list`: every solution of a board (or one per symmetry class) streamed in
//! lexicographic order, in one of the board formats, or drawn side by side as a picture.

use super::args::common::PlaceArgs;
use super::args::parse::{bounded, parse_n};
use super::output::document;
use super::output::stdout::{self, stream_end};
use super::output::target::Target;
use super::solve::slow_note;
use super::solve::{output_format, OutputFormat};
use super::trace::TRACE_DRAW_MAX;
use nqueens::board::format::{is_multiline, render_placed, Format};
use nqueens::board::svg::{self as svg, Marks, GALLERY_MAX};
use nqueens::{unique, Error, Solutions};
use std::fmt::Write as _;
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
    /// of the boards side by side, `html` a web page of them that fits any window (at most
    /// 400 boards: use --limit; N up to 32 for a page). Placed queens are marked as `solve`
    /// marks them: `(Q)` in grid, `@` in dots, blue in svg and html.
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
    /// Write the picture or page (`--format svg` or `html`) to FILE instead of standard
    /// output; a page needs it on a terminal. The other formats stream: redirect them.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
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
    let (format, page) = format_of(&a)?;
    if format == Format::Svg {
        let target = document(a.output.as_deref(), "gallery", page)?;
        return list_drawn(all, &a, &placed, page, &target);
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
                render_placed(&s, format, a.zero_based, &placed)
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

/// The board format `list` writes (svg for a page too), and whether it is a page; refuses
/// `-o` with a streamed format and a page of a board too large to draw.
fn format_of(a: &ListArgs) -> Result<(Format, bool), Error> {
    let format = match (a.json, a.format) {
        (true, _) => Format::Json,
        (false, OutputFormat::Board(f)) => f,
        (false, OutputFormat::Html) => Format::Svg,
    };
    let page = a.format == OutputFormat::Html && !a.json;
    if format != Format::Svg && a.output.is_some() {
        return Err(Error::Usage(
            "-o writes the picture or page of --format svg or html; the other formats stream \
             to stdout: redirect them with `> FILE`"
                .into(),
        ));
    }
    if page && a.n > TRACE_DRAW_MAX {
        return Err(Error::Usage(format!(
            "--format html draws boards up to N = {TRACE_DRAW_MAX}; use --format svg for N = {}",
            a.n
        )));
    }
    Ok((format, page))
}

/// `list --format svg` or `html` (`page`): the boards (at most [`GALLERY_MAX`]) as one
/// picture, or as a page of pictures, written to `target`.
fn list_drawn(
    all: Box<dyn Iterator<Item = Vec<usize>>>,
    a: &ListArgs,
    placed: &[(usize, usize)],
    page: bool,
    target: &Target,
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
        let picture = nqueens::board::svg::empty(a.n as usize, a.zero_based, &says);
        return target.write(&match page {
            true => gallery_page(a, &says, &[picture]),
            false => picture,
        });
    }
    if page {
        let pictures: Vec<String> = boards
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let queens: Vec<(usize, usize)> = b.iter().copied().enumerate().collect();
                let marks = Marks {
                    placed,
                    attacks: &[],
                };
                svg::marked(
                    a.n as usize,
                    &queens,
                    a.zero_based,
                    &format!("{}", i + 1),
                    marks,
                )
            })
            .collect();
        let title = format!(
            "{count} {unique}solution{s} of the {n}×{n} board",
            count = pictures.len(),
            unique = if a.unique { "unique " } else { "" },
            s = if pictures.len() == 1 { "" } else { "s" },
            n = a.n
        );
        return target.write(&gallery_page(a, &title, &pictures));
    }
    let per_row = (boards.len() as f64).sqrt().ceil().clamp(1.0, 8.0) as usize;
    target.write(&svg::gallery(&boards, a.zero_based, per_row, placed))
}

/// A self-contained web page of `pictures` (SVG boards), titled `title`, in a grid that fits
/// the window: each board is numbered as the list numbers it, placed queens in blue.
fn gallery_page(a: &ListArgs, title: &str, pictures: &[String]) -> String {
    let mut boards = String::new();
    for (i, p) in pictures.iter().enumerate() {
        // The picture's own XML prolog is not HTML: the <svg> element is what the page holds.
        let svg = p.find("<svg").map_or(p.as_str(), |at| &p[at..]);
        let _ = writeln!(
            boards,
            "<figure>{svg}<figcaption>{}</figcaption></figure>",
            i + 1
        );
    }
    let note = if a.place.place.is_empty() && a.place.first_queen.is_none() {
        String::new()
    } else {
        " Queens placed before the search are blue, in a ring.".to_string()
    };
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"nqueens {}\">\n<title>{t}</title>\n<style>\n\
         body {{ font-family: system-ui, sans-serif; margin: 1rem; }}\n\
         h1 {{ font-size: 1.35rem; margin: 0 0 0.3rem; }}\n\
         .boards {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); \
         gap: 1rem; }}\n\
         figure {{ margin: 0; text-align: center; }}\n\
         figure svg {{ width: 100%; height: auto; }}\n\
         figcaption {{ font-size: 0.9rem; color: #444; }}\n</style>\n</head>\n<body>\n\
         <h1>{t}</h1>\n<p>In the order `nqueens list` gives them, numbered from 1.{note}</p>\n\
         <div class=\"boards\">\n{boards}</div>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        t = svg::escape(title),
    )
}
