//! `nqueens bench`'s options: the workload, the thread counts, the runs, and where the report
//! goes.

use crate::cli::args::common::named;
use crate::cli::args::parse::{bounded, parse_n, parse_threads};
use nqueens::{Algorithm, Kernel};
use std::path::PathBuf;

/// The default workload: `count 18`, about 8 s per run on one core of this machine (`wide`
/// kernel with AVX-512; about 4 times longer with its scalar build).
pub const DEFAULT_N: u32 = 18;

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The workload is a count of N (default N = 18) by the symmetric backtracker \
    (the default here: a CPU benchmark of the bit-mask search, --kernel for its kernels), not \
    the quadrant method that `nqueens count 18` runs; -a quadrants times that one, what users \
    run. Every report and export names which. It runs --warmup times unmeasured and then \
    --runs times at each thread count. Every run's total (and unique count) is checked against \
    OEIS: a wrong count aborts with exit 3. The default takes minutes (about 6 on a 2-vCPU AMD \
    EPYC, where one backtracking run of N = 18 on one thread takes 35 s; the quadrant method \
    counts it in about 3 s on two): --n 16 is a quick look. Ctrl-C (or SIGTERM) stops it and still \
    reports the thread counts whose runs finished (exit 130, or 143).\n\n\
    Speedup and efficiency are against one thread, and shown only where one thread was \
    measured (--threads without 1 leaves them out; --plot needs it). The \
    report names the date, the build (version and commit), the vector build and the machine, \
    and ends with the headline: the best thread count's solutions per second, the figure to \
    compare machines by. `nqueens bench-compare A.json B.json` puts exports side by side.\n\n\
    Warnings follow the table, as hyperfine gives them: a machine busy as the benchmark began \
    (load average), other processes' share of the CPUs while it ran, runs that spread widely, \
    an efficiency above 105%, which threads cannot give.\n\n\
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
    /// The algorithm.
    #[arg(long, short = 'a', value_parser = named::<Algorithm>(Algorithm::NAMES), default_value_t = Algorithm::Symmetric)]
    pub algorithm: Algorithm,
    /// The kernel (`count`'s default unless given).
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
