//! What a count will cost, projected from a seeded sample of its tasks counted within a time
//! budget: core-hours with an interval, memory, and the shards to run it in.
//!
//! - `request.rs`: what an estimate is asked ([`EstimateRequest`]);
//! - `cost.rs`: the estimate itself ([`estimate`], [`Estimate`]);
//! - `sample.rs`: the draws, counted by every thread in turn and timed by the CPU clock;
//! - `projection.rs`: a sample's figures projected to the whole plan, with intervals;
//! - `warnings.rs`: what an estimate warns of, before its sample and after it.

mod cost;
pub mod projection;
mod request;
mod sample;
mod warnings;

pub use self::cost::{estimate, CostBasis, Estimate, EstimateRequest};
pub use self::sample::{Sampled, MAX_DRAWS, MIN_SAMPLED};
