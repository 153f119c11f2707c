//! The files of long runs: checkpoints and shard results, their records, their provenance and
//! the checks every reader makes of them. A file is read a record at a time (`stream.rs`), so
//! a reader's memory does not grow with a run's size, and replaced atomically (`disk.rs`), so
//! a crash at any instant leaves the previous good file.

pub mod check;
pub mod checkpoint;
pub mod disk;
pub mod lock;
pub mod provenance;
pub mod reading;
pub mod record;
pub mod result;
pub mod runfile;
pub mod seal;
pub mod stream;
