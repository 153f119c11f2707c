//! The board: masks and squares, the free rows a search sees, the symmetry group, the text
//! formats (render and parse), SVG pictures, and whether a board is a solution.
//!
//! Everything here is 0-based: row 0 is the top row, column 0 the leftmost; a solution is a
//! permutation `cols[row]`. Nothing in this module depends on the rest of the crate.

pub mod check;
pub mod format;
mod json;
pub mod masks;
pub mod parse;
pub mod spec;
pub mod svg;
pub mod symmetry;
mod tokens;
