//! Finding a distributed run's files: directories searched a few levels deep for shard results
//! and checkpoints, and list files of them (a million names overflow any shell). What
//! `status`, `merge` and `audit` read; re-exported by [`crate::longrun::distributed::status`].

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// How deep [`files`] searches a directory: deeper than any layout of a run's files
/// (`results/NNN/shard-….json` is two levels).
pub const DIRECTORY_DEPTH: u32 = 8;

/// The paths listed in file `list` (`-`: standard input), one per line; blank lines and lines
/// that begin with `#` are skipped. A list is as good as arguments, and a million names
/// overflow any shell's.
pub fn listed(list: &Path) -> Result<Vec<PathBuf>> {
    use std::io::BufRead;
    let name = list.display().to_string();
    let reader: Box<dyn BufRead> = if name == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(list)
            .map_err(|e| Error::Input(format!("cannot read the list of files {name}: {e}")))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut out = Vec::new();
    for line in reader.lines() {
        let line =
            line.map_err(|e| Error::Input(format!("cannot read the list of files {name}: {e}")))?;
        let line = line.trim_end_matches('\r');
        if !line.trim().is_empty() && !line.starts_with('#') {
            out.push(PathBuf::from(line));
        }
    }
    Ok(out)
}

/// The shard result and checkpoint files under `paths`: files as given, directories searched
/// [`DIRECTORY_DEPTH`] levels deep for `*.json` and `*.ckpt` (temporary and lock files are
/// skipped; a symbolic link to a regular file is read as the file, one to a directory is not
/// followed), in name order.
pub fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    fn walk(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) -> Result<()> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| Error::Input(format!("cannot read directory {}: {e}", dir.display())))?;
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
            if std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
                if named && p.is_file() {
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
                p.display()
            )));
        } else if p.exists() && !p.is_file() {
            return Err(Error::Input(format!(
                "{} is not a regular file (a FIFO or a device?): give shard results, \
                 checkpoints or the directory that holds them",
                p.display()
            )));
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}
