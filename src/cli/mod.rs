//! The command line (the `nqueens` binary, behind the `cli` feature). This folder owns
//! everything between the user and the library: what the user types (`args/`), which
//! subcommand runs (`dispatch.rs`), every result written (`output/`, the one output path),
//! and how the process ends (`exit.rs`, the one exit policy). Each subcommand has its module
//! (`count/`, `bench/`, `merge.rs`, ...); the library's public items are all it uses.

mod args;
mod audit;
mod bench;
mod count;
mod dispatch;
mod estimate;
mod exit;
mod list;
mod manuals;
mod merge;
mod output;
mod solve;
mod status;
mod table;
mod trace;
mod verify;

pub use self::args::env::tune_heap;
pub use self::args::Cli;
pub use self::dispatch::run;
pub use self::exit::{with_flags, Exit};
pub use self::output::stdout::guard_stdout;
