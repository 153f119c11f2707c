//! `nqueens bench`: its options, the runs at each thread count, and where the report goes.

use super::compare::{Compared, Other};
use super::noise;
use super::report;
use super::results::{Machine, OnGpu, Report, Row, Workload};

use crate::cli::args::common::named;
use crate::cli::args::parse::{bounded, parse_n, parse_threads};
use crate::cli::output::{self, plot, Format, Target};
use indicatif::{ProgressBar, ProgressStyle};
use nqueens::internals::engine::default_threads;
use nqueens::internals::Build;
use nqueens::oeis::Sequence;
use nqueens::{Algorithm, Error, Kernel};

use std::io::IsTerminal;
use std::path::PathBuf;

/// The default workload: `count 18`, about 8 s per run on one core of this machine (`wide`
/// kernel with AVX-512; about 4 times longer with its scalar build).
pub const DEFAULT_N: u32 = 18;

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The workload is `count N` (default N = 18) with the default algorithm and \
    kernel, run --warmup times unmeasured and then --runs times at each thread count. Every \
    run's total (and unique count) is checked against OEIS: a wrong count aborts with exit 3.\n\n\
    Speedup and efficiency are against one thread (or the first thread count given).\n\n\
    Warnings follow the table, as hyperfine gives them: a machine busy as the benchmark began \
    (load average), other processes' share of the CPUs while it ran, runs that spread widely, \
    an efficiency above 100%.\n\n\
    --compare OTHER runs another nqueens binary's `count` of the same workload in turn with \
    this one's (this, then the other, each run; both as processes of their own), each timed \
    by the seconds its JSON report gives and checked against OEIS, and gives the other's \
    times and the ratio of the medians.\n\n\
    --gpu times the same workload on the GPU too (the kernel `gpu`, fed by the largest thread \
    count's CPU threads), after the CPU's runs, and gives its solutions per second beside the \
    CPU's best: a build with the `gpu` feature and a GPU, else refused before any run.\n\n\
    Examples:\n  nqueens bench\n  nqueens bench --n 16 --threads 1,2 --runs 3 --markdown\n  \
    nqueens bench --n 17 --threads 1 --compare ./old-nqueens\n  \
    nqueens bench --n 20 --threads 16 --runs 3 --gpu\n  \
    nqueens bench --json --export bench.json"
)]
pub struct BenchArgs {
    /// Board size of the workload: a board with a known count, so that every run is checked
    /// (4 to 27).
    #[arg(long, short = 'n', value_name = "N", default_value_t = DEFAULT_N, value_parser = parse_n)]
    pub n: u32,
    /// Thread counts, comma-separated (default: 1 to the number of logical CPUs).
    #[arg(long, short = 't', value_name = "LIST", value_parser = parse_list)]
    pub threads: Option<ThreadList>,
    /// Measured runs per thread count (at least 1).
    #[arg(long, short = 'r', value_name = "R", default_value_t = 5, value_parser = parse_runs)]
    pub runs: usize,
    /// Unmeasured warm-up runs before each thread count's runs.
    #[arg(long, short = 'w', value_name = "W", default_value_t = 1, value_parser = parse_warmup)]
    pub warmup: usize,
    /// The algorithm (default: symmetric).
    #[arg(long, short = 'a', value_parser = named::<Algorithm>(Algorithm::NAMES), default_value_t = Algorithm::Symmetric)]
    pub algorithm: Algorithm,
    /// The kernel (default: the default kernel of `count`).
    #[arg(long, short = 'k', value_parser = named::<Kernel>(Kernel::NAMES), default_value_t = Kernel::default())]
    pub kernel: Kernel,
    /// Write JSON (its fields in docs/guide/bench.md).
    #[arg(long, group = "format")]
    pub json: bool,
    /// Write CSV, one row per thread count.
    #[arg(long, group = "format")]
    pub csv: bool,
    /// Write a Markdown table.
    #[arg(long, group = "format")]
    pub markdown: bool,
    /// Write the report to FILE (the text table still goes to stdout), in the format of
    /// --json, --csv or --markdown, or else of the file's extension (.json, .csv, .md, .txt).
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
    /// Draw time, speedup and parallel efficiency against threads into FILE.svg, with the
    /// workload and the machine in the caption.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Another nqueens binary to time on the same workload, its runs in turn with this one's.
    #[arg(long, value_name = "OTHER_BINARY")]
    pub compare: Option<PathBuf>,
    /// Time the workload on the GPU too, after the CPU's runs, and give its solutions a
    /// second beside the CPU's (a build with the `gpu` feature; docs/guide/gpu.md).
    #[arg(long, conflicts_with = "compare")]
    pub gpu: bool,
}

/// A parsed `--threads` list.
#[derive(Debug, Clone)]
pub struct ThreadList(pub Vec<usize>);

fn parse_list(s: &str) -> Result<ThreadList, String> {
    let v: Result<Vec<usize>, String> = s.split(',').map(parse_threads).collect();
    v.map(ThreadList).map_err(|e| {
        format!("'{s}' is not a thread list: give thread counts, comma-separated, e.g. 1,2,4 ({e})")
    })
}

