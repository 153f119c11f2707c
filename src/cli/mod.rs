//! The command line: clap definitions, argument parsers, and one module per subcommand.

mod args;
mod audit;
mod bench;
mod cost;
mod count;
mod env;
mod estimate;
mod export;
mod merge;
mod plot;
mod report;
mod ship;
mod solve;
mod status;
mod table;
mod trace;
mod verify;

use args::{parse_column, parse_split_depth, parse_square, parse_threads};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use nqueens::board::check::placements_as;
use nqueens::{Algorithm, Error, Kernel, Options};
use std::io::Write;
use std::str::FromStr;

/// Count, find and list the solutions of the N-Queens problem.
///
/// Place N queens on an N×N board so that no two share a row, column or diagonal. Counts are
/// computed in parallel with u64 bit masks and checked against the known OEIS values
/// (A000170: all solutions; A002562: solutions up to rotation and reflection).
///
/// Exit codes: 0 success; 1 runtime failure (and, for `verify`, a board that is not a
/// solution); 2 bad usage or input; 3 a computed count disagrees with a known value; 130 / 143
/// / 129 a count stopped by Ctrl-C / SIGTERM / SIGHUP.
///
/// Environment (for tests and measurements; empty is unset): NQUEENS_QUARTER_PARTS=P counts
/// with the quadrant method's striped plan in P parts (1 to 64) at any N, a plan of its own
/// that every command reading its files needs the same P for; NQUEENS_QUARTER_SLICES=1
/// counts from quarter slices at any N (the same plan and counts); NQUEENS_QUADRANT_BUILD=B
/// caps the quadrant method's vector build at portable, avx2 or avx512.
#[derive(Debug, Parser)]
#[command(name = "nqueens", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The board a count or an estimate is for (what [`tune_heap`] sizes the heaps by).
    pub fn board(&self) -> Option<u32> {
        match &self.command {
            Command::Count(a) => Some(a.n),
            Command::Estimate(a) => Some(a.n),
            _ => None,
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count all solutions of an N×N board (and the unique ones), in parallel, checked against OEIS.
    Count(count::CountArgs),
    /// Combine the results of `count --shard I/K` runs into the whole count, checking that
    /// every shard is there exactly once.
    Merge(merge::MergeArgs),
    /// Time a fixed, cross-checked count at several thread counts: a CPU benchmark.
    Bench(bench::BenchArgs),
    /// Recount a random sample of the tasks recorded in shard results and checkpoints from
    /// other machines, and name any task whose count differs (exit 3).
    Audit(audit::AuditArgs),
    /// What a count will cost (core-hours with an interval, memory, shards), projected from
    /// a seeded sample of its tasks counted within a time budget.
    Estimate(estimate::EstimateArgs),
    /// Where a distributed run stands: finished, partial and missing shards, solutions so far,
    /// work left (exit 0 only when it is complete and merges).
    Status(status::StatusArgs),
    /// Reproduce OEIS A000170 (or A002562) for a range of N: `n a(n) mark` lines, computed.
    Table(table::TableArgs),
    /// Show one solution: the first in backtracking order, or a construction for large N.
    Solve(solve::SolveArgs),
    /// Stream every solution (or one per symmetry class) in lexicographic order.
    List(solve::ListArgs),
    /// Check a board (any output format, from a file or stdin): a solution, or which queens attack.
    Verify(verify::VerifyArgs),
    /// Show the backtracking search step by step: placements, dead ends, take-backs.
    Trace(trace::TraceArgs),
    /// Count the nodes on each level of the backtracking tree (OEIS A319284).
    Tree(trace::TreeArgs),
    /// Print the shell completion script for SHELL (bash, zsh, fish, elvish, powershell).
    Completions(ship::CompletionsArgs),
    /// Print a man page (roff), nqueens(1) or a command's, generated from these definitions;
    /// or write them all to a directory (--dir).
    Man(ship::ManArgs),
}

/// A value parser for an enum the library names: its names listed in `--help`, parsed by its
/// `FromStr`.
pub fn named<T>(names: &'static [&'static str]) -> impl TypedValueParser<Value = T>
where
    T: FromStr<Err = Error> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names).try_map(|s: String| s.parse::<T>())
}

