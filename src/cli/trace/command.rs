//! `nqueens trace N`: which way of showing the search runs, after the options are checked.

use super::args::{TraceArgs, TraceFormat, TRACE_DRAW_MAX};
use super::search::TracedSearch;
use super::{animate, page, steps};
use crate::cli::output::stdout;
use nqueens::Error;

pub fn run_trace(a: TraceArgs) -> anyhow::Result<()> {
    let format = a.format.unwrap_or(TraceFormat::Steps);
    if let (true, Some(f)) = (a.animate, a.format) {
        return Err(Error::Usage(format!(
            "--animate redraws the board in place, and --format {} shows the steps another \
             way: give one or the other",
            clap::ValueEnum::to_possible_value(&f).map_or("?".into(), |v| v.get_name().to_string())
        ))
        .into());
    }
    if a.output.is_some() && format != TraceFormat::Html {
        return Err(Error::Usage(
            "-o writes the page of --format html; the other formats stream to stdout: redirect \
             them with `> FILE`"
                .into(),
        )
        .into());
    }
    let drawn = a.animate || !matches!(format, TraceFormat::Steps | TraceFormat::Json);
    if drawn && a.n > TRACE_DRAW_MAX {
        return Err(Error::Usage(format!(
            "trace draws boards up to N = {TRACE_DRAW_MAX}; use --format steps or json for N = {}",
            a.n
        ))
        .into());
    }
    let search = TracedSearch::of(&a)?;
    if a.animate {
        if stdout::is_terminal() {
            return animate::run(&search, a.delay);
        }
        note!("note: --animate needs a terminal; stdout is not one, so the steps follow as text");
    }
    match format {
        TraceFormat::Html => page::trace_page(&search, a.output.as_deref()),
        f => steps::stream(&search, f),
    }
}
