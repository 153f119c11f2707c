//! A checkpoint's own file and its lock: what a run writes to, and that it is the only one.
//!
//! - **The target** ([`resolve`]): a checkpoint given as a symlink is written through to the
//!   file it points to (the link stays a link); a read-only one is refused, not replaced.
//! - **One run per checkpoint** ([`Lock`]): a run holds an advisory lock on `FILE.lock` for
//!   as long as it writes `FILE`; a second run on the same file is refused at once, saying
//!   so. The lock ends with the process, however it ends; the small `.lock` file stays until
//!   the checkpoint is removed ([`remove_checkpoint`]).
//! - **A result is never written over it** ([`check_not_checkpoint`]).

use crate::files::disk::short_name;
use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// The file a checkpoint path writes to: the path itself, or, when it is a symlink, the file
/// it points to. Refuses a read-only file, a dangling symlink, a directory and a device.
pub fn resolve(path: &Path) -> Result<PathBuf> {
    let name = path.shown();
    let target = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).map_err(|e| {
            Error::io(
                format!(
                    "checkpoint {name} is a symlink to a file that cannot be reached (point it \
                     at an existing file, or give the file itself)"
                ),
                e,
            )
        })?,
        Ok(_) => path.to_path_buf(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(path.to_path_buf()),
        Err(e) => return Err(Error::io(format!("cannot read checkpoint {name}"), e)),
    };
    if let Ok(m) = std::fs::metadata(&target) {
        if m.is_dir() {
            return Err(Error::Input(format!(
                "checkpoint {name} is a directory: give a file name, e.g. {name}/count.ckpt"
            )));
        }
        if !m.is_file() {
            return Err(Error::Input(format!(
                "checkpoint {name} is not a regular file (a device or a pipe?): give the name \
                 of a file to write"
            )));
        }
        if m.permissions().readonly() {
            return Err(Error::io_failed(format!(
                "checkpoint {name} is read-only, and a run replaces its checkpoint as it goes: \
                 make it writable (chmod u+w {name}) to resume from it, or give another \
                 `checkpoint` file"
            )));
        }
    }
    Ok(target)
}

/// An advisory lock on `FILE.lock`, held while a run writes `FILE`.
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

impl Lock {
    /// Takes the lock for checkpoint `path`, or says that another run holds it.
    pub fn take(path: &Path) -> Result<Lock> {
        let lock = lock_path(path);
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        // A planted link in place of the lock file is never followed (nor its target made).
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        let file = options.open(&lock).map_err(|e| {
            Error::io(
                format!(
                    "cannot write checkpoint {}: its lock file {} cannot be created",
                    path.shown(),
                    lock.shown()
                ),
                e,
            )
        })?;
        match file.try_lock() {
            Ok(()) => Ok(Lock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(Error::io_failed(format!(
                "another nqueens run is using checkpoint {} (it holds {}): wait for it to end, \
                 or give this run another `checkpoint` file",
                path.shown(),
                lock.shown()
            ))),
            Err(std::fs::TryLockError::Error(e)) => Err(Error::io(
                format!(
                    "cannot lock {} for checkpoint {}",
                    lock.shown(),
                    path.shown()
                ),
                e,
            )),
        }
    }
}

/// The lock file of checkpoint `path`: `FILE.lock` beside it, its name made of `FILE`'s bytes
/// ([`short_name`]), so that two names a lossy reading would make alike have locks of their
/// own.
fn lock_path(path: &Path) -> PathBuf {
    let mut name = short_name(path);
    name.push(".lock");
    path.with_file_name(name)
}

/// Refuses a result written to `output` that is the checkpoint `checkpoint` (the file it
/// names, or that its symlink points to) or its lock file, however spelled: the result would
/// replace the checkpoint, and a finished shard's checkpoint and lock are removed, with the
/// result in them (nothing would be left). Called before anything is counted.
pub fn check_not_checkpoint(output: &Path, checkpoint: &Path) -> Result<()> {
    let target = resolve(checkpoint).unwrap_or_else(|_| checkpoint.to_path_buf());
    let mut theirs = vec![
        ("the checkpoint", checkpoint.to_path_buf()),
        ("the checkpoint", target.clone()),
        ("the checkpoint's lock file", lock_path(checkpoint)),
        ("the checkpoint's lock file", lock_path(&target)),
    ];
    theirs.dedup_by(|a, b| a.1 == b.1);
    match theirs.iter().find(|(_, p)| same_file(output, p)) {
        Some((what, _)) => Err(Error::Usage(format!(
            "the result {} is {what} ({}): the result would replace it and be removed with it \
             when the shard finishes; write the result to another file",
            output.shown(),
            checkpoint.shown()
        ))),
        None => Ok(()),
    }
}

/// Removes checkpoint `path` and its lock file, once what it held is kept elsewhere (a
/// finished shard's result): a run of a million shards leaves no million checkpoints. What
/// cannot be removed is left.
pub fn remove_checkpoint(path: &Path) {
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(lock_path(path));
}

/// Where `path` is on disk, however it is spelled (`./x`, `dir/../x`, a symlink to it): its
/// canonical path if it exists, else its directory's canonical path and its name.
fn on_disk(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// Whether `a` and `b` are the same file: the same place on disk ([`on_disk`]), or, where
/// both exist, the same file under two names (a hard link).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            if (x.dev(), x.ino()) == (y.dev(), y.ino()) {
                return true;
            }
        }
    }
    on_disk(a) == on_disk(b)
}
