//! `nqueens count N`.

use super::{parse_n, print, EngineArgs, PlaceArgs};
use nqueens::plan::MAX_SPLIT_DEPTH;
use nqueens::{engine, Algorithm, CountReport, Error, Plan};

/// Arguments of `count`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  nqueens count 12 --threads 2 --json\n  \
    nqueens count 8 --first-queen 2\n  nqueens count 10 --place 1:2 --place 5:1")]
pub struct CountArgs {
    /// Board size N, from 1 to 64.
    #[arg(value_name = "N", value_parser = parse_n, allow_negative_numbers = true)]
    pub n: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub place: PlaceArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The plan `count` runs: the algorithm's, or the placed queens' completions.
pub fn plan(
    n: u32,
    engine: &EngineArgs,
    place: &PlaceArgs,
    threads: usize,
) -> anyhow::Result<Plan> {
    let placed = place.queens(n as usize)?;
    if placed.is_empty() {
        let alg = engine.algorithm();
        let depth = engine
            .split_depth
            .unwrap_or_else(|| Plan::default_split_depth(n, alg, threads));
        return Ok(Plan::new(n, alg, depth)?);
    }
    if let Some(alg) = engine.algorithm.filter(|&a| a != Algorithm::Plain) {
        return Err(Error::Usage(format!(
            "--algorithm {} cannot count with placed queens: the placements break the board's \
             symmetry; leave --algorithm out (or use plain)",
            alg.name()
        ))
        .into());
    }
    let depth = match engine.split_depth {
        Some(d) => d,
        None => (1..MAX_SPLIT_DEPTH)
            .find(|&d| {
                Plan::with_placed(n, d, &placed)
                    .map(|p| p.tasks.len() >= 8 * threads)
                    .unwrap_or(false)
            })
            .unwrap_or(MAX_SPLIT_DEPTH),
    };
    Ok(Plan::with_placed(n, depth, &placed)?)
}

pub fn run(a: CountArgs) -> anyhow::Result<()> {
    let threads = a.engine.threads();
    let plan = plan(a.n, &a.engine, &a.place, threads)?;
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
