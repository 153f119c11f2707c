//! What a count will cost, projected from a seeded sample of its tasks counted within a time
//! budget: core-hours with an interval, memory, and the shards to run it in.
//!
//! - `cost.rs`: the estimate itself ([`estimate`], [`Estimate`]) and its warnings;
//! - `sample.rs`: the draws, counted by every thread in turn and timed by the CPU clock;
//! - `projection.rs`: a sample's figures projected to the whole plan, with intervals.

mod cost;
pub mod projection;
mod sample;

pub use self::cost::{estimate, CostBasis, Estimate, EstimateRequest};
pub use self::sample::{Sampled, MAX_DRAWS, MIN_SAMPLED};
