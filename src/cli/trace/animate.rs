//! `trace --animate`: each step redrawn in place on a terminal (ANSI cursor movement), the
//! cursor hidden while it runs and shown again however it ends.

use super::search::TracedSearch;
use super::steps::draw;
use crate::cli::output::stdout::{self, stream_end};
use nqueens::solve::trace::Event;
use nqueens::Error;
use std::fmt::Write as _;
use std::io::Write;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Lines a frame takes besides the board's rows: a blank line, the step's line, and the line
/// the cursor waits on.
const FRAME_LINES: usize = 3;

/// Refuses a board whose frame is taller than the terminal, which would scroll frames into
/// its history instead of redrawing one in place.
fn check_height(n: u32) -> Result<(), Error> {
    let needs = n as usize + FRAME_LINES;
    match stdout::terminal_rows().filter(|&r| r < needs) {
        None => Ok(()),
        Some(rows) => Err(Error::Usage(format!(
            "--animate redraws a {n}×{n} board in place, which needs {needs} lines, and this \
             terminal has {rows}: make it taller, give a board of N <= {}, or leave out \
             --animate for the steps as text",
            rows.saturating_sub(FRAME_LINES)
        ))),
    }
}

/// Step `step`'s frame: back up over the last one (from step 2), the board, then its line.
fn frame(search: &TracedSearch, step: u64, e: &Event, board: &[Option<usize>]) -> String {
    let mut frame = String::new();
    if step > 1 {
        let _ = write!(frame, "\x1b[{}A", board.len() + FRAME_LINES - 1);
    }
    for line in draw(board, false).lines() {
        let _ = writeln!(frame, "\r\x1b[2K{line}");
    }
    let _ = writeln!(frame, "\r\x1b[2K");
    let _ = writeln!(frame, "\r\x1b[2Kstep {step:>6}  {}", search.describe(e));
    frame
}

/// Plays the trace of `search` on the terminal, `delay_ms` between frames, until it ends, its
/// step limit, or Ctrl-C (or SIGTERM).
pub(super) fn run(search: &TracedSearch, delay_ms: u64) -> anyhow::Result<()> {
    check_height(search.n)?;
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&stop))?;
    }
    let mut out = std::io::stdout().lock();
    let delay = std::time::Duration::from_millis(delay_ms);
    let (mut err, mut solutions) = (None, 0u64);
    let _ = out.write_all(b"\x1b[?25l");
    let ended = search.run(|step, e, board| {
        solutions += u64::from(matches!(e, Event::Solution { .. }));
        let shown = out.write_all(frame(search, step, e, board).as_bytes());
        if let Err(e) = shown.and_then(|_| out.flush()) {
            err = Some(e);
            return ControlFlow::Break(());
        }
        std::thread::sleep(delay);
        match stop.load(Ordering::Relaxed) {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        }
    });
    let _ = out.write_all(b"\x1b[?25h");
    let _ = out.flush();
    let (steps, finished) = ended?;
    if let Some(e) = err {
        return stream_end(Err(e));
    }
    if stop.load(Ordering::Relaxed) {
        return Err(anyhow::Error::new(crate::cli::exit::Interrupted {
            signal: 2,
            message: format!("animation stopped after {steps} steps"),
        }));
    }
    if !finished {
        note!("{}", search.stopped(steps));
        return Ok(());
    }
    // The summary under the last frame, as the steps as text end with it.
    let said = writeln!(out, "{}", search.ending(solutions, steps)).and_then(|_| out.flush());
    stream_end(said)
}
