//! `nqueens bench`: a fixed, cross-checked workload timed at several thread counts, warned of
//! where the machine was noisy ([`noise`]), and compared with another binary in turn where
//! asked ([`compare`]).

mod args;
mod command;
mod compare;
mod exports;
mod measure;
mod noise;
mod outputs;
mod provenance;
mod report;
mod results;

pub use self::args::BenchArgs;
pub use self::command::run;
pub use self::exports::{run as run_compare, BenchCompareArgs};
