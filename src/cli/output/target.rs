//! Where a result goes: stdout, or a file named on the command line (`-o`, `--export`,
//! `--plot`), checked before any work starts, so that nothing is counted for a result with
//! nowhere to go.
//!
//! A file is replaced atomically (a temporary file beside it, flushed, renamed over it), and
//! only a regular file is ever replaced: a symlink is written through to the file it points
//! to; a character device or a pipe (`-o /dev/null`, a FIFO) is written into as the shell's
//! `>` would, once it is checked to be the same file it was when the work began; one of this
//! process's own descriptors (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`)
//! is written through that descriptor, appending where it appends, whatever it is open on;
//! a directory, a socket, a block device and a symlink to nothing are refused. A wait for a
//! FIFO's reader ends when a signal stops the command.

use super::stdout;
use crate::cli::exit::{self, Interrupted};
use nqueens::board::shown::Show;
use nqueens::longrun::files::disk;
use nqueens::Error;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::os::unix::io::FromRawFd;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where a command's result is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A regular file (links followed), replaced atomically.
    Replace {
        /// The name as given.
        given: PathBuf,
        /// The file written: the name, or where its links lead.
        file: PathBuf,
        /// What it holds, for a message (`result`, `export`, `chart`).
        what: String,
    },
    /// A character device or a pipe, written into as `>` would.
    Stream {
        /// The name as given.
        given: PathBuf,
        /// Where its links lead: what is opened, without following a link, at the end.
        file: PathBuf,
        /// The device and inode it was when checked: it must still be that file.
        id: (u64, u64),
    },
    /// One of this process's open descriptors (`/dev/stdout`, `/dev/fd/3`), written through.
    Descriptor {
        /// The name as given.
        given: PathBuf,
        /// The descriptor.
        fd: i32,
    },
}

/// The descriptor of this process that `path` names, as the kernel's `/dev/std*`,
/// `/dev/fd/N` and `/proc/self/fd/N` do: what a shell's redirection opened, which a result
/// is written into rather than replaced.
fn own_descriptor(path: &Path) -> Option<i32> {
    let name = path.to_str()?;
    let fd = match name {
        "/dev/stdin" => 0,
        "/dev/stdout" => 1,
        "/dev/stderr" => 2,
        _ => name
            .strip_prefix("/dev/fd/")
            .or_else(|| name.strip_prefix("/proc/self/fd/"))?
            .parse()
            .ok()?,
    };
    Some(fd)
}

impl Target {
    /// `path` checked as a place for `what` (`result`, `export`, `chart`), before the work.
    pub fn file(path: &Path, what: &str) -> Result<Target, Error> {
        let name = path.shown();
        if let Some(fd) = own_descriptor(path) {
            // SAFETY: F_GETFL reads the flags of a descriptor, or fails where it is not open.
            let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
            if flags < 0 || flags & libc::O_ACCMODE == libc::O_RDONLY {
                return Err(Error::Usage(format!(
                    "{what} {name}: descriptor {fd} is not open for writing in this process"
                )));
            }
            return Ok(Target::Descriptor {
                given: path.to_path_buf(),
                fd,
            });
        }
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => Err(Error::Usage(format!(
                "{what} {name} is a directory: give a file name, e.g. {name}/{what}.json"
            ))),
            Ok(m) if m.is_file() => {
                let file = std::fs::canonicalize(path)
                    .map_err(|e| Error::io(format!("cannot read {what} {name}"), e))?;
                disk::check_writable(&file, what)?;
                Ok(Target::Replace {
                    given: path.to_path_buf(),
                    file,
                    what: what.to_string(),
                })
            }
            Ok(m) if m.file_type().is_char_device() || m.file_type().is_fifo() => {
                let file = std::fs::canonicalize(path)
                    .map_err(|e| Error::io(format!("cannot read {what} {name}"), e))?;
                Ok(Target::Stream {
                    given: path.to_path_buf(),
                    file,
                    id: (m.dev(), m.ino()),
                })
            }
            Ok(_) => Err(Error::Usage(format!(
                "{what} {name} is neither a regular file, a character device nor a pipe (a \
                 socket or a block device?): give the name of a file to write"
            ))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if std::fs::symlink_metadata(path).is_ok() {
                    return Err(Error::Usage(format!(
                        "{what} {name} is a symlink to nothing: point it at a file, or give \
                         the file's name itself"
                    )));
                }
                disk::check_writable(path, what)?;
                Ok(Target::Replace {
                    given: path.to_path_buf(),
                    file: path.to_path_buf(),
                    what: what.to_string(),
                })
            }
            Err(e) => Err(Error::io(format!("cannot read {what} {name}"), e)),
        }
    }

    /// [`Target::file`] for a file whose name the program chose inside a directory the user
    /// named (`man --dir`): a symbolic link there is refused, not written through, since the
    /// user did not name what it points at.
    pub fn file_in(dir: &Path, name: &str, what: &str) -> Result<Target, Error> {
        let path = dir.join(name);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(Error::Usage(format!(
                "{what} {} is a symbolic link: remove it, or write the pages to another \
                 directory (a link there is not written through)",
                path.shown()
            )));
        }
        Target::file(&path, what)
    }

    /// The file's name as given, or `None` for stdout.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Target::Stdout => None,
            Target::Replace { given, .. }
            | Target::Stream { given, .. }
            | Target::Descriptor { given, .. } => Some(given),
        }
    }

    /// Writes `text` here: the whole of it, or an error naming where.
    pub fn write(&self, text: &str) -> anyhow::Result<()> {
        match self {
            Target::Stdout => stdout::print(text),
            Target::Replace { file, what, .. } => Ok(disk::replace(file, text.as_bytes(), what)?),
            Target::Stream { given, file, id } => {
                let failed = |e| Error::io(format!("cannot write to {}", given.shown()), e);
                let mut f = open_stream(given, file, *id)?;
                f.write_all(text.as_bytes()).map_err(failed)?;
                Ok(())
            }
            Target::Descriptor { fd: 1, .. } => stdout::print(text),
            Target::Descriptor { given, fd } => {
                let failed = |e| Error::io(format!("cannot write to {}", given.shown()), e);
                // SAFETY: a duplicate of a descriptor checked open for writing; the `File`
                // owns the duplicate and closes it, never the process's own.
                let dup = unsafe { libc::dup(*fd) };
                if dup < 0 {
                    return Err(failed(std::io::Error::last_os_error()).into());
                }
                let mut f = unsafe { File::from_raw_fd(dup) };
                f.write_all(text.as_bytes()).map_err(failed)?;
                Ok(())
            }
        }
    }
}

