//! `nqueens tree N`: the number of nodes on each level of the backtracking tree.

use crate::cli::args::parse::parse_n;
use crate::cli::count::cost::duration;
use crate::cli::output::{self, ReportFormat};
use nqueens::oeis::{compare, Sequence};
use nqueens::solve::trace::tree;
use nqueens::Error;
use nqueens_board::limits::LIFETIME_SECONDS;
use std::fmt::Write as _;

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
    /// Walk even a tree that a rough scale says cannot be walked in a lifetime (refused
    /// without it).
    #[arg(long)]
    pub force: bool,
}

/// Nodes of the tree of N = 16, and about how many times as many each N more has.
const NODES_16: f64 = 1.14e9;
const GROWTH: f64 = 7.0;

/// Nodes per second per core the walk makes, roughly (N = 16 in seconds on 2 cores).
const NODES_PER_CORE_SECOND: f64 = 3e8;

pub fn run_tree(a: TreeArgs) -> anyhow::Result<()> {
    if a.n >= 18 {
        let nodes = NODES_16 * GROWTH.powi(a.n as i32 - 16);
        let cores = num_cpus::get().max(1);
        let wall = nodes / NODES_PER_CORE_SECOND / cores as f64;
        let scale = format!(
            "tree {} walks the whole backtracking tree, about {nodes:.1e} nodes (N = 16 has \
             1.1e9 and takes seconds; each N more about 7 times as many): about {} on {cores} \
             cores by that rough scale",
            a.n,
            duration(wall)
        );
        if wall > LIFETIME_SECONDS && !a.force {
            return Err(Error::Usage(format!(
                "{scale}, past a lifetime: pass --force to start it anyway"
            ))
            .into());
        }
        note!("note: {scale}; Ctrl-C stops");
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
    output::print(&out, ReportFormat::json_if(a.json))
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
