//! Finding a distributed run's files: directories searched a few levels deep for shard results
//! and checkpoints, and list files of them (a million names overflow any shell). What
//! `status`, `merge` and `audit` read; re-exported by [`crate::distributed::status`].

use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use std::path::{Path, PathBuf};

/// How deep [`files`] searches a directory: deeper than any layout of a run's files
/// (`results/NNN/shard-….json` is two levels).
pub const DIRECTORY_DEPTH: u32 = 8;

/// The longest line a list may hold: the longest path Linux takes (`PATH_MAX`).
pub const MAX_LIST_LINE: usize = 4096;

/// The paths listed in file `list` (`-`: standard input), one per line; blank lines and lines
/// that begin with `#` are skipped. A list is as good as arguments, and a million names
/// overflow any shell's. A line longer than `MAX_LIST_LINE` bytes, or a list that is not
/// text (a NUL byte, or not UTF-8), is refused as soon as it is met: what is read is held a
/// line at a time, never a whole runaway line.
///
/// A path the list gives twice is refused as soon as it is met (as merge refuses a file given
/// twice), so that an endless list that repeats itself (`yes s0.json`) ends at its second
/// line, not when memory runs out.
pub fn listed(list: &Path) -> Result<Vec<PathBuf>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for path in list_paths(list)? {
        let path = path?;
        if !seen.insert(path.clone()) {
            return Err(Error::Input(format!(
                "{} is given twice in the list of files {}: give each file once",
                path.shown(),
                list.shown()
            )));
        }
        out.push(path);
    }
    Ok(out)
}

/// The paths of list `list` (`-`: standard input), read a line at a time as they are asked
/// for, so that a reader that goes through them one by one (merge, audit) holds one line
/// whatever the list's length, and one that ends early (a file given twice) reads no more.
/// Each line is checked as [`listed`] says.
pub fn list_paths(list: &Path) -> Result<ListedPaths> {
    let name = list.shown().to_string();
    let reader: Box<dyn std::io::BufRead> = if name == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        // A pipe is as good as a file here (`--list <(find runs -name '*.json')`).
        let f = std::fs::File::open(list)
            .map_err(|e| Error::Input(format!("cannot read the list of files {name}: {e}")))?;
        Box::new(std::io::BufReader::new(f))
    };
    Ok(ListedPaths {
        reader,
        name,
        number: 0,
        buf: Vec::new(),
        done: false,
    })
}

/// The paths of a list, a line at a time ([`list_paths`]).
pub struct ListedPaths {
    reader: Box<dyn std::io::BufRead>,
    name: String,
    /// The number of the last line read.
    number: usize,
    buf: Vec<u8>,
    /// Whether the list ended, or failed.
    done: bool,
}

impl ListedPaths {
    /// The next line's path: `Ok(None)` at the end of the list, and for a blank or comment
    /// line `Ok(Some(None))`.
    fn line(&mut self) -> Result<Option<Option<PathBuf>>> {
        use std::io::{BufRead, Read};
        let name = &self.name;
        self.number += 1;
        let number = self.number;
        self.buf.clear();
        let got = (&mut self.reader)
            .take(MAX_LIST_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| Error::Input(format!("cannot read the list of files {name}: {e}")))?;
        if got == 0 {
            return Ok(None);
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if self.buf.len() > MAX_LIST_LINE {
            return Err(Error::Input(format!(
                "line {number} of the list of files {name} is longer than {MAX_LIST_LINE} bytes, \
                 the longest path there is: a list holds one path per line"
            )));
        }
        let line = match std::str::from_utf8(&self.buf) {
            Ok(l) if !l.contains('\0') => l.trim_end_matches('\r'),
            _ => {
                return Err(Error::Input(format!(
                    "line {number} of the list of files {name} is not text (a NUL byte, or not \
                     UTF-8): a list holds one path per line"
                )))
            }
        };
        Ok(Some(
            (!line.trim().is_empty() && !line.starts_with('#')).then(|| PathBuf::from(line)),
        ))
    }
}

impl Iterator for ListedPaths {
    type Item = Result<PathBuf>;

    fn next(&mut self) -> Option<Result<PathBuf>> {
        while !self.done {
            match self.line() {
                Ok(Some(Some(path))) => return Some(Ok(path)),
                Ok(Some(None)) => continue,
                Ok(None) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

/// The shard result and checkpoint files under `paths`: files as given, directories searched
/// [`DIRECTORY_DEPTH`] levels deep for `*.json` and `*.ckpt` (temporary and lock files are
/// skipped; a symbolic link to a regular file is read as the file, one to a directory is not
/// followed, and one that leads nowhere is kept for its reader to name), in name order.
pub fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    fn walk(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) -> Result<()> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| Error::Input(format!("cannot read directory {}: {e}", dir.shown())))?;
        let mut found: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        found.sort();
        for p in found {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            let name = name.unwrap_or_default();
            let named =
                !name.starts_with('.') && (name.ends_with(".json") || name.ends_with(".ckpt"));
            // A link to a regular file (a finished result linked in from elsewhere) is read as
            // that file (a shard given twice is refused as any is); a link to a directory is
            // not followed: one out of the directory (or back into it) would count files
            // that are not the run's, or the run's twice.
            // A link that leads nowhere (or round in a loop) is kept, so that its reader names
            // it and says why it cannot be read, rather than passing it over in silence.
            if std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
                if named && (p.is_file() || std::fs::metadata(&p).is_err()) {
                    out.push(p);
                }
                continue;
            }
            if p.is_dir() {
                if depth > 0 {
                    walk(&p, depth - 1, out)?;
                }
            } else if p.is_file() && named {
                // Regular files only: a FIFO or a device named like a result would block
                // the read or never end.
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, DIRECTORY_DEPTH, &mut out)?;
        } else if std::fs::symlink_metadata(p).is_err() {
            return Err(Error::Input(format!(
                "cannot read {}: no such file",
                p.shown()
            )));
        } else if p.exists() && !p.is_file() {
            return Err(Error::Input(format!(
                "{} is not a regular file (a FIFO or a device?): give shard results, \
                 checkpoints or the directory that holds them",
                p.shown()
            )));
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}
