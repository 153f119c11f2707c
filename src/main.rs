//! The `nqueens` command: parse, dispatch, print errors, exit code.

/// `eprintln!` that never panics: a message that cannot reach stderr (`2>/dev/full`) is lost,
/// not a crash, and the command's result on stdout still stands.
macro_rules! note {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    cli::guard_stdout();
    let args = cli::Cli::parse();
    cli::tune_heap(args.board());
    match cli::run(args) {
        Ok(exit) => exit.into(),
        Err(e) => {
            // Names in the message are escaped where they are put in; what is left of the
            // control characters (a string read from a file) is escaped here, line by line.
            let message = cli::with_flags(&format!("{e:#}"));
            let lines: Vec<_> = message
                .split('\n')
                .map(nqueens::board::shown::escaped)
                .collect();
            note!("error: {}", lines.join("\n"));
            cli::Exit::of(&e).into()
        }
    }
}
