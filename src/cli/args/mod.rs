//! The command line's arguments: the clap definitions of the command and its subcommands
//! (here), the groups of options several subcommands share (`common.rs`), the value parsers of
//! everything a user types (`parse.rs`), and the environment variables the program reads
//! (`env.rs`). Each subcommand's own options live beside its code.

pub mod common;
pub mod env;
pub mod parse;

use super::audit::AuditArgs;
use super::bench::{BenchArgs, BenchCompareArgs};
use super::count::CountArgs;
use super::estimate::EstimateArgs;
use super::exit;
use super::list::ListArgs;
use super::manuals::{CompletionsArgs, ManArgs};
use super::merge::MergeArgs;
use super::solve::SolveArgs;
use super::status::StatusArgs;
use super::table::TableArgs;
use super::trace::{TraceArgs, TreeArgs};
use super::verify::VerifyArgs;
use clap::{Parser, Subcommand};

/// What `--version` says: the version and the commit it was built from.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("NQUEENS_COMMIT"),
    ")"
);

/// Count, find and list the solutions of the N-Queens problem.
///
/// Place N queens on an N×N board so that no two share a row, column or diagonal. Counts are
/// computed in parallel with u64 bit masks and checked against the known OEIS values
/// (A000170: all solutions; A002562: solutions up to rotation and reflection).
#[derive(Debug, Parser)]
#[command(name = "nqueens", version = VERSION, about, long_about, after_long_help = after_help())]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// What `nqueens --help` says after the commands: the exit codes, then the environment
/// variables that tests and measurements set.
fn after_help() -> String {
    format!(
        "{}\n\nEnvironment (for tests and measurements; empty is unset): \
         NQUEENS_QUARTER_PARTS=P counts with the quadrant method's striped plan in P parts (1 to \
         64) at any N, a plan of its own that every command reading its files needs the same P \
         for; NQUEENS_QUARTER_SLICES=1 counts from quarter slices at any N (the same plan and \
         counts); NQUEENS_QUADRANT_BUILD=B caps the quadrant method's vector build at portable, \
         avx2 or avx512.",
        exit::help()
    )
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
    Count(CountArgs),
    /// Combine the results of `count --shard I/K` runs into the whole count, checking that
    /// every shard is there exactly once.
    Merge(MergeArgs),
    /// Time a fixed, cross-checked count at several thread counts: a CPU benchmark.
    Bench(BenchArgs),
    /// Put benchmark exports (`bench --json`) side by side: one row per run or machine, with
    /// its build, workload and headline figure.
    BenchCompare(BenchCompareArgs),
    /// Recount a random sample of the tasks recorded in shard results and checkpoints from
    /// other machines, and name any task whose count differs (exit 3).
    Audit(AuditArgs),
    /// What a count will cost (core-hours with an interval, memory, shards), projected from
    /// a seeded sample of its tasks counted within a time budget.
    Estimate(EstimateArgs),
    /// Where a distributed run stands: finished, partial and missing shards, solutions so far,
    /// work left (exit 0 only when it is complete and merges).
    Status(StatusArgs),
    /// Reproduce OEIS A000170 (or A002562) for a range of N: `n a(n) mark` lines, computed.
    Table(TableArgs),
    /// Show one solution: the first in backtracking order, or a construction for large N.
    Solve(SolveArgs),
    /// Stream every solution (or one per symmetry class) in lexicographic order.
    List(ListArgs),
    /// Check a board (any output format, from a file or stdin): a solution, or which queens attack.
    Verify(VerifyArgs),
    /// Show the backtracking search step by step: placements, dead ends, take-backs.
    Trace(TraceArgs),
    /// Count the nodes on each level of the backtracking tree (OEIS A319284).
    Tree(TreeArgs),
    /// Print the shell completion script for SHELL (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print a man page (roff), nqueens(1) or a command's, generated from these definitions;
    /// or write them all to a directory (--dir).
    Man(ManArgs),
}
