//! Long counts: checkpoints that survive a crash, shards for many machines, the merge and audit
//! of their results, and estimates of what a count will cost. Everything here runs through the
//! one engine ([`nqueens_count::engine`]), defined on task ids only, and asks a method only
//! what [`Job`](nqueens_count::Job) says of it.
//!
//! - [`run`]: a count with a checkpoint or of one shard (`run.rs`), and what it must fit in
//!   before it starts (`fit.rs`);
//! - [`files`]: the run files (checkpoints, shard results), read a record at a time and
//!   replaced atomically, and the checks every reader makes of them;
//! - [`distributed`]: shards, their merge, a run's status, and the walk over a run's folders;
//! - [`audit`]: a sample of recorded tasks recounted on this machine;
//! - [`estimate`]: what a count will cost, from a seeded sample of its tasks.

pub mod audit;
pub mod distributed;
pub mod estimate;
pub mod files;
mod fit;
mod run;

pub use self::files::runfile::RunFile;
pub use self::fit::{least_shards, shards_needed_early};
pub use self::run::{run, LongRun, Outcome, LONG_RUN_SPLIT_DEPTH};
