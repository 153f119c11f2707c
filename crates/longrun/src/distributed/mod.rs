//! Runs on many machines: a plan's tasks assigned to shards (`shard.rs`), the shards' results
//! merged into the whole count (`merge.rs`), and where a run stands (`status.rs`), found by a
//! walk over its folders (`walk.rs`) one file at a time.

mod found;
pub mod merge;
pub mod shard;
pub mod status;
mod walk;
mod whole;
