//! `nqueens bench`: a fixed, cross-checked workload timed at several thread counts, warned of
//! where the machine was noisy ([`noise`]), and compared with another binary in turn where
//! asked ([`compare`]).

mod command;
mod compare;
mod noise;
mod report;
mod results;

pub use self::command::{run, BenchArgs};
