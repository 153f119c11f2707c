//! # nqueens
//!
//! Count, find and list the solutions of the N-Queens problem: place N queens on an N×N board
//! so that no two share a row, column or diagonal.
//!
//! The counter keeps the occupied columns and the two diagonal sets as `u64` masks
//! ([`bits::Masks`]), splits the first rows of the board into independent tasks
//! ([`plan::Plan`]), counts each with a kernel ([`kernel`]) on a rayon pool
//! ([`engine::run`]), sums the tallies in `u128` and compares them with the known OEIS values
//! ([`oeis`]). Long counts stream finished tasks for progress, checkpoints and shards
//! ([`longrun`], [`checkpoint`], [`shard`]). Solutions are found, listed, checked and traced by
//! [`solutions`], [`search`], [`verify`] and [`trace`], with placed queens from [`place`].
//!
//! ```
//! use nqueens::{engine, plan::{Algorithm, Plan}};
//! let plan = Plan::new(8, Algorithm::Symmetric, 2).unwrap();
//! let out = engine::run(&plan, 2, nqueens::kernel::Kernel::Wide).unwrap();
//! assert_eq!(out.tally.total, 92);
//! assert_eq!(out.tally.unique(), Some(12));
//! ```
//!
//! Coordinates in the library are 0-based: row 0 is the top row, column 0 the leftmost.

pub mod bits;
pub mod board;
pub mod checkpoint;
pub mod engine;
pub mod error;
pub mod kernel;
pub mod longrun;
pub mod oeis;
pub mod place;
pub mod plan;
pub mod reference;
pub mod report;
pub mod search;
pub mod shard;
pub mod solutions;
pub mod symmetry;
pub mod trace;
pub mod verify;

pub use error::{Error, Result};
pub use plan::{Algorithm, Plan};
pub use report::CountReport;