/// Opens the device or pipe `file` (`given` on the command line) for writing, without
/// following a link and without blocking: it must still be the file `id` it was when the work
/// began (a name swapped for a link or another file meanwhile is refused, and nothing is
/// written). A pipe without a reader is waited for, until a reader comes or a signal stops
/// the command.
fn open_stream(given: &Path, file: &Path, id: (u64, u64)) -> anyhow::Result<File> {
    let name = given.shown();
    loop {
        let opened = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(file);
        match opened {
            Ok(f) => {
                let m = f
                    .metadata()
                    .map_err(|e| Error::io(format!("cannot write to {name}"), e))?;
                let kind = m.file_type();
                if (m.dev(), m.ino()) != id || !(kind.is_fifo() || kind.is_char_device()) {
                    return Err(changed(given).into());
                }
                blocking(&f).map_err(|e| Error::io(format!("cannot write to {name}"), e))?;
                return Ok(f);
            }
            // A FIFO with no reader yet.
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
                if let Some(signal) = exit::signalled() {
                    return Err(anyhow::Error::new(Interrupted {
                        signal,
                        message: format!(
                            "interrupted while waiting for a reader of {name}: the result was \
                             not written"
                        ),
                    }));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(changed(given).into()),
            Err(e) => return Err(Error::io(format!("cannot write to {name}"), e).into()),
        }
    }
}

/// The refusal of a device or pipe that is no longer the file it was when the work began.
fn changed(given: &Path) -> Error {
    Error::io_failed(format!(
        "cannot write to {}: it is no longer the device or pipe it was when the work began \
         (it was replaced or made a link meanwhile); nothing was written",
        given.shown()
    ))
}

/// Makes `f`'s writes block again (it was opened without blocking, to wait for a reader
/// without hanging), so that a slow reader gets the whole result.
fn blocking(f: &File) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: F_GETFL and F_SETFL on a descriptor `f` owns.
    unsafe {
        let flags = libc::fcntl(f.as_raw_fd(), libc::F_GETFL);
        if flags < 0 || libc::fcntl(f.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new name and a regular file are replaced; a link is written through; a device is
    /// written into; a directory and a link to nothing are refused, naming what they are.
    #[test]
    fn each_kind_of_path_is_written_as_it_should_be() {
        let dir = std::env::temp_dir().join(format!("nq-target-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let new = dir.join("new.json");
        let t = Target::file(&new, "result").unwrap();
        t.write("one\n").unwrap();
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "one\n");
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&new, &link).unwrap();
        Target::file(&link, "result")
            .unwrap()
            .write("two\n")
            .unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "two\n");
        let null = Target::file(Path::new("/dev/null"), "result").unwrap();
        assert!(matches!(null, Target::Stream { .. }), "{null:?}");
        null.write("gone\n").unwrap();
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        let e = Target::file(&dir, "result").unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
        let dangling = dir.join("dangling.json");
        std::os::unix::fs::symlink(dir.join("nothing"), &dangling).unwrap();
        let e = Target::file(&dangling, "result").unwrap_err().to_string();
        assert!(e.contains("symlink to nothing"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
