//! The backtracking method: the board searched row by row, queens as bits in three u64 masks
//! (columns and the two diagonals, shifted one place per row), in the room beside the quadrant
//! method's ([`super::quadrants`]), the two mirroring each other.
//!
//! - [`plan`]: the board split into tasks (`plain`, `mirror`, `symmetric` by start
//!   constellations), each a set of fixed queens with a stable id.
//! - [`constellations`]: the symmetric plan's border placements, one a symmetry class.
//! - [`task`]: a task, its fixed queens and how its count is weighted.
//! - [`kernel`]: the searches that count a task (`simple`, `fast`, `lanes`, `wide` and its
//!   vector builds).
//! - [`rotational`]: the count of the solutions a quarter turn keeps (for the unique count).
//! - [`backtrack`]: the task counter the engine runs ([`super::engine::Counter`]).
//!
//! What both methods share stays beside them in [`super`]: the options, the engine, the
//! tallies of a task ([`super::tally::Tally`]), the totals, the plan ids, the CPU builds and
//! the known values.

pub mod backtrack;
pub mod constellations;
pub mod kernel;
pub mod plan;
pub mod rotational;
pub mod task;