/// Options shared by everything that counts.
#[derive(Debug, Clone, clap::Args)]
pub struct EngineArgs {
    /// Worker threads (at least 1). Default: the number of logical CPUs.
    #[arg(long, short = 't', value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// The counting method: `auto` (the default: `quadrants` for even N >= 16 and odd
    /// N >= 17 up to 28, else `symmetric`; `plain` with placed queens), `quadrants`
    /// (half-boards joined from quarter-boards and matched by their diagonals; N 4 to 28, no
    /// placed queens; needs memory, see --max-memory), or a backtracker: `symmetric` (all 8
    /// symmetries; also gives the unique count), `mirror` (left half of row 0, counted twice),
    /// `plain` (no symmetry; the only one that takes placed queens).
    #[arg(long, short = 'a', value_parser = named::<Algorithm>(Algorithm::NAMES))]
    pub algorithm: Option<Algorithm>,
    /// How finely the board is split into independent tasks: 1, 2 or 3. Depth 1 is the
    /// algorithm's seeds (a row-0 queen, or a symmetric border constellation); each step deeper
    /// fixes one more free row. Default: the smallest depth giving at least 8 tasks per thread.
    /// Backtracking only (with `auto`, a split depth asks for backtracking).
    #[arg(long, value_name = "D", value_parser = parse_split_depth)]
    pub split_depth: Option<u32>,
    /// The counting kernel: `wide` (16 nodes of one row expanded per step, with AVX-512 where
    /// the CPU has it and N <= 32, 8 with AVX2, scalar code elsewhere), `lanes` (four subtrees searched in lock
    /// step, branch-free), `fast` (explicit stack) or `simple` (plain recursion, the yardstick).
    #[arg(long, short = 'k', value_parser = named::<Kernel>(Kernel::NAMES), default_value_t = Kernel::default())]
    pub kernel: Kernel,
    /// Count on an NVIDIA GPU (the kernel `gpu`: the backtracking plan's tasks, each a few
    /// rows on this CPU and then a subtree a GPU thread): a build with the `gpu` feature
    /// (`cargo build --release --features gpu`), a GPU and its driver. See docs/guide/gpu.md.
    #[arg(long, conflicts_with = "kernel")]
    pub gpu: bool,
    /// The most memory the count may use (e.g. 8G, 512M): the quadrant method counts a large
    /// task in smaller pieces to stay within it, and refuses to start, saying what it would
    /// need, only when its quarter table and each thread's slices leave less than 16 MiB a
    /// thread (`auto` backtracks instead). Default: half of the available memory.
    #[arg(long, value_name = "SIZE", value_parser = nqueens::memory::parse)]
    pub max_memory: Option<u64>,
}

impl EngineArgs {
    /// The library's options for these arguments (and the environment's, [`env`]).
    pub fn options(&self) -> Result<Options, Error> {
        let kernel = if self.gpu { Kernel::Gpu } else { self.kernel };
        let mut o = options()?.with_kernel(kernel);
        o.algorithm = self.algorithm;
        o.threads = self.threads;
        o.split_depth = self.split_depth;
        o.max_memory = self.max_memory;
        Ok(o)
    }
}

/// The library's default options with what the environment sets ([`env`]): what commands
/// without counting flags (`merge`, `status`, `audit`) rebuild plans with.
pub fn options() -> Result<Options, Error> {
    Ok(Options::default().with_quadrants(env::quadrant_settings()?))
}

/// Queens placed before the search, for `count`, `solve` and `list`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlaceArgs {
    /// Place a queen on square ROW:COL before the search (1-based: 1:1 is the top-left
    /// square; 0-based with --zero-based where offered). Repeatable. The other rows are
    /// completed by the search.
    #[arg(long = "place", value_name = "ROW:COL", value_parser = parse_square)]
    pub place: Vec<(usize, usize)>,
    /// Place the first row's queen in column COL (1-based, or 0-based with --zero-based where
    /// the command has it): the same as `--place 1:COL`.
    #[arg(long, value_name = "COL", value_parser = parse_column)]
    pub first_queen: Option<usize>,
}

impl PlaceArgs {
    /// The placed queens (0-based, sorted by row), checked against an `n` board; typed
    /// 1-based, or 0-based when `zero_based` is `Some(true)` (`None`: the command has no
    /// `--zero-based`, so messages do not offer it).
    pub fn queens(&self, n: usize, zero_based: Option<bool>) -> Result<Vec<(usize, usize)>, Error> {
        let base = usize::from(zero_based != Some(true));
        let offer = if zero_based.is_some() {
            " (from 0 with --zero-based)"
        } else {
            ""
        };
        let mut qs = self.place.clone();
        if let Some(c) = self.first_queen {
            if c < base {
                return Err(Error::Placement(format!(
                    "--first-queen {c} is not a column: columns count from 1{offer} to N"
                )));
            }
            qs.insert(0, (base, c));
        }
        from_user(n, &qs, base, offer)
    }
}

/// Converts squares typed by the user (counting from `base`) to 0-based ones and checks them,
/// naming queens as the user typed them.
fn from_user(
    n: usize,
    typed: &[(usize, usize)],
    base: usize,
    offer: &str,
) -> Result<Vec<(usize, usize)>, Error> {
    let mut qs = Vec::with_capacity(typed.len());
    for &(r, c) in typed {
        if r < base || c < base {
            return Err(Error::Placement(format!(
                "'{r}:{c}' is not a square: rows and columns count from 1{offer} (1:1 is the \
                 top-left square)"
            )));
        }
        qs.push((r - base, c - base));
    }
    placements_as(n, &qs, base)
}

