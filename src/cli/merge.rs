//! `nqueens merge FILES...`.

use super::count::report_out;
use nqueens::longrun::merge::{merge, read};
use std::path::PathBuf;

/// Arguments of `merge`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks that the files are all K shards of one plan, each exactly once \
    (same N, algorithm, split depth and plan fingerprint), sums them, compares the sums with \
    the known OEIS values (exit 3 on a mismatch) and prints the result as count does. \
    `threads` and `seconds` in the result are the shards' sums.\n\n\
    Example:\n  for i in 0 1 2; do nqueens count 16 --shard $i/3 > s$i.json; done\n  \
    nqueens merge s0.json s1.json s2.json"
)]
pub struct MergeArgs {
    /// The shard results (the JSON printed by `count --shard I/K`).
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Print one JSON object (the fields of `count --json`) instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: MergeArgs) -> anyhow::Result<()> {
    let parts = a
        .files
        .iter()
        .map(|f| Ok((f.display().to_string(), read(f)?)))
        .collect::<nqueens::Result<Vec<_>>>()?;
    report_out(&merge(&parts, &super::options()?)?, a.json)
}
