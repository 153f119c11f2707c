//! `nqueens count N`.

use super::{parse_n, print, EngineArgs};
use nqueens::{engine, CountReport, Plan};

/// Arguments of `count`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  nqueens count 12 --threads 2 --json")]
pub struct CountArgs {
    /// Board size N, from 1 to 64.
    #[arg(value_name = "N", value_parser = parse_n, allow_negative_numbers = true)]
    pub n: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: CountArgs) -> anyhow::Result<()> {
    let threads = a.engine.threads();
    let depth = a
        .engine
        .split_depth
        .unwrap_or_else(|| Plan::default_split_depth(a.n, a.engine.algorithm, threads));
    let plan = Plan::new(a.n, a.engine.algorithm, depth)?;
    let outcome = engine::run(&plan, threads, a.engine.kernel)?;
    let report = CountReport::new(&plan, &outcome);
    if a.json {
        print(&(serde_json::to_string(&report)? + "\n"))?;
    } else {
        print(&report.to_text())?;
    }
    match report.mismatch() {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
