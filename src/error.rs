//! The library's error type.

use thiserror::Error;

/// Everything the library can refuse or fail at. Each message says what was wrong and what
/// is allowed, so the CLI can print it as it is.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// The board size is outside what the `u64` masks can hold.
    #[error("board size {0} is out of range: N must be between 1 and 64 (the width of the u64 bit masks)")]
    BoardSize(i64),
    /// The split depth is not one the planner supports.
    #[error("split depth {0} is out of range: it must be 1, 2 or 3 (rows expanded into tasks)")]
    SplitDepth(u32),
    /// The thread count is zero.
    #[error("thread count must be at least 1 (got 0); leave --threads out to use every CPU")]
    Threads,
    /// A table range whose start is after its end, or out of range.
    #[error("bad range {0}: {1}")]
    Range(String, String),
    /// Options that cannot go together, or a request the tool cannot serve as asked.
    #[error("{0}")]
    Usage(String),
    /// Pre-placed queens that are off the board, share a row, or attack each other.
    #[error("{0}")]
    Placement(String),
    /// A board given to `verify` (or a checkpoint or shard file) that cannot be read.
    #[error("{0}")]
    Input(String),
    /// A file could not be read or written (a checkpoint, a shard result).
    #[error("{0}")]
    Io(String),
    /// The count was stopped by a signal (exit code 128 + the signal number).
    #[error("{message}")]
    Interrupted {
        /// The signal number (2 for SIGINT, 15 for SIGTERM).
        signal: u8,
        /// What was saved or lost, and how to go on.
        message: String,
    },
    /// The rayon pool could not be built.
    #[error("could not start the worker pool: {0}")]
    Pool(String),
    /// A computed count disagrees with the known OEIS value.
    #[error("{sequence}({n}) computed as {computed}, but the known value is {known}")]
    Mismatch {
        /// The OEIS sequence, e.g. "A000170".
        sequence: &'static str,
        /// Board size.
        n: u32,
        /// What this run computed.
        computed: u128,
        /// The known value.
        known: u128,
    },
}

impl Error {
    /// The process exit code for this error: 2 for bad usage or input, 3 for a count that
    /// disagrees with a known value, 1 for a runtime failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::BoardSize(_)
            | Error::SplitDepth(_)
            | Error::Threads
            | Error::Range(..)
            | Error::Usage(_)
            | Error::Placement(_)
            | Error::Input(_) => 2,
            Error::Mismatch { .. } => 3,
            Error::Interrupted { signal, .. } => 128u8.saturating_add(*signal),
            Error::Pool(_) | Error::Io(_) => 1,
        }
    }
}

/// Shorthand for results carrying [`enum@Error`].
pub type Result<T> = std::result::Result<T, Error>;