fn parse_runs(s: &str) -> Result<usize, String> {
    bounded(s, "a run count", 1, 1_000_000).map(|r| r as usize)
}

fn parse_warmup(s: &str) -> Result<usize, String> {
    bounded(s, "a warm-up count", 0, 1_000_000).map(|r| r as usize)
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}

/// Refuses a workload without a known count to check, and an export without a format.
fn check_args(a: &BenchArgs) -> anyhow::Result<()> {
    if Sequence::A000170.known(a.n).is_none() || a.n < 4 {
        return Err(Error::Usage(format!(
            "bench needs a board with a known count to check every run: N from 4 to {} (got {})",
            Sequence::A000170.known_values().last().map_or(0, |x| x.0),
            a.n
        ))
        .into());
    }
    if a.gpu {
        if a.algorithm == Algorithm::Quadrants {
            return Err(Error::Usage(
                "bench --gpu times the backtracking plan's tasks on the GPU: give -a symmetric \
                 (the default) or mirror, not quadrants (the quadrant method has no GPU kernel)"
                    .into(),
            )
            .into());
        }
        nqueens::internals::gpu::available()?;
    }
    Ok(())
}

/// One run of the workload on `t` threads: its seconds, and the other binary's where there is
/// one; `first` gets the workload's figures from the first in-process count. A fast wrong
/// answer is a failure: `count` checks every run, and the other binary's is checked too.
/// Beside another binary this one runs as a process too, so that both pay the same start.
fn one_run(
    a: &BenchArgs,
    opts: &nqueens::Options,
    t: usize,
    other: Option<&(Other, Other)>,
    first: &mut Option<nqueens::Totals>,
) -> anyhow::Result<(f64, Option<f64>)> {
    let Some((me, o)) = other else {
        let out = nqueens::count(a.n, opts)?;
        let secs = out.elapsed.as_secs_f64();
        first.get_or_insert(out);
        return Ok((secs, None));
    };
    if first.is_none() {
        *first = Some(nqueens::count(a.n, opts)?);
    }
    let mine = me.count(a.n, t, a.algorithm, a.kernel)?;
    Ok((mine, Some(o.count(a.n, t, a.algorithm, a.kernel)?)))
}

/// Runs the workload `warmup + runs` times on `t` threads (every run checked by `count`);
/// returns the row of the measured runs and the workload as the first run found it.
fn measure(
    a: &BenchArgs,
    t: usize,
    kernel: Kernel,
    other: Option<&(Other, Other)>,
    bar: Option<&ProgressBar>,
) -> anyhow::Result<(Row, Workload)> {
    let opts = crate::cli::args::common::options()?
        .with_threads(t)
        .with_algorithm(a.algorithm)
        .with_kernel(kernel);
    let mut times = Vec::with_capacity(a.runs);
    let mut theirs = Vec::with_capacity(a.runs);
    let mut first = None;
    for i in 0..a.warmup + a.runs {
        if let Some(b) = bar {
            b.set_message(if kernel.is_gpu() {
                format!("the GPU, fed by {t} thread(s)")
            } else {
                format!("{t} thread(s)")
            });
        }
        let (secs, other_secs) = one_run(a, &opts, t, other, &mut first)?;
        if let Some(x) = other_secs.filter(|_| i >= a.warmup) {
            theirs.push(x);
        }
        if i >= a.warmup {
            times.push(secs);
        }
        if let Some(b) = bar {
            b.inc(1);
        }
    }
    let out = first.expect("at least one run");
    let med = median(&times);
    let row = Row {
        threads: t,
        split_depth: out.split_depth,
        median_s: med,
        min_s: times.iter().cloned().fold(f64::INFINITY, f64::min),
        max_s: times.iter().cloned().fold(0.0, f64::max),
        times_s: times,
        speedup: 0.0,
        efficiency: 0.0,
        nodes_per_second: out.nodes as f64 / med,
        solutions_per_second: out.total as f64 / med,
        compare: other.map(|_| {
            let theirs_med = median(&theirs);
            Compared {
                median_s: theirs_med,
                min_s: theirs.iter().cloned().fold(f64::INFINITY, f64::min),
                max_s: theirs.iter().cloned().fold(0.0, f64::max),
                ratio: theirs_med / med,
                times_s: theirs,
            }
        }),
    };
    let workload = Workload {
        n: a.n,
        algorithm: a.algorithm,
        kernel: a.kernel,
        total: out.total,
        unique: out.unique,
        nodes: out.nodes,
        runs: a.runs,
        warmup: a.warmup,
    };
    Ok((row, workload))
}

fn progress_bar(runs: usize) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = ProgressBar::new(runs as u64);
        b.set_style(
            ProgressStyle::with_template("bench [{bar:30}] {pos}/{len} runs, {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        b
    })
}

