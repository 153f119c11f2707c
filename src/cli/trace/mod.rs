//! `nqueens trace N` and `nqueens tree N`.

use super::args::parse::{bounded, parse_n};
use super::output::stdout::{self, stream_end};
use super::output::{self, Format};
use nqueens::oeis::{compare, Sequence};
use nqueens::solve::trace::{trace, tree, Event};
use nqueens::Error;
use std::fmt::Write as _;
use std::io::Write;
use std::ops::ControlFlow;

/// The largest board `trace` draws (`--format grid` or `dots`).
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
}

/// Arguments of `trace`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Each step is one of:\n  \
    place    a queen goes on a free square (columns are tried left to right)\n  \
    blocked  a row has no free square (left): the search goes back a row\n  \
    remove   a queen is taken back\n  \
    solution every row holds a queen\n\n\
    Examples:\n  nqueens trace 4 --format grid\n  nqueens trace 8 --all --max-steps 0 | grep solution")]
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
    /// How each step is shown.
    #[arg(long, short = 'f', value_enum, default_value_t = TraceFormat::Steps)]
    pub format: TraceFormat,
    /// On a terminal, redraw the board in place at each step, the step's line under it
    /// (Ctrl-C stops and leaves the terminal clean). On a pipe the steps are printed as text
    /// instead, and a note on stderr says so. N up to 32.
    #[arg(long, conflicts_with = "format")]
    pub animate: bool,
    /// Milliseconds between frames of --animate, 0 to 10000.
    #[arg(long, value_name = "MS", default_value_t = 150, value_parser = parse_delay, requires = "animate")]
    pub delay: u64,
    /// Write rows and columns from 0 instead of 1 (in every format).
    #[arg(long)]
    pub zero_based: bool,
}

fn parse_delay(s: &str) -> Result<u64, String> {
    bounded(s, "a delay in milliseconds", 0, 10_000)
}

/// Arguments of `tree`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Level k counts the ways to place k non-attacking queens in the first k \
    rows: the nodes of the backtracking tree at depth k (OEIS A319284; level N is A000170(N)).\n\n\
    Example:\n  nqueens tree 8"
)]
pub struct TreeArgs {
    /// Board size N, from 1 to 64 (the work grows like the count's: N = 16 takes seconds).
    #[arg(value_name = "N", value_parser = parse_n, allow_negative_numbers = true)]
    pub n: u32,
    /// One JSON object: {"n", "levels": [...], "total"}.
    #[arg(long)]
    pub json: bool,
}

