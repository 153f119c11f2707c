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
//! This crate is the front door of a workspace of layers, each a crate that depends only on
//! the ones below it (so a layer that reaches upward does not compile):
//! - [`board`] (`nqueens-board`): masks and squares, the symmetry group, text formats (render,
//!   parse), validity, and the [`Error`] type every layer shares.
//! - [`solve`] (`nqueens-solve`, on `board`): first solution, enumeration, construction,
//!   completion, trace and tree.
//! - counting (`nqueens-count`, on `board`; its API is re-exported here): options, plans,
//!   tasks and tallies, the one engine, the kernels, the OEIS cross-check.
//! - [`longrun`] (`nqueens-longrun`, on `count`): checkpoints, shards and their merge, audits
//!   and estimates, on the same engine.
//!
//! The `cli` feature (on by default) builds the `nqueens` command; without it
//! (`default-features = false`) the library needs only rayon, serde, serde_json, sha2,
//! blake3, thiserror, num_cpus and, on Unix, libc.

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The guide's library example (docs/guide/reference.md), compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../docs/guide/reference.md")]
pub struct ReferenceDoctests;

pub use nqueens_board as board;
pub use nqueens_longrun as longrun;
pub use nqueens_solve as solve;

pub use nqueens_board::check::{is_solution, problems, Board, Problem};
pub use nqueens_board::format::{render, Format};
pub use nqueens_board::parse::parse;
pub use nqueens_board::{Error, OsError, Result};
pub use nqueens_count::progress::Progress;
pub use nqueens_count::{count, count_unchecked, memory, oeis};
pub use nqueens_count::{Algorithm, Backend, Kernel, Options, Totals};
pub use nqueens_solve::complete::{complete, Completion};
pub use nqueens_solve::construct::construct;
pub use nqueens_solve::enumerate::{first_solution, unique, Solutions};
