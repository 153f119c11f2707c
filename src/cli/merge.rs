//! `nqueens merge FILES...`.

use super::count::report_out;
use nqueens::engine::Outcome;
use nqueens::kernel::Kernel;
use nqueens::shard::{merge, read};
use nqueens::CountReport;
use std::path::PathBuf;
use std::time::Duration;

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
    let (plan, tally) = merge(&parts)?;
    // Shards may have used different kernels; the first one's is reported.
    let kernel =
        <Kernel as clap::ValueEnum>::from_str(&parts[0].1.kernel, false).map_err(|_| {
            nqueens::Error::Input(format!(
                "{}: unknown kernel {:?}",
                parts[0].0, parts[0].1.kernel
            ))
        })?;
    let outcome = Outcome {
        tally,
        threads: parts.iter().map(|p| p.1.threads).sum(),
        kernel,
        elapsed: Duration::from_secs_f64(parts.iter().map(|p| p.1.seconds).sum()),
    };
    report_out(&CountReport::new(&plan, &outcome), a.json)
}
