//! The counting layer of nqueens: [`count`], its [`Options`] and [`Totals`]; below them the
//! methods (plans, tasks, tallies), the one engine, the rotational count and the OEIS
//! cross-check. It depends on `nqueens-board` only.
//!
//! Data flow: [`Options`] → the method chosen ([`method`]) → its plan builder (the
//! backtracking [`Plan`](backtracking::plan::Plan) or the quadrant method's plan) → a deterministic list of tasks
//! with stable ids → the engine ([`engine::run`]) counts them with the method's task counter
//! and streams each finished task to its observers (progress here; checkpoints in
//! the long-run layer, `nqueens-longrun`) → the sum in `u128` → [`Totals`] → the cross-check against the known
//! values ([`Totals::cross_check`]).

pub mod algorithm;
pub mod arch;
pub mod backend;
pub mod backtracking;
pub mod engine;
pub mod gpu;
pub mod job;
pub mod memory;
pub mod method;
pub mod oeis;
pub mod options;
pub mod plan_id;
pub mod progress;
pub mod quadrants;
pub mod slices;
pub mod spread;
pub mod tally;
pub mod totals;

pub use self::algorithm::Algorithm;
pub use self::backend::Backend;
pub use self::backtracking::kernel::Kernel;
pub use self::job::Job;
pub use self::options::Options;
use self::tally::Tally;
pub use self::totals::Totals;
use nqueens_board::error::Result;

/// Counts the solutions of an `n` board (1..=64) as `opts` say, and checks the result against
/// the known OEIS values: a count that disagrees is an error, never a result.
///
/// ```
/// let t = nqueens_count::count(8, &nqueens_count::Options::default())?;
/// assert_eq!((t.total, t.unique), (92, Some(12)));
/// # Ok::<(), nqueens_board::Error>(())
/// ```
pub fn count(n: u32, opts: &Options) -> Result<Totals> {
    let totals = count_unchecked(n, opts)?;
    totals.cross_check()?;
    Ok(totals)
}

/// [`count`] without the cross-check, for callers that show a result before they fail on it
/// ([`Totals::cross_check`]), as the command line does.
pub fn count_unchecked(n: u32, opts: &Options) -> Result<Totals> {
    let job = Job::new(n, opts, None)?;
    let all: Vec<u32> = (0..job.tasks() as u32).collect();
    job.run(&all, &[], Tally::default(), &mut ())
}
