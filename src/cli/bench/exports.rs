//! `nqueens bench-compare`: benchmark exports (`bench --json`, `bench --export FILE.json`),
//! from one machine or many, put side by side: one row per export, with the machine, the
//! build and the workload beside the headline figure, as a table of text or Markdown, or JSON.

use crate::cli::output::{self, json_line, ReportFormat};
use nqueens::board::shown::Show;
use nqueens::longrun::files::reading::read_bounded;
use nqueens::longrun::files::stream::first_words;
use nqueens::Error;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `bench-compare`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads the JSON that `nqueens bench --json` prints or `bench --export \
    FILE.json` writes, from one machine or several, and prints one row per export: when and \
    where it ran, which build and vector build counted, the workload, one thread's solutions \
    per second, and the headline (the best thread count's solutions per second), with each \
    headline against the first export's where both ran the same workload (board, algorithm, \
    kernel, runs and warm-up runs): between different workloads no ratio is given, and a note \
    says which fields differ. Exports of different commits are named too.\n\n\
    Example:\n  nqueens bench --export mine.json && nqueens bench-compare theirs.json mine.json"
)]
pub struct BenchCompareArgs {
    /// Benchmark exports (JSON), in the order their rows are wanted.
    #[arg(value_name = "EXPORT.json", required = true)]
    pub files: Vec<PathBuf>,
    /// One JSON object with a row per export instead of text.
    #[arg(long, group = "format")]
    pub json: bool,
    /// A Markdown table instead of text.
    #[arg(long, group = "format")]
    pub markdown: bool,
}

/// The most bytes of an export read: a benchmark of many thread counts and runs is tens of KiB.
const MOST_EXPORT_BYTES: u64 = 16 << 20;