/// Step `e` in words, rows and columns counted from `off` (1, or 0 with `--zero-based`).
fn describe(e: &Event, off: usize) -> String {
    match e {
        Event::Place { row, col } => format!("place     row {}, column {}", row + off, col + off),
        Event::Remove { row, col } => format!("remove    row {}, column {}", row + off, col + off),
        Event::Blocked { row, tried } => {
            let what = if *tried {
                "no other free square"
            } else {
                "no free square"
            };
            let then = if *row == 0 {
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

fn draw(board: &[Option<usize>], grid: bool) -> String {
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

pub fn run_trace(a: TraceArgs) -> anyhow::Result<()> {
    if a.animate {
        if stdout::is_terminal() {
            return animate(&a);
        }
        note!("note: --animate needs a terminal; stdout is not one, so the steps follow as text");
    }
    let drawn = matches!(a.format, TraceFormat::Grid | TraceFormat::Dots);
    if drawn && a.n > TRACE_DRAW_MAX {
        return Err(Error::Usage(format!(
            "trace draws boards up to N = {TRACE_DRAW_MAX}; use --format steps or json for N = {}",
            a.n
        ))
        .into());
    }
    let mut out = stdout::stream();
    let mut err: Option<std::io::Error> = None;
    let limit = if a.max_steps == 0 {
        u64::MAX
    } else {
        a.max_steps
    };
    let mut step = 0u64;
    let mut solutions = 0u64;
    let off = usize::from(!a.zero_based);
    let (steps, finished) = trace(a.n, a.all, |e, board| {
        step += 1;
        solutions += u64::from(matches!(e, Event::Solution { .. }));
        let text = match a.format {
            TraceFormat::Json => json_line(step, e, off as u64) + "\n",
            TraceFormat::Steps => format!("{step:>7}  {}\n", describe(e, off)),
            _ => format!(
                "{step:>7}  {}\n{}\n",
                describe(e, off),
                draw(board, a.format == TraceFormat::Grid)
            ),
        };
        if let Err(e) = out.write_all(text.as_bytes()) {
            err = Some(e);
            return ControlFlow::Break(());
        }
        if step >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    let tail = (!finished && err.is_none()).then(|| {
        format!(
            "stopped after {steps} steps (--max-steps {}; 0 means no limit)",
            a.max_steps
        )
    });
    let flushed = out.flush();
    if let Err(e) = err.map_or(flushed, Err) {
        return stream_end(Err(e));
    }
    stream_end(Ok(()))?;
    if let Some(t) = tail {
        note!("{t}");
    } else if finished && a.format != TraceFormat::Json {
        note!("{}", ending(a.n, a.all, solutions, steps));
    }
    Ok(())
}

/// What a finished trace of an `n` board says on stderr at its end.
fn ending(n: u32, all: bool, solutions: u64, steps: u64) -> String {
    match (solutions, all) {
        (0, _) => {
            format!("the search is over after {steps} steps: the {n}×{n} board has no solution")
        }
        (1, false) => format!("first solution found in {steps} steps"),
        (k, _) => format!("every solution found ({k}) in {steps} steps"),
    }
}

pub fn run_tree(a: TreeArgs) -> anyhow::Result<()> {
    if a.n >= 18 {
        // Measured: N = 16 has 1.14e9 nodes (seconds on 2 cores); each N more about 7 times.
        let nodes = 1.14e9 * 7f64.powi(a.n as i32 - 16);
        note!(
            "note: tree {} walks the whole backtracking tree, about {nodes:.1e} nodes (N = 16 \
             has 1.1e9 and takes seconds; each N more about 7 times as many): this can take \
             hours; Ctrl-C stops",
            a.n
        );
    }
    let levels = tree(a.n)?;
    let total: u128 = levels.iter().sum();
    let last = levels[a.n as usize];
    compare(Sequence::A000170, a.n, last)?;
    let out = TreeOutput {
        n: a.n,
        levels,
        total,
    };
    output::print(&out, Format::json_if(a.json))
}

/// What `tree` prints: the nodes on each level of the backtracking tree.
#[derive(serde::Serialize)]
struct TreeOutput {
    n: u32,
    levels: Vec<u128>,
    total: u128,
}

impl output::Report for TreeOutput {
    fn text(&self) -> String {
        let mut s = String::from("level  nodes\n");
        for (k, x) in self.levels.iter().enumerate() {
            let _ = writeln!(s, "{k:<5}  {x}");
        }
        let _ = writeln!(s, "total  {}", self.total);
        s
    }

    fn json(&self) -> serde_json::Result<String> {
        output::json_line(self)
    }
}

fn parse_max_steps(s: &str) -> Result<u64, String> {
    bounded(s, "a step limit", 0, u64::MAX)
}

/// `trace --animate`: each step redrawn in place (ANSI cursor movement), the cursor hidden
/// while it runs and shown again however it ends.
fn animate(a: &TraceArgs) -> anyhow::Result<()> {
    if a.n > TRACE_DRAW_MAX {
        return Err(Error::Usage(format!(
            "--animate draws boards up to N = {TRACE_DRAW_MAX}; use --format steps for N = {}",
            a.n
        ))
        .into());
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, std::sync::Arc::clone(&stop))?;
    }
    let mut out = std::io::stdout().lock();
    let height = a.n as usize + 2;
    let limit = if a.max_steps == 0 {
        u64::MAX
    } else {
        a.max_steps
    };
    let delay = std::time::Duration::from_millis(a.delay);
    let (mut step, mut err) = (0u64, None);
    let _ = out.write_all(b"\x1b[?25l");
    let ended = trace(a.n, a.all, |e, board| {
        step += 1;
        let mut frame = String::new();
        if step > 1 {
            let _ = write!(frame, "\x1b[{height}A");
        }
        for line in draw(board, false).lines() {
            let _ = writeln!(frame, "\r\x1b[2K{line}");
        }
        let _ = writeln!(frame, "\r\x1b[2K");
        let _ = writeln!(
            frame,
            "\r\x1b[2Kstep {step:>6}  {}",
            describe(e, usize::from(!a.zero_based))
        );
        if let Err(e) = out.write_all(frame.as_bytes()).and_then(|_| out.flush()) {
            err = Some(e);
            return ControlFlow::Break(());
        }
        std::thread::sleep(delay);
        if step >= limit || stop.load(std::sync::atomic::Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let _ = out.write_all(b"\x1b[?25h");
    let _ = out.flush();
    let (steps, finished) = ended?;
    if let Some(e) = err {
        return stream_end(Err(e));
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(anyhow::Error::new(super::exit::Interrupted {
            signal: 2,
            message: format!("animation stopped after {steps} steps"),
        }));
    }
    if !finished {
        note!(
            "stopped after {steps} steps (--max-steps {}; 0 means no limit)",
            a.max_steps
        );
    }
    Ok(())
}
