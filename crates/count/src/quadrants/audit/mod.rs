//! What the audit of a quadrant task needs of the method: the same tasks recounted by
//! backtracking, nothing of the method's counting used (`recount.rs`), and *slices* of a task
//! (one row set with one north-west quarter placement fixed) counted both by that search and by
//! the method's own join, sieve and matcher (`slice.rs`).

pub(in crate::quadrants) mod recount;
pub mod slice;
