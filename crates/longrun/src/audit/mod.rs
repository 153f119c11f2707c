//! Audit: results that come back from other machines, checked and recounted in part.
//!
//! Every file is first checked as `merge` checks it (`PlanCheck`: its seal, its plan, its sums
//! against its tasks, its task ids against its shard); a file that fails is refused. Then a
//! seeded random sample of its recorded tasks is recounted on this machine and compared task
//! by task:
//!
//! - a backtracking file's tasks with another kernel than the one that counted them (`wide`
//!   with `fast`, every other kernel with `wide`), every count compared, nodes included;
//! - a quadrant method's file's tasks, by default, by the method again in another build than
//!   the one the file records (a CPU or compiler fault in one build shows), every count
//!   compared; and several slices of each ([`nqueens_count::slices`]: small exact parts
//!   of its solutions) counted both by backtracking and by the method, which shares nothing
//!   with the backtracking search and goes through the same join, sieve and matcher as the
//!   task (a fault of the method's code where a slice falls shows). `--same-method` recounts
//!   the tasks by the method in the file's own build, no slices (faster; it catches forged
//!   files and bad hardware, not a fault of the method); `--backtracking` recounts whole tasks
//!   by backtracking (independent of the method, but about 1,600 times slower at N = 20 and
//!   3.4 times more each N: for small boards).
//!
//! A forged or miscounted task is found with the probability that it is in the sample; a fault

mod auditor;
mod draw;
mod quadrant;
mod recorded;
mod recount;
mod report;
mod state;

pub use self::auditor::audit;
pub use self::draw::Sample;
pub use self::quadrant::{slices_of_plan, PlanSlices};
pub use self::recorded::Recorded;
pub use self::recount::other_kernel;
pub use self::report::{
    AuditReport, Difference, FewerSlices, FileAudit, QuadrantRecount, Recount, SliceCheck,
};
pub use self::state::Auditor;
