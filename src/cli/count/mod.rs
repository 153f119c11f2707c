//! `nqueens count N`: its options and run (`command.rs`), what it says before it starts
//! (`cost.rs`), the progress it shows (`progress.rs`), the signals that stop it
//! (`signals.rs`), and its report (`report.rs`, which `merge` prints too).

mod command;
pub mod cost;
mod progress;
pub mod report;
mod signals;

pub use self::command::{run, CountArgs};
pub use self::signals::watch_signals;
