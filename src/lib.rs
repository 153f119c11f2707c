//! # nqueens
//!
//! Count, find and list the solutions of the N-Queens problem: place N queens on an N×N board
//! so that no two share a row, column or diagonal.
//!
//! ```
//! use nqueens::Options;
//! let totals = nqueens::count(10, &Options::default())?;
//! assert_eq!(totals.total, 724);
//! # Ok::<(), nqueens::Error>(())
//! ```
//!
//! [`count`](fn@count) counts every solution in parallel (and, with the default `symmetric` algorithm,
//! the solutions up to rotation and reflection, [`Totals::unique`]), sums in `u128` and checks
//! the result against the known OEIS values (A000170, A002562): a count that disagrees is an
//! [`Error::Mismatch`], never a result. [`Options`] chooses the algorithm, threads, kernel,
//! placed queens, the memory limit, a cancel flag and a progress callback.
//!
//! Solutions: [`first_solution`] (the first in backtracking order), [`Solutions`] (all of
//! them, lazily, in lexicographic order), [`unique`] (one per symmetry class), [`construct`]
//! (an explicit solution for any N), [`complete`] (placed queens completed, or proved
//! impossible), [`is_solution`] and [`problems`] (which queens attack each other).
//!
//! Coordinates in the library are 0-based: row 0 is the top row, column 0 the leftmost; a
//! solution is a permutation `cols[row]`.
//!
//! ## Layout
//! - [`board`]: masks and squares, the symmetry group, text formats (render, parse), validity.
//! - counting (re-exported here): options, plans, tasks and tallies, the one engine, the
//!   kernels, the OEIS cross-check; its building blocks are in [`internals`].
//! - [`longrun`]: checkpoints, shards and their merge, on the same engine.
//! - [`solve`]: first solution, enumeration, construction, completion, trace and tree.
//!
//! The `cli` feature (on by default) builds the `nqueens` command; without it
//! (`default-features = false`) the library needs only rayon, serde, serde_json, sha2,
//! thiserror, num_cpus and, on Unix, libc.

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The guide's library example (docs/guide/reference.md), compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../docs/guide/reference.md")]
pub struct ReferenceDoctests;

pub mod board;
mod count;
mod error;
mod fnv;
mod limits;
pub mod longrun;
mod names;
pub mod solve;

pub use board::check::{is_solution, problems, Board, Problem};
pub use board::format::{render, Format};
pub use board::parse::parse;
pub use count::algorithm::Algorithm;
pub use count::backtracking::kernel::Kernel;
pub use count::memory;
pub use count::oeis;
pub use count::progress::Progress;
pub use count::{count, count_unchecked, Options, Totals};
pub use error::{Error, OsError, Result};
pub use solve::complete::{complete, Completion};
pub use solve::construct::construct;
pub use solve::enumerate::{first_solution, unique, Solutions};

/// The building blocks below the API, for the command line, benchmarks and tests: plans,
/// tasks, tallies, the engine and its task counters, the kernels. They may change between
/// versions; [`count`](fn@count) and [`longrun::run`] are the stable ways in.
pub mod internals {
    pub use crate::board::spec::Spec;
    pub use crate::count::arch::{self, Build};
    pub use crate::count::backtracking::backtrack::{self, Backtrack};
    pub use crate::count::backtracking::constellations;
    pub use crate::count::backtracking::kernel::{self, Found};
    pub use crate::count::backtracking::plan::{self, Plan, MAX_SPLIT_DEPTH};
    pub use crate::count::backtracking::rotational;
    pub use crate::count::backtracking::task::{self, Task, TaskKind};
    pub use crate::count::engine::{self, Counter, Observer};
    pub use crate::count::gpu;
    pub use crate::count::plan_id::PlanId;
    pub use crate::count::progress;
    pub use crate::count::quadrants::{self, Quadrants};
    pub use crate::count::tally::{self, Classes, Tally};
    pub use crate::count::{Job, Options, Totals};
    pub use crate::limits::{LIFETIME_SECONDS, MAX_THREADS};
    pub use crate::Kernel;
}