pub fn run(a: BenchArgs) -> anyhow::Result<()> {
    check_args(&a)?;
    // Where the report and the chart go, checked before any run: not found out after them.
    let out = Outputs::of(&a)?;
    let threads = a
        .threads
        .clone()
        .map(|l| l.0)
        .unwrap_or_else(|| (1..=default_threads()).collect());
    // This binary beside the other, both run as processes (resolved once).
    let other = match a.compare.as_deref() {
        Some(path) => Some((Other::this()?, Other::new(path)?)),
        None => None,
    };
    let watch = noise::Watch::start();
    let measured = threads.len() + usize::from(a.gpu);
    let bar = progress_bar(measured * (a.runs + a.warmup));
    let mut rows = Vec::new();
    let mut workload = None;
    for &t in &threads {
        let (row, w) = measure(&a, t, a.kernel, other.as_ref(), bar.as_ref())?;
        rows.push(row);
        workload.get_or_insert(w);
    }
    let gpu = match a.gpu {
        true => Some(on_gpu(&a, &threads, &rows, bar.as_ref())?),
        false => None,
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let base_row = rows.iter().find(|r| r.threads == 1).unwrap_or(&rows[0]);
    let (base, base_t) = (base_row.median_s, base_row.threads);
    for r in &mut rows {
        r.speedup = base / r.median_s;
        r.efficiency = r.speedup * base_t as f64 / r.threads as f64;
    }
    let mut warnings = watch.warnings(num_cpus::get());
    warnings.extend(noise::oversubscribed(&threads, num_cpus::get()));
    warnings.extend(noise::run_warnings(&rows));
    let report = Report {
        tool: "nqueens",
        version: env!("CARGO_PKG_VERSION"),
        machine: Machine {
            model: cpu_model(),
            logical_cores: num_cpus::get(),
            physical_cores: num_cpus::get_physical(),
            features: Build::richest().describe(),
            os: std::env::consts::OS,
            arch: std::env::consts::ARCH,
        },
        workload: workload.expect("at least one thread count"),
        results: rows,
        compared_with: other.map(|(_, o)| [o.path().display().to_string(), o.version.clone()]),
        gpu,
        warnings,
    };
    out.write(&report)
}

/// The workload's runs on the GPU, fed by the largest of `threads`, beside the best of the
/// CPU's `rows`.
fn on_gpu(
    a: &BenchArgs,
    threads: &[usize],
    rows: &[Row],
    bar: Option<&ProgressBar>,
) -> anyhow::Result<OnGpu> {
    let device = nqueens::internals::gpu::available()?;
    let feeding = threads.iter().copied().max().unwrap_or(1);
    let (mut runs, _) = measure(a, feeding, Kernel::Gpu, None, bar)?;
    let best = rows
        .iter()
        .map(|r| r.solutions_per_second)
        .fold(0.0, f64::max);
    // Against one thread of the CPU, as the CPU's rows are.
    let one = rows.iter().find(|r| r.threads == 1).unwrap_or(&rows[0]);
    runs.speedup = one.median_s / runs.median_s;
    runs.efficiency = runs.speedup * one.threads as f64 / feeding as f64;
    Ok(OnGpu {
        device,
        against_cpu: runs.solutions_per_second / best,
        runs,
    })
}

/// Where a benchmark's report and chart go, each checked before any run.
struct Outputs {
    /// The format of stdout.
    format: Format,
    /// `--export FILE` and the format written there.
    export: Option<(Target, Format)>,
    /// `--plot FILE.svg`.
    chart: Option<Target>,
}

impl Outputs {
    /// The outputs `a` asks for: the format flags for stdout, or, with `--export`, the text
    /// table on stdout and the file in the flag's format or its name's.
    fn of(a: &BenchArgs) -> anyhow::Result<Outputs> {
        let flag = if a.json {
            Some(Format::Json)
        } else if a.csv {
            Some(Format::Csv)
        } else if a.markdown {
            Some(Format::Markdown)
        } else {
            None
        };
        let export = match &a.export {
            Some(path) => {
                let format = flag.or_else(|| Format::of_path(path)).ok_or_else(|| {
                    Error::Usage(format!(
                        "--export {}: give the format (--json, --csv or --markdown) or a file \
                         name ending in .json, .csv, .md or .txt",
                        path.display()
                    ))
                })?;
                Some((Target::file(path, "export")?, format))
            }
            None => None,
        };
        Ok(Outputs {
            format: if export.is_some() {
                Format::Text
            } else {
                flag.unwrap_or(Format::Text)
            },
            export,
            chart: a.plot.as_deref().map(plot::chart_target).transpose()?,
        })
    }

    /// Writes `report` to each output.
    fn write(&self, report: &Report) -> anyhow::Result<()> {
        if let Some(chart) = &self.chart {
            let points: Vec<plot::BenchPoint> = report
                .results
                .iter()
                .map(|r| plot::BenchPoint {
                    threads: r.threads,
                    median: r.median_s,
                    min: r.min_s,
                    max: r.max_s,
                    speedup: r.speedup,
                    efficiency: r.efficiency,
                })
                .collect();
            let caption: Vec<String> = report::head(report).lines().map(str::to_string).collect();
            plot::bench(chart, &caption, &report.warnings, &points)?;
        }
        if let Some((target, format)) = &self.export {
            output::emit(report, *format, target)?;
        }
        output::print(report, self.format)
    }
}
