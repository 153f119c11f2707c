//! A trace, or one board, as a self-contained web page: the board drawn with the squares the
//! queens attack shaded, the step's line, counters and controls to play, pause, step back and
//! forth and jump. The style and the script are inline and nothing is fetched, so the page
//! opens from a file, offline, in any current browser.
//!
//! The page is `page.html` with `page.css` and `page.js` put in, and the trace as JSON: its
//! events, one number each, that `page.js` replays. Its board element carries the step it
//! shows (`data-step`) and the queens on it (`data-queens="1:2 2:4"`, row:column from 1), for
//! tests and scripts to read; `#step=K` at the end of its address opens it at step K.

use super::args::TRACE_DRAW_MAX;
use super::search::TracedSearch;
use crate::cli::output::document;
use nqueens::solve::trace::Event;
use nqueens::Error;
use serde::Serialize;
use std::ops::ControlFlow;
use std::path::Path;

/// The most steps a page replays: about 5 MB of page (some 5 bytes per step), which a browser
/// opens at once; the whole search of N = 11 (500,777 steps) fits.
pub const MAX_PAGE_STEPS: u64 = 1_000_000;

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// What `page.js` is given.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Data<'a> {
    /// `trace` (steps to replay) or `board` (one board, no controls).
    mode: &'static str,
    n: u32,
    /// What rows and columns count from on the page: 1, or 0 with `--zero-based`.
    off: usize,
    /// The first row the search fills: a block there ends the search.
    first_row: usize,
    /// Queens on the board before the first step (0-based `[row, col]`).
    placed: Vec<[usize; 2]>,
    /// The steps, one number each (see `page.js`).
    events: Vec<u32>,
    /// A board's queens (column per row, 0-based), in `board` mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    queens: Option<&'a [usize]>,
    /// A board's line under it, in `board` mode.
    line: String,
    /// What is said at the last step (or under the board).
    summary: String,
}

/// An event as the page's one number: kind * 4096 + row * 64 + col.
fn code(e: &Event) -> u32 {
    let (kind, row, col) = match e {
        Event::Place { row, col } => (0, *row, *col),
        Event::Remove { row, col } => (1, *row, *col),
        Event::Blocked { row, tried: false } => (2, *row, 0),
        Event::Blocked { row, tried: true } => (3, *row, 0),
        Event::Solution { .. } => (4, 0, 0),
    };
    kind * 4096 + row as u32 * 64 + col as u32
}

/// The page `PAGE` with its title, subtitle and data put in.
fn fill(title: &str, subtitle: &str, data: &Data) -> anyhow::Result<String> {
    // JSON inside a script element ends at the first `</`: written as `<\/`, it reads the same.
    let json = serde_json::to_string(data)?.replace("</", "<\\/");
    let escape = nqueens::board::svg::escape;
    Ok(PAGE
        .replace("{{version}}", env!("CARGO_PKG_VERSION"))
        .replace("{{title}}", &escape(title))
        .replace("{{subtitle}}", &escape(subtitle))
        .replace("{{style}}", STYLE)
        .replace("{{script}}", SCRIPT)
        .replace("{{data}}", &json))
}

/// `trace --format html`: the page of `search`, written to `output` (or stdout). The file
/// is checked before the search and the page built whole before anything is written; a trace
/// longer than [`MAX_PAGE_STEPS`] is refused, nothing written.
pub(super) fn trace_page(search: &TracedSearch, output: Option<&Path>) -> anyhow::Result<()> {
    let target = document(output, "page", true)?;
    let mut events = Vec::new();
    let mut solutions = 0u64;
    let (steps, finished) = search.run(|_, e, _| {
        if events.len() as u64 == MAX_PAGE_STEPS {
            return ControlFlow::Break(());
        }
        solutions += u64::from(matches!(e, Event::Solution { .. }));
        events.push(code(e));
        ControlFlow::Continue(())
    })?;
    if steps > MAX_PAGE_STEPS {
        return Err(Error::Usage(format!(
            "a page replays at most {MAX_PAGE_STEPS} steps, and this trace is longer \
             (--max-steps {}): pass --max-steps {MAX_PAGE_STEPS} or fewer, or leave out --all, \
             or use --format steps or json, which stream any number",
            search.max_steps
        ))
        .into());
    }
    let summary = match finished {
        true => search.ending(solutions, steps),
        false => search.stopped(steps),
    };
    // A page cut by the step limit says so, on the page and here: it is not the whole search.
    let cut = match finished {
        true => String::new(),
        false => {
            note!(
                "note: the page stops at step {steps}, before the search ends (--max-steps {}); \
                 --max-steps 0 traces it to its end, up to {MAX_PAGE_STEPS} steps on a page",
                search.max_steps
            );
            format!(
                " The trace stops there, before the search ends: --max-steps {} cut it.",
                search.max_steps
            )
        }
    };
    let n = search.n;
    let what = if search.all {
        "every solution"
    } else {
        "the first solution"
    };
    let placed = match search.placed.len() {
        0 => String::new(),
        k => format!(", {k} queen{} placed first", if k == 1 { "" } else { "s" }),
    };
    let data = Data {
        mode: "trace",
        n,
        off: search.off,
        first_row: search.first_row,
        placed: search.placed.iter().map(|&(r, c)| [r, c]).collect(),
        events,
        queens: None,
        line: String::new(),
        summary,
    };
    let title = format!("The backtracking search on the {n}×{n} board");
    let subtitle = format!(
        "Rows are filled top to bottom, columns tried left to right, to {what}{placed}: \
         {steps} steps, as the trace command prints them.{cut}"
    );
    target.write(&fill(&title, &subtitle, &data)?)
}

/// One board for [`board_page`]: the queens (a column per row, 0-based; none where there is
/// no solution), those placed before the search, and what is said of it.
pub struct PageBoard<'a> {
    /// The board size, up to [`TRACE_DRAW_MAX`].
    pub n: usize,
    /// The queens' columns, row by row, or `None` for an empty board.
    pub queens: Option<&'a [usize]>,
    /// The queens placed before the search (0-based), drawn in blue.
    pub placed: &'a [(usize, usize)],
    /// Whether rows and columns are numbered from 0.
    pub zero_based: bool,
    /// The line under the board (the solution, or why there is none).
    pub line: String,
    /// A second line (how it was found).
    pub summary: String,
}

/// `solve --format html`: one board as a page in the style of `trace`'s, without controls.
pub fn board_page(b: &PageBoard) -> anyhow::Result<String> {
    if b.n > TRACE_DRAW_MAX as usize {
        return Err(Error::Usage(format!(
            "--format html draws boards up to N = {TRACE_DRAW_MAX}; use --format svg for \
             N = {}",
            b.n
        ))
        .into());
    }
    let data = Data {
        mode: "board",
        n: b.n as u32,
        off: usize::from(!b.zero_based),
        first_row: 0,
        placed: b.placed.iter().map(|&(r, c)| [r, c]).collect(),
        events: Vec::new(),
        queens: b.queens,
        line: b.line.clone(),
        summary: b.summary.clone(),
    };
    let n = b.n;
    let title = format!("{n} queens on the {n}×{n} board");
    let subtitle = match b.placed.len() {
        0 => "No two share a row, a column or a diagonal.".to_string(),
        _ => "No two share a row, a column or a diagonal; the blue ones were placed first."
            .to_string(),
    };
    fill(&title, &subtitle, &data)
}