/// What `bench-compare` reads of an export (older exports lack the date, the build, the
/// vector build and the headline: they read as unknown, the headline from the rows).
#[derive(Debug, Deserialize)]
struct Export {
    tool: String,
    version: String,
    date: Option<String>,
    build: Option<ExportBuild>,
    vector_build: Option<String>,
    machine: ExportMachine,
    workload: ExportWorkload,
    results: Vec<ExportRow>,
    #[serde(default)]
    warnings: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ExportBuild {
    commit: String,
    /// `modified` where it was built with uncommitted changes (older exports: unknown).
    tree: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ExportMachine {
    model: String,
    logical_cores: usize,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
struct ExportWorkload {
    n: u32,
    algorithm: String,
    kernel: String,
    /// Timed runs per thread count (older exports: unknown).
    runs: Option<usize>,
    /// Warm-up runs before them.
    warmup: Option<usize>,
}

impl ExportWorkload {
    /// The fields in which this workload differs from `first`'s, each with both values.
    fn differences(&self, first: &ExportWorkload) -> Vec<String> {
        let show = |v: Option<usize>| v.map_or("unknown".to_string(), |v| v.to_string());
        let mut out = Vec::new();
        let mut differ = |field: &str, here: String, there: String| {
            if here != there {
                out.push(format!("{field} {here} (the first: {there})"));
            }
        };
        differ("board", self.n.to_string(), first.n.to_string());
        differ("algorithm", self.algorithm.clone(), first.algorithm.clone());
        differ("kernel", self.kernel.clone(), first.kernel.clone());
        differ("runs", show(self.runs), show(first.runs));
        differ("warm-up runs", show(self.warmup), show(first.warmup));
        out
    }

    /// The workload as the table names it.
    fn named(&self) -> String {
        let runs = match (self.runs, self.warmup) {
            (Some(1), Some(w)) => format!(", 1 run after {w} warm-up"),
            (Some(r), Some(w)) => format!(", {r} runs after {w} warm-up"),
            _ => String::new(),
        };
        format!(
            "count {} ({}, {}){runs}",
            self.n, self.algorithm, self.kernel
        )
    }
}

#[derive(Debug, Deserialize)]
struct ExportRow {
    threads: usize,
    solutions_per_second: f64,
}

/// One export's row of the table.
#[derive(Debug, Serialize)]
struct ComparedLine {
    file: String,
    date: String,
    machine: String,
    logical_cores: usize,
    vector_build: String,
    version: String,
    commit: String,
    workload: String,
    one_thread: Option<f64>,
    headline: f64,
    headline_threads: usize,
    /// The headline over the first export's; `None` where the workloads differ.
    against_first: Option<f64>,
    /// How this export's workload differs from the first's (empty where it does not).
    differs_from_first: Vec<String>,
    warnings: usize,
}

/// The table of exports.
#[derive(Debug, Serialize)]
struct Table {
    exports: Vec<ComparedLine>,
    /// Whether every export counted the same workload (else headlines do not compare).
    same_workload: bool,
    /// The commits the exports were built from, each once, where there are several.
    commits: Vec<String>,
}

/// Reads export `path`, or says why it is not one.
fn read(path: &PathBuf) -> anyhow::Result<Export> {
    let name = path.shown().to_string();
    let f = std::fs::File::open(path)
        .map_err(|e| Error::Input(format!("cannot read export {name}: {e}")))?;
    let text = read_bounded(f, &name, "benchmark export", MOST_EXPORT_BYTES)?;
    let e: Export = serde_json::from_str(&text).map_err(|e| {
        Error::Input(format!(
            "{name} is not a benchmark export ({}): give what `nqueens bench --json` prints \
             or `bench --export FILE.json` writes",
            first_words(&e)
        ))
    })?;
    if e.tool != "nqueens" || e.results.is_empty() {
        return Err(Error::Input(format!(
            "{name} is not an nqueens benchmark export with results: give what `nqueens bench \
             --json` prints"
        ))
        .into());
    }
    if let Some(why) = out_of_range(&e) {
        return Err(
            Error::Input(format!("{name} is not an export a benchmark wrote: {why}")).into(),
        );
    }
    Ok(e)
}

/// Why export `e`'s numbers cannot be a benchmark's, if they cannot: a speed that is not a
/// positive finite number, a thread or core count of 0 or past what a count runs on, a
/// board that is not one.
fn out_of_range(e: &Export) -> Option<String> {
    let most = nqueens_board::limits::MAX_THREADS;
    if !(1..=64).contains(&e.workload.n) {
        return Some(format!("its workload's board is {}", e.workload.n));
    }
    if !(1..=1 << 20).contains(&e.machine.logical_cores) {
        return Some(format!("its machine has {} CPUs", e.machine.logical_cores));
    }
    e.results.iter().find_map(|r| {
        if !(r.solutions_per_second.is_finite() && r.solutions_per_second > 0.0) {
            Some(format!(
                "it counts {} solutions per second (a positive number is)",
                r.solutions_per_second
            ))
        } else if !(1..=most).contains(&r.threads) {
            Some(format!(
                "a row ran on {} threads (1 to {most} run)",
                r.threads
            ))
        } else {
            None
        }
    })
}

/// The first export's headline and workload, what the others are held against.
struct First {
    headline: f64,
    workload: ExportWorkload,
}

fn line(file: &std::path::Path, e: Export, first: Option<&First>) -> ComparedLine {
    let best = e
        .results
        .iter()
        .max_by(|a, b| a.solutions_per_second.total_cmp(&b.solutions_per_second))
        .expect("an export with results");
    let headline = best.solutions_per_second;
    let differs = first.map_or_else(Vec::new, |f| e.workload.differences(&f.workload));
    ComparedLine {
        file: file.shown().to_string(),
        date: e.date.unwrap_or_else(|| "unknown".into()),
        machine: e.machine.model,
        logical_cores: e.machine.logical_cores,
        vector_build: e.vector_build.unwrap_or_else(|| "unknown".into()),
        version: e.version,
        commit: e.build.map_or_else(
            || "unknown".into(),
            |b| match b.tree.as_deref() {
                Some("modified") => format!("{}, modified", b.commit),
                _ => b.commit,
            },
        ),
        workload: e.workload.named(),
        one_thread: e
            .results
            .iter()
            .find(|r| r.threads == 1)
            .map(|r| r.solutions_per_second),
        headline,
        headline_threads: best.threads,
        against_first: differs
            .is_empty()
            .then(|| headline / first.map_or(headline, |f| f.headline)),
        differs_from_first: differs,
        warnings: e.warnings.len(),
    }
}

pub fn run(a: BenchCompareArgs) -> anyhow::Result<()> {
    let mut exports: Vec<ComparedLine> = Vec::with_capacity(a.files.len());
    let mut first: Option<First> = None;
    for f in &a.files {
        let e = read(f)?;
        let workload = e.workload.clone();
        let l = line(f, e, first.as_ref());
        first.get_or_insert(First {
            headline: l.headline,
            workload,
        });
        exports.push(l);
    }
    let same_workload = exports.iter().all(|l| l.differs_from_first.is_empty());
    let mut commits: Vec<String> = Vec::new();
    for l in &exports {
        let commit = l.commit.trim_end_matches(", modified");
        if !commits.iter().any(|c| c == commit) {
            commits.push(commit.to_string());
        }
    }
    if commits.len() < 2 {
        commits.clear();
    }
    let table = Table {
        exports,
        same_workload,
        commits,
    };
    let format = if a.markdown {
        ReportFormat::Markdown
    } else {
        ReportFormat::json_if(a.json)
    };
    output::print(&table, format)
}

/// A string read from an export, as a cell shows it: escaped for the terminal
/// ([`escaped`](nqueens::board::shown::escaped)), and for Markdown also its `|`, `\\` and HTML
/// characters, so that no export adds a row or a column, or markup, to the table.
fn shown(s: &str, markdown: bool) -> String {
    let s = nqueens::board::shown::escaped(s);
    if !markdown {
        return s.into_owned();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
    out
}

/// Columns of the table: header and cell of each, the strings shown for text or Markdown.
fn cells(l: &ComparedLine, markdown: bool) -> [String; 9] {
    let show = |s: &str| shown(s, markdown);
    [
        show(l.date.get(..10).unwrap_or(&l.date)),
        format!("{} ({} CPUs)", show(&l.machine), l.logical_cores),
        show(&l.vector_build),
        format!("{} ({})", show(&l.version), show(&l.commit)),
        show(&l.workload),
        l.one_thread.map_or("-".into(), |x| format!("{x:.4e}")),
        format!("{:.4e} at {}", l.headline, l.headline_threads),
        l.against_first.map_or("-".into(), |x| format!("{x:.3}")),
        l.warnings.to_string(),
    ]
}

const HEADERS: [&str; 9] = [
    "date",
    "machine",
    "vector build",
    "nqueens",
    "workload",
    "solutions/s, 1 thread",
    "headline solutions/s, at threads",
    "against the first",
    "warnings",
];

impl Table {
    /// What follows the table: the exports whose workload differs from the first's, and how
    /// (no ratio is given for them), and the commits where there are several.
    fn note(&self, markdown: bool) -> String {
        let mut s = String::new();
        for l in self
            .exports
            .iter()
            .filter(|l| !l.differs_from_first.is_empty())
        {
            let _ = writeln!(
                s,
                "{} counts another workload than the first export: {}; no ratio is given.",
                shown(&l.file, markdown),
                shown(&l.differs_from_first.join(", "), markdown)
            );
        }
        for l in self
            .exports
            .iter()
            .filter(|l| l.commit.ends_with(", modified"))
        {
            let _ = writeln!(
                s,
                "{} was built with uncommitted changes: its figures are not its commit's.",
                shown(&l.file, markdown)
            );
        }
        if !self.commits.is_empty() {
            let commits: Vec<String> = self.commits.iter().map(|c| shown(c, markdown)).collect();
            let _ = writeln!(
                s,
                "The exports come from different commits ({}): a difference may be the code's, \
                 not the machine's.",
                commits.join(", ")
            );
        }
        if s.is_empty() {
            s
        } else {
            format!("\n{s}")
        }
    }
}

impl output::Report for Table {
    fn text(&self) -> String {
        let rows: Vec<[String; 9]> = self.exports.iter().map(|l| cells(l, false)).collect();
        let width = |i: usize| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([HEADERS[i].len()])
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..9).map(width).collect();
        let mut s = String::new();
        let row = |s: &mut String, cells: &[&str]| {
            let v: Vec<String> = cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            let _ = writeln!(s, "{}", v.join("  ").trim_end());
        };
        row(&mut s, &HEADERS);
        for r in &rows {
            row(&mut s, &r.iter().map(String::as_str).collect::<Vec<_>>());
        }
        s + &self.note(false)
    }

    fn json(&self) -> serde_json::Result<String> {
        json_line(self)
    }

    fn markdown(&self) -> Option<String> {
        let mut s = format!("| {} |\n", HEADERS.join(" | "));
        let _ = writeln!(s, "|{}", " --- |".repeat(HEADERS.len()));
        for l in &self.exports {
            let _ = writeln!(s, "| {} |", cells(l, true).join(" | "));
        }
        Some(s + &self.note(true))
    }
}
