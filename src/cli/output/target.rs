//! Where a result goes: stdout, or a file named on the command line (`-o`, `--export`,
//! `--plot`), checked before any work starts, so that nothing is counted for a result with
//! nowhere to go.
//!
//! A file is replaced atomically (a temporary file beside it, flushed, renamed over it), and
//! only a regular file is ever replaced: a symlink is written through to the file it points
//! to; a character device or a pipe (`-o /dev/stdout`, `-o /dev/null`, a FIFO) is written
//! into as the shell's `>` would; a directory, a socket, a block device and a symlink to
//! nothing are refused.

use super::stdout;
use nqueens::longrun::files::disk;
use nqueens::Error;
use std::io::Write;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

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
    Stream(PathBuf),
}

impl Target {
    /// `path` checked as a place for `what` (`result`, `export`, `chart`), before the work.
    pub fn file(path: &Path, what: &str) -> Result<Target, Error> {
        let name = path.display();
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
                Ok(Target::Stream(path.to_path_buf()))
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
                path.display()
            )));
        }
        Target::file(&path, what)
    }

    /// The file's name as given, or `None` for stdout.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Target::Stdout => None,
            Target::Replace { given, .. } => Some(given),
            Target::Stream(p) => Some(p),
        }
    }

    /// Writes `text` here: the whole of it, or an error naming where.
    pub fn write(&self, text: &str) -> anyhow::Result<()> {
        match self {
            Target::Stdout => stdout::print(text),
            Target::Replace { file, what, .. } => Ok(disk::replace(file, text.as_bytes(), what)?),
            Target::Stream(path) => {
                let failed = |e| Error::io(format!("cannot write to {}", path.display()), e);
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(failed)?;
                f.write_all(text.as_bytes()).map_err(failed)?;
                Ok(())
            }
        }
    }
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
        assert_eq!(null, Target::Stream("/dev/null".into()));
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
