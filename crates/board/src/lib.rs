//! The bottom layer of nqueens: the board (masks and squares, the free rows a search sees, the
//! symmetry group, the text formats, SVG pictures, whether a board is a solution), and the
//! words every layer above shares: the [`Error`] type, the [`limits`], the [`named_enum!`]
//! macro for names a user types, and the [`fnv`] hash.
//!
//! Everything here is 0-based: row 0 is the top row, column 0 the leftmost; a solution is a
//! permutation `cols[row]`. This crate depends on no other crate of the workspace.

pub mod check;
pub mod error;
pub mod fnv;
pub mod format;
mod json;
pub mod limits;
pub mod masks;
mod names;
pub mod parse;
pub mod shown;
pub mod spec;
pub mod svg;
pub mod symmetry;
mod tokens;

pub use self::error::{Error, OsError, Result};
