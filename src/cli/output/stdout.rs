//! Standard output as a place for results: a result that cannot be written is an error, and a
//! stdout that was closed, or opened for reading only, before the program began is noticed.

use nqueens::Error;
use std::io::Write;

/// Writes a command's result to stdout. A result that cannot be written (a reader gone, a
/// closed stdout, a full disk) is an error naming stdout, so the command exits non-zero: a
/// batch system must not take a lost result for success.
pub fn print(text: &str) -> anyhow::Result<()> {
    if stdout_closed() {
        return Err(Error::io_failed(
            "cannot write the result: stdout is closed or open for reading only",
        )
        .into());
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| Error::io("cannot write the result to stdout", e).into())
}

/// Standard output for a stream of results (`list`, `trace`, `verify` of many boards), written
/// line by line as they come, buffered; end it with [`stream_end`].
pub fn stream() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::new(std::io::stdout().lock())
}

/// Whether stdout is a terminal (a person reads it) rather than a file or a pipe.
pub fn is_terminal() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stdout())
}

/// The rows of the terminal stdout is, where it is one and says (`None` elsewhere).
pub fn terminal_rows() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        // SAFETY: TIOCGWINSZ fills a winsize for descriptor 1, which is open (or fails).
        let ok = unsafe { libc::ioctl(1, libc::TIOCGWINSZ, &mut size) } == 0;
        (ok && size.ws_row > 0).then_some(usize::from(size.ws_row))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// How a stream (`list`, `trace`) ends: a reader that closed the pipe early (`| head`) was
/// done and is not an error; any other failure to write is, naming stdout.
pub fn stream_end(r: std::io::Result<()>) -> anyhow::Result<()> {
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Error::io("cannot write to stdout", e).into()),
        Ok(()) if stdout_closed() => {
            Err(Error::io_failed("cannot write: stdout is closed or open for reading only").into())
        }
        Ok(()) => Ok(()),
    }
}

fn stdout_closed() -> bool {
    STDOUT_UNWRITABLE.load(std::sync::atomic::Ordering::Relaxed)
}

/// How stdout was at the start, before Rust's runtime put `/dev/null` (opened for reading and
/// writing) on a closed descriptor: every write would then vanish with success, and so would
/// every write to a descriptor opened for reading only (`1</dev/null`: Rust's stdout takes
/// its EBADF for success). A `1<>/dev/null` is writable, and so not flagged.
static STDOUT_UNWRITABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs before `main` and before Rust's runtime (an `.init_array` entry, as C constructors
/// are): notes whether descriptor 1 is closed or read-only.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_STDOUT: extern "C" fn() = note_stdout;

#[cfg(target_os = "linux")]
extern "C" fn note_stdout() {
    // SAFETY: F_GETFL only reads the flags of descriptor 1 (-1 if it is not open).
    let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
    if flags == -1 || flags & libc::O_ACCMODE == libc::O_RDONLY {
        STDOUT_UNWRITABLE.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Called first thing in `main`: on Unix systems other than Linux (no constructor there),
/// notes a read-only stdout (a closed one is not seen).
pub fn guard_stdout() {
    #[cfg(all(unix, not(target_os = "linux")))]
    {
        // SAFETY: F_GETFL only reads the flags of descriptor 1.
        let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
        if flags != -1 && flags & libc::O_ACCMODE == libc::O_RDONLY {
            STDOUT_UNWRITABLE.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}
