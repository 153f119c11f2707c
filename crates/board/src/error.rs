//! The library's error type.

use crate::limits::MAX_THREADS;
use std::sync::Arc;
use thiserror::Error;

/// Everything the library can refuse or fail at. Each message says what was wrong and what
/// is allowed, so the CLI can print it as it is.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The board size is outside what the `u64` masks can hold.
    #[error("board size {0} is out of range: N must be between 1 and 64 (the width of the u64 bit masks)")]
    BoardSize(i64),
    /// The split depth is not one the planner supports.
    #[error("split depth {0} is out of range: it must be 1, 2 or 3 (rows expanded into tasks)")]
    SplitDepth(u32),
    /// The thread count is zero or absurdly large.
    #[error("thread count {0} is out of range: give at least 1 and at most {MAX_THREADS} worker threads (leave the thread count out to use every CPU)")]
    Threads(usize),
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
    /// A file or stream could not be read or written (a checkpoint, a shard result, stdout):
    /// what was being done, and the operating system's error where there is one.
    #[error("{what}")]
    Io {
        /// What failed, e.g. "cannot read checkpoint run.ckpt".
        what: String,
        /// The operating system's error, if one caused it.
        #[source]
        source: Option<OsError>,
    },
    /// The count was stopped by its cancel flag (for the CLI: Ctrl-C or SIGTERM).
    #[error("{}", cancelled_message(*.done, *.total, *.counted, *.seconds, .saved.as_deref()))]
    Cancelled {
        /// Tasks finished, resumed ones included.
        done: usize,
        /// Tasks in scope.
        total: usize,
        /// Tasks counted by this run.
        counted: usize,
        /// Seconds this run took.
        seconds: f64,
        /// The checkpoint file that holds the finished tasks, if one was saved.
        saved: Option<String>,
    },
    /// A count would need more memory than it may use.
    #[error("{0}")]
    Memory(String),
    /// The worker pool could not be built or stopped early.
    #[error("could not run the worker pool: {0}")]
    Pool(String),
    /// The device counting a batch of tasks (a GPU) failed in the middle of a count: what
    /// it said. The tasks finished before it are kept (in the checkpoint, if one is kept).
    #[error("the GPU failed in the middle of the count: {0}")]
    Device(String),
    /// Recounted tasks disagree with the counts a file records (`audit`).
    #[error("{0}")]
    Differs(String),
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

fn cancelled_message(
    done: usize,
    total: usize,
    counted: usize,
    seconds: f64,
    saved: Option<&str>,
) -> String {
    match saved {
        Some(path) => format!(
            "stopped: checkpoint {path} saved with {done} of {total} tasks done; run the same \
             command again to resume"
        ),
        None => format!(
            "stopped after {seconds:.1}s: the {counted} of {total} tasks counted by this run \
             are lost; give a `checkpoint` file to keep finished tasks across interruptions"
        ),
    }
}

impl Error {
    /// An I/O failure: `what` was being done when the operating system said `source`.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            what: what.into(),
            source: Some(OsError(Arc::new(source))),
        }
    }

    /// An I/O failure that no operating-system error stands behind (a closed stdout, a file
    /// held by another run).
    pub fn io_failed(what: impl Into<String>) -> Error {
        Error::Io {
            what: what.into(),
            source: None,
        }
    }

    /// The process exit code for this error: 2 for bad usage or input, 3 for a count that
    /// disagrees with a known value, 1 for a runtime failure (a cancelled count included:
    /// the CLI exits 128 + the signal number then).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::BoardSize(_)
            | Error::SplitDepth(_)
            | Error::Threads(_)
            | Error::Range(..)
            | Error::Usage(_)
            | Error::Placement(_)
            | Error::Input(_)
            | Error::Memory(_) => 2,
            Error::Mismatch { .. } | Error::Differs(_) => 3,
            Error::Cancelled { .. } | Error::Pool(_) | Error::Io { .. } | Error::Device(_) => 1,
        }
    }
}

/// An operating system's error kept as an [`enum@Error`]'s source: shared, so that `Error`
/// stays `Clone`, and compared by kind and message, so that it stays `PartialEq`.
#[derive(Debug, Clone)]
pub struct OsError(pub Arc<std::io::Error>);

impl PartialEq for OsError {
    fn eq(&self, other: &OsError) -> bool {
        self.0.kind() == other.0.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl std::fmt::Display for OsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for OsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// Shorthand for results carrying [`enum@Error`].
pub type Result<T> = std::result::Result<T, Error>;
