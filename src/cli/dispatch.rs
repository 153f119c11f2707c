//! Runs a parsed command line: each subcommand to its module.

use super::args::{Cli, Command};
use super::exit::Exit;
use super::{
    audit, bench, count, estimate, list, manuals, merge, solve, status, table, trace, verify,
};
use clap::CommandFactory;

/// Runs the parsed command line; `Ok` carries how the process ends (`verify` fails for a
/// board that is not a solution, `status` for a run not finished).
pub fn run(cli: Cli) -> anyhow::Result<Exit> {
    match cli.command {
        Command::Count(a) => count::run(a),
        Command::Table(a) => table::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Estimate(a) => estimate::run(a),
        Command::Bench(a) => bench::run(a),
        Command::BenchCompare(a) => bench::run_compare(a),
        Command::Solve(a) => solve::run_solve(a),
        Command::List(a) => list::run_list(a),
        Command::Verify(a) => return verify::run(a),
        Command::Status(a) => return status::run(a),
        Command::Trace(a) => trace::run_trace(a),
        Command::Tree(a) => trace::run_tree(a),
        Command::Completions(a) => manuals::completions(a, Cli::command()),
        Command::Man(a) => manuals::man(a, Cli::command()),
    }
    .map(|()| Exit::Success)
}
