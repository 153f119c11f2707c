//! A trace as text: a line per step (`steps`), with the board drawn under it (`grid`,
//! `dots`), or JSON lines, streamed to stdout as the search goes, the summary last.

use super::args::TraceFormat;
use super::search::TracedSearch;
use crate::cli::output::stdout::{self, stream_end};
use nqueens::solve::trace::Event;
use std::fmt::Write as _;
use std::io::Write;
use std::ops::ControlFlow;

impl TracedSearch {
    /// Step `e` in words, rows and columns counted from 1 (or 0 with `--zero-based`).
    pub(super) fn describe(&self, e: &Event) -> String {
        let off = self.off;
        match e {
            Event::Place { row, col } => {
                format!("place     row {}, column {}", row + off, col + off)
            }
            Event::Remove { row, col } => {
                format!("remove    row {}, column {}", row + off, col + off)
            }
            Event::Blocked { row, tried } => {
                let what = if *tried {
                    "no other free square"
                } else {
                    "no free square"
                };
                let then = if *row == self.first_row {
                    "the search is over"
                } else {
                    "back to the row above"
                };
                format!("blocked   row {}: {what}, {then}", row + off)
            }
            Event::Solution { number, cols } => {
                let v: Vec<String> = cols.iter().map(|c| (c + off).to_string()).collect();
                format!("solution  {number}: {}", v.join(" "))
            }
        }
    }

    /// What a search that ran to its end after `steps` steps, finding `solutions`, says.
    pub(super) fn ending(&self, solutions: u64, steps: u64) -> String {
        let n = self.n;
        let board = if self.placed.is_empty() {
            format!("the {n}×{n} board has no solution")
        } else {
            "the placed queens cannot be completed".to_string()
        };
        match (solutions, self.all) {
            (0, _) => format!("the search is over after {steps} steps: {board}"),
            (1, false) => format!("first solution found in {steps} steps"),
            (k, _) => format!("every solution found ({k}) in {steps} steps"),
        }
    }
}

/// The board as text: a boxed grid of `Q` and blanks, or rows of `Q` and `.`.
pub(super) fn draw(board: &[Option<usize>], grid: bool) -> String {
    let n = board.len();
    let mut s = String::new();
    let rule = "-".repeat(4 * n + 1);
    if grid {
        let _ = writeln!(s, "{rule}");
    }
    for q in board {
        for x in 0..n {
            let on = *q == Some(x);
            s.push_str(match (grid, on) {
                (true, true) => "| Q ",
                (true, false) => "|   ",
                (false, true) => "Q ",
                (false, false) => ". ",
            });
        }
        if grid {
            let _ = writeln!(s, "|\n{rule}");
        } else {
            s.pop();
            s.push('\n');
        }
    }
    s
}

/// Step `step`'s JSON line: the event with its number, rows and columns from `off`.
fn json_line(step: u64, e: &Event, off: u64) -> String {
    let mut v = serde_json::to_value(e).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.insert("step".into(), step.into());
        for key in ["row", "col"] {
            if let Some(x) = o.get(key).and_then(|x| x.as_u64()) {
                o.insert(key.into(), (x + off).into());
            }
        }
        if let Some(cols) = o.get_mut("cols").and_then(|c| c.as_array_mut()) {
            for c in cols.iter_mut() {
                *c = (c.as_u64().unwrap_or(0) + off).into();
            }
        }
    }
    v.to_string()
}

/// Streams the trace of `search` to stdout in `format`, a line (and a board) per step, then
/// the summary: on stdout for text, where a trace saved to a file keeps it; JSON lines stay
/// events only, and a trace stopped by its step limit says so on stderr.
pub(super) fn stream(search: &TracedSearch, format: TraceFormat) -> anyhow::Result<()> {
    let mut out = stdout::stream();
    let mut err: Option<std::io::Error> = None;
    let mut solutions = 0u64;
    let off = search.off;
    let (steps, finished) = search.run(|step, e, board| {
        solutions += u64::from(matches!(e, Event::Solution { .. }));
        let text = match format {
            TraceFormat::Json => json_line(step, e, off as u64) + "\n",
            TraceFormat::Grid | TraceFormat::Dots => format!(
                "{step:>7}  {}\n{}\n",
                search.describe(e),
                draw(board, format == TraceFormat::Grid)
            ),
            _ => format!("{step:>7}  {}\n", search.describe(e)),
        };
        match out.write_all(text.as_bytes()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                err = Some(e);
                ControlFlow::Break(())
            }
        }
    })?;
    let summary = match finished {
        true => search.ending(solutions, steps),
        false => search.stopped(steps),
    };
    if err.is_none() && format != TraceFormat::Json {
        if let Err(e) = writeln!(out, "{summary}") {
            err = Some(e);
        }
    }
    let flushed = out.flush();
    if let Some(e) = err {
        return stream_end(Err(e));
    }
    stream_end(flushed)?;
    if format == TraceFormat::Json && !finished {
        note!("{summary}");
    }
    Ok(())
}
