//! `nqueens table A..B`.

use super::args::common::EngineArgs;
use super::args::parse::parse_n;
use super::count::cost::{
    before_counting, duration, rough_wall_seconds, CountAsked, ASK_PAST_SECONDS,
};
use super::output::{self, json_line, plot, ReportFormat};
use nqueens::oeis::{compare, Sequence};
use nqueens::{Algorithm, Error};
use serde::Serialize;

/// Arguments of `table`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each line is `n a(n) mark`, as in an OEIS b-file plus a mark:\n  \
    ok       the computed value equals the known one\n  \
    MISMATCH the computed value differs (the known one follows); exit code 3\n  \
    new      no known value to compare with\n\n\
    Example:\n  nqueens table 1..12\n  nqueens table 4..10 --unique --json\n  \
    nqueens table 1..16 --plot a000170.svg",
    mut_arg("algorithm", |a| a.help(
        "The counting method: `auto` (the default: `quadrants` for even N >= 16 and odd N >= \
         17 up to 28, else `symmetric`), `quadrants`, `symmetric`, `mirror` or `plain` (see \
         `nqueens count --help`)"
    ))
)]
pub struct TableArgs {
    /// The range of board sizes, both ends included: `A..B` (or `A..=B`, the same) with
    /// 1 <= A <= B <= 64, or one N.
    #[arg(value_name = "A..B", value_parser = parse_range)]
    pub range: std::ops::RangeInclusive<u32>,
    /// Reproduce A002562 (solutions up to rotation and reflection) instead of A000170.
    /// Needs the `symmetric` algorithm.
    #[arg(long)]
    pub unique: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also draw a(n) against n on a log scale into FILE.svg.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
    /// Count even rows that take past a day, or cannot finish in a lifetime (by a rough
    /// scale, on the threads given): refused without it, before any row is counted.
    #[arg(long)]
    pub force: bool,
}

/// One line of the table.
#[derive(Debug, Serialize)]
struct TableLine {
    n: u32,
    sequence: &'static str,
    value: u128,
    known: Option<u128>,
    matches_known: Option<bool>,
}

fn parse_range(s: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    let bad = |why: &str| Error::Range(s.to_string(), why.to_string()).to_string();
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (a, b.strip_prefix('=').unwrap_or(b)),
        None => (s, s),
    };
    let num = |x: &str| -> Result<u32, String> {
        parse_n(x).map_err(|e| {
            bad(&format!(
                "expected A..B (or A..=B) with whole numbers, both ends included, e.g. 1..12: {e}"
            ))
        })
    };
    let (a, b) = (num(a)?, num(b)?);
    if a > b {
        return Err(bad(&format!(
            "the start ({a}) is after the end ({b}); write the smaller number first"
        )));
    }
    Ok(a..=b)
}

impl TableLine {
    fn new(seq: Sequence, n: u32, value: u128) -> TableLine {
        let known = seq.known(n);
        TableLine {
            n,
            sequence: seq.id(),
            value,
            known,
            matches_known: known.map(|k| k == value),
        }
    }
}

impl output::Report for TableLine {
    /// `N VALUE ok|MISMATCH KNOWN|new`.
    fn text(&self) -> String {
        let (n, value) = (self.n, self.value);
        match self.known {
            Some(k) if k == value => format!("{n} {value} ok\n"),
            Some(k) => format!("{n} {value} MISMATCH {k}\n"),
            None => format!("{n} {value} new\n"),
        }
    }

    fn json(&self) -> serde_json::Result<String> {
        json_line(self)
    }
}

pub fn run(a: TableArgs) -> anyhow::Result<()> {
    let seq = if a.unique {
        Sequence::A002562
    } else {
        Sequence::A000170
    };
    let opts = a.engine.options()?;
    if let Some(alg) = opts.algorithm.filter(|&a| a != Algorithm::Auto) {
        if a.unique && !alg.counts_classes() {
            anyhow::bail!(Error::Usage(format!(
                "--unique needs --algorithm symmetric, quadrants or auto (got {alg}): only \
                 they count unique solutions"
            )));
        }
    }
    let chart = a.plot.as_deref().map(plot::chart_target).transpose()?;
    let notes = before_the_rows(&a, &opts)?;
    let mut first_mismatch = None;
    let mut values = Vec::new();
    for (n, note) in a.range.clone().zip(notes) {
        if let Some(note) = note {
            note!("{note}");
        }
        let t = nqueens::count_unchecked(n, &opts)?;
        let value = if a.unique {
            t.unique.unwrap_or_default()
        } else {
            t.total
        };
        output::print(
            &TableLine::new(seq, n, value),
            ReportFormat::json_if(a.json),
        )?;
        values.push((n, value));
        if first_mismatch.is_none() {
            first_mismatch = compare(seq, n, value).err();
        }
    }
    if let Some(chart) = &chart {
        let what = if a.unique {
            "solutions up to rotation and reflection"
        } else {
            "solutions"
        };
        let title = format!(
            "{}: {what} of the n-queens problem, computed by nqueens",
            seq.id()
        );
        plot::sequence(chart, &title, &values)?;
    }
    match first_mismatch {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// Every row's cost first: a range is refused whole before its first row is counted (a row
/// that cannot finish in a lifetime, or rows that take past a day, alone or together); the
/// notes to print before each row.
fn before_the_rows(a: &TableArgs, opts: &nqueens::Options) -> anyhow::Result<Vec<Option<String>>> {
    let threads = opts.resolved_threads();
    let notes = a
        .range
        .clone()
        .map(|n| {
            before_counting(&CountAsked {
                n,
                algorithm: opts.resolved_algorithm(n),
                placed: false,
                shard: None,
                resumable: false,
                // A table has no checkpoint to advise: its rows take --force or nothing.
                least_shards: None,
                threads,
                force: a.force,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Rows that each take under a day may take longer together: the table asks first too.
    let wall: f64 = a
        .range
        .clone()
        .map(|n| rough_wall_seconds(n, opts.resolved_algorithm(n), threads))
        .sum();
    if wall > ASK_PAST_SECONDS && !a.force {
        anyhow::bail!(Error::Usage(format!(
            "the rows {}..{} together take about {} on {threads} thread(s) by a rough scale, \
             past a day: nothing is counted; ask for fewer rows, or for these anyway with \
             --force",
            a.range.start(),
            a.range.end(),
            duration(wall)
        )));
    }
    Ok(notes)
}