/// Runs the parsed command line; `Ok` carries the exit code (`verify` exits 1 for a board
/// that is not a solution).
pub fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Count(a) => count::run(a),
        Command::Table(a) => table::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Estimate(a) => estimate::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Solve(a) => solve::run_solve(a),
        Command::List(a) => solve::run_list(a),
        Command::Verify(a) => return verify::run(a),
        Command::Status(a) => return status::run(a),
        Command::Trace(a) => trace::run_trace(a),
        Command::Tree(a) => trace::run_tree(a),
        Command::Completions(a) => ship::completions(a),
        Command::Man(a) => ship::man(a),
    }
    .map(|()| 0)
}

/// `1 run`, `5 runs`, `0 warm-up runs`.
pub fn plural(k: usize, what: &str) -> String {
    if k == 1 {
        format!("1 {what}")
    } else {
        format!("{k} {what}s")
    }
}

/// Writes a command's result to stdout. A result that cannot be written (a reader gone, a
/// closed stdout, a full disk) is an error naming stdout, so the command exits non-zero: a
/// batch system must not take a lost result for success.
pub fn print(text: &str) -> anyhow::Result<()> {
    if stdout_closed() {
        return Err(Error::io_failed(
            "cannot write the result: stdout is closed or open for reading only",
        )
        .into());
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| Error::io("cannot write the result to stdout", e).into())
}

/// How a stream (`list`, `trace`) ends: a reader that closed the pipe early (`| head`) was
/// done and is not an error; any other failure to write is, naming stdout.
pub fn stream_end(r: std::io::Result<()>) -> anyhow::Result<()> {
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Error::io("cannot write to stdout", e).into()),
        Ok(()) if stdout_closed() => {
            Err(Error::io_failed("cannot write: stdout is closed or open for reading only").into())
        }
        Ok(()) => Ok(()),
    }
}

fn stdout_closed() -> bool {
    STDOUT_UNWRITABLE.load(std::sync::atomic::Ordering::Relaxed)
}

/// How stdout was at the start, before Rust's runtime put `/dev/null` (opened for reading and
/// writing) on a closed descriptor: every write would then vanish with success, and so would
/// every write to a descriptor opened for reading only (`1</dev/null`: Rust's stdout takes
/// its EBADF for success). A `1<>/dev/null` is writable, and so not flagged.
static STDOUT_UNWRITABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs before `main` and before Rust's runtime (an `.init_array` entry, as C constructors
/// are): notes whether descriptor 1 is closed or read-only.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_STDOUT: extern "C" fn() = note_stdout;

#[cfg(target_os = "linux")]
extern "C" fn note_stdout() {
    // SAFETY: F_GETFL only reads the flags of descriptor 1 (-1 if it is not open).
    let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
    if flags == -1 || flags & libc::O_ACCMODE == libc::O_RDONLY {
        STDOUT_UNWRITABLE.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

pub use self::env::tune_heap;

/// Called first thing in `main`: on Unix systems other than Linux (no constructor there),
/// notes a read-only stdout (a closed one is not seen).
pub fn guard_stdout() {
    #[cfg(all(unix, not(target_os = "linux")))]
    {
        // SAFETY: F_GETFL only reads the flags of descriptor 1.
        let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
        if flags != -1 && flags & libc::O_ACCMODE == libc::O_RDONLY {
            STDOUT_UNWRITABLE.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// Maps an error to the process exit code (see `nqueens --help`).
/// The library's options as its messages name them (`` `max_memory` ``: the field of
/// `Options` or `LongRun`), and the flags that set them on the command line.
const FLAGS: [(&str, &str); 9] = [
    ("`max_memory`", "--max-memory"),
    ("`zero_based`", "--zero-based"),
    ("`shard`", "--shard I/K"),
    ("`threads`", "--threads"),
    ("the `symmetric` algorithm", "--algorithm symmetric"),
    ("a `checkpoint` file", "a --checkpoint file"),
    ("`checkpoint` file", "--checkpoint file"),
    ("`quadrants.parts`", env::PARTS),
    ("`force`", "--force"),
];

/// A library message as the command line says it: the options it names become the flags
/// that set them.
pub fn with_flags(message: &str) -> String {
    FLAGS.iter().fold(message.to_string(), |m, (option, flag)| {
        m.replace(option, flag)
    })
}

pub fn exit_code(e: &anyhow::Error) -> u8 {
    if let Some(i) = e.downcast_ref::<count::Interrupted>() {
        return i.code;
    }
    match e.downcast_ref::<Error>() {
        Some(err) => err.exit_code(),
        None => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_one_based() {
        assert_eq!(from_user(8, &[(1, 5)], 1, ""), Ok(vec![(0, 4)]));
        assert_eq!(from_user(8, &[(0, 4)], 0, ""), Ok(vec![(0, 4)]));
        assert!(from_user(8, &[(0, 3)], 1, "")
            .unwrap_err()
            .to_string()
            .contains("count from 1"));
        let e = from_user(8, &[(0, 0), (2, 2)], 0, "")
            .unwrap_err()
            .to_string();
        assert!(e.contains("queens 0:0 and 2:2"), "{e}");
        let e = from_user(8, &[(8, 0)], 0, "").unwrap_err().to_string();
        assert!(e.contains("queen 8:0 is off the 8×8 board: rows and columns go from 0 to 7"));
    }
}
