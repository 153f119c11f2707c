//! The signals that stop a count (SIGINT, SIGTERM, SIGHUP): the first stops it, keeping what
//! finished; a second does not cut a file write short; a third ends the process at once,
//! outside a file write.

use crate::cli::exit::{self, Interrupted};
use nqueens::longrun::files::disk;
use nqueens::Error;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// The signals that stop a count: Ctrl-C, SIGTERM, and SIGHUP (a closed terminal or ssh
/// session), which is taken as SIGTERM.
const STOPPING: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// The stopping signals raise the returned cancel flag (and record the first one's number)
/// instead of killing the process: the count stops, saves what it finished and says so. A
/// second signal (as `timeout`, a scheduler's cancel or an impatient Ctrl-C sends) changes
/// nothing: the save goes on. A third ends the process at once with 128 + its number (a plan
/// being built can take seconds), unless a file is being written ([`disk::writing`]): a save
/// is never cut short.
pub fn watch_signals() -> anyhow::Result<(Arc<AtomicBool>, Arc<AtomicUsize>)> {
    let cancel = Arc::new(AtomicBool::new(false));
    let which = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(AtomicUsize::new(0));
    for sig in STOPPING {
        let (cancel, which, seen) = (cancel.clone(), which.clone(), seen.clone());
        let handler = move || {
            if seen.fetch_add(1, Ordering::SeqCst) == 0 {
                which.store(sig as usize, Ordering::SeqCst);
            }
            cancel.store(true, Ordering::SeqCst);
            exit::note_signal(sig as u8);
            if seen.load(Ordering::SeqCst) >= 3 && !disk::writing() {
                signal_hook::low_level::exit(128 + sig);
            }
        };
        // SAFETY: the handler only touches atomics and calls `_exit`, which are
        // async-signal-safe.
        unsafe { signal_hook::low_level::register(sig, handler) }?;
    }
    Ok((cancel, which))
}

/// The error of a count stopped by `signal`: the library's message, named after the signal,
/// with the exit code 128 + the signal number.
pub fn interrupted(e: Error, signal: usize) -> anyhow::Error {
    let name = match signal {
        1 => "SIGHUP",
        15 => "SIGTERM",
        _ => "SIGINT",
    };
    let msg = e.to_string();
    let rest = msg.strip_prefix("stopped").unwrap_or(&msg);
    anyhow::Error::new(Interrupted {
        signal: signal as u8,
        message: format!("interrupted by {name}{rest}"),
    })
}
