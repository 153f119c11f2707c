//! `nqueens trace N` (the backtracking search, step by step: as text, as JSON lines, redrawn
//! in place on a terminal, or as a web page) and `nqueens tree N` (the size of each level of
//! its tree).

mod animate;
mod args;
mod command;
mod page;
mod search;
mod steps;
mod tree;

pub use self::args::{TraceArgs, TRACE_DRAW_MAX};
pub use self::command::run_trace;
pub use self::page::{board_page, PageBoard};
pub use self::tree::{run_tree, TreeArgs};
