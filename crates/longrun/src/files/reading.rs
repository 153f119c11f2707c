//! Opening and reading the files of long runs safely: nothing but a regular file is opened
//! (and nothing waits on a FIFO put in its place), and what is read whole is bounded.

use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Reads the text of `reader` (named `name`, of kind `what`), at most `limit` bytes: a longer
/// input, or one that is not UTF-8, is [`Error::Input`] naming it.
pub fn read_bounded(reader: impl Read, name: &str, what: &str, limit: u64) -> Result<String> {
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(format!("cannot read {what} {name}"), e))?;
    if bytes.len() as u64 > limit {
        return Err(Error::Input(format!(
            "{name} is larger than {} MiB, the most nqueens reads as a {what} (is it the right \
             file?)",
            limit >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        Error::Input(format!(
            "{what} {name} is not text (invalid UTF-8): it is damaged or not a {what}"
        ))
    })
}

/// Opens `path` (a file of kind `what`: `shard result`, `checkpoint`) for reading, refusing
/// anything but a regular file without waiting on it: the file is opened without blocking (a
/// FIFO put in the place of a file after the walk found it would otherwise wait for a writer
/// for ever) and its type is checked on the opened file itself, so that nothing can be swapped
/// in between. `Ok(None)` where there is no such file (a symbolic link to nothing included:
/// [`link_target`] says where it leads).
pub fn open_regular(path: &Path, what: &str) -> Result<Option<File>> {
    let name = path.shown();
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let f = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::io_failed(format!(
                "cannot read {what} {name}: {}",
                os_reason(&e)
            )))
        }
    };
    let meta = f
        .metadata()
        .map_err(|e| Error::io(format!("cannot read {what} {name}"), e))?;
    if !meta.is_file() {
        return Err(Error::Input(format!(
            "{what} {name} is not a regular file (a FIFO, a device or a directory): give the \
             file itself"
        )));
    }
    #[cfg(unix)]
    {
        // Back to blocking reads: the flag only kept the open from waiting.
        use std::os::unix::io::AsRawFd;
        // SAFETY: F_GETFL and F_SETFL on a descriptor this function owns.
        unsafe {
            let flags = libc::fcntl(f.as_raw_fd(), libc::F_GETFL);
            if flags != -1 {
                libc::fcntl(f.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
    }
    Ok(Some(f))
}

/// Where a symbolic link that leads nowhere points, for a message (`None` for anything else).
pub fn link_target(path: &Path) -> Option<PathBuf> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_symlink() || path.exists() {
        return None;
    }
    std::fs::read_link(path).ok()
}

/// The operating system's reason, without the `(os error N)` a user need not read.
pub fn os_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(at) => s[..at].to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A FIFO, a device and a directory are refused by the open itself, at once: a FIFO put
    /// where a file was (no writer on the other end) does not make the reader wait.
    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_is_opened_and_nothing_waits() {
        let dir = std::env::temp_dir().join(format!("nq-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("swapped.json");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid path and mode.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = open_regular(&fifo, "shard").unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        for special in ["/dev/null", "/dev/zero"] {
            assert!(
                open_regular(Path::new(special), "shard").is_err(),
                "{special}"
            );
        }
        assert!(open_regular(&dir, "shard").is_err());
        assert!(open_regular(&dir.join("none.json"), "shard")
            .unwrap()
            .is_none());
        let file = dir.join("s.json");
        std::fs::write(&file, "{}").unwrap();
        let mut text = String::new();
        open_regular(&file, "shard")
            .unwrap()
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "{}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
