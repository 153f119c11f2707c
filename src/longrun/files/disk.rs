//! Reading and replacing the files of long runs (checkpoints, shard results) so that nothing
//! is lost and nothing outside them is touched.
//!
//! - **Reading** is bounded ([`crate::longrun::files::reading`]; a run's files stream, [`crate::longrun::files::stream`]): a file
//!   larger than its kind can be (a device, a runaway file) is refused before it fills memory,
//!   and text that is not UTF-8 is a damaged input (exit 2), like any other.
//! - **Replacing** ([`replace`]) writes a temporary file created exclusively under a name
//!   nobody can place in advance (a pre-existing file or symlink of that name makes it pick
//!   another, never follow it), in the target's directory, with the target's permissions;
//!   flushes it to disk, renames it over the target and syncs the directory. A crash at any
//!   instant leaves the previous good file.
//! - **The target** ([`resolve`]): a checkpoint given as a symlink is written through to the
//!   file it points to (the link stays a link); a read-only one is refused, not replaced.
//! - **One run per checkpoint** ([`Lock`]): a run holds an advisory lock on `FILE.lock` for
//!   as long as it writes `FILE`; a second run on the same file is refused at once, saying
//!   so. The lock ends with the process, however it ends; the small `.lock` file stays.

use crate::error::{Error, Result};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest checkpoint or shard file read: about 100 bytes per task, so 2 million tasks
/// and more; a run whose file would pass it is refused before it starts
/// (`longrun::files_within`: the largest plans, N = 27 and 28, must be sharded).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The file a checkpoint path writes to: the path itself, or, when it is a symlink, the file
/// it points to. Refuses a read-only file, a dangling symlink, a directory and a device.
pub fn resolve(path: &Path) -> Result<PathBuf> {
    let name = path.display();
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
                    path.display(),
                    lock.display()
                ),
                e,
            )
        })?;
        match file.try_lock() {
            Ok(()) => Ok(Lock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(Error::io_failed(format!(
                "another nqueens run is using checkpoint {} (it holds {}): wait for it to end, \
                 or give this run another `checkpoint` file",
                path.display(),
                lock.display()
            ))),
            Err(std::fs::TryLockError::Error(e)) => Err(Error::io(
                format!(
                    "cannot lock {} for checkpoint {}",
                    lock.display(),
                    path.display()
                ),
                e,
            )),
        }
    }
}

/// The seal of a checkpoint or shard file: FNV-1a 64 of `value` serialised as compact JSON
/// (with its own `checksum` field empty), in hex. It catches accidents, not forgery.
pub fn digest<T: serde::Serialize>(value: &T) -> String {
    let mut h = crate::fnv::Fnv::new();
    h.bytes(serde_json::to_string(value).unwrap_or_default().as_bytes());
    h.hex()
}

/// The seal of a checkpoint or shard file's text as it was written: FNV-1a 64 of the text
/// (trimmed) with the value of its last `"checksum"` field emptied, which is what [`digest`]
/// hashed when the file was sealed. Reading checks this rather than a re-serialisation of
/// what was parsed, so a value that does not survive a round trip cannot break a genuine
/// file's seal. `None` when the text has no checksum field.
pub fn text_digest(text: &str) -> Option<String> {
    const KEY: &str = "\"checksum\":\"";
    let text = text.trim();
    let at = text.rfind(KEY)? + KEY.len();
    let end = at + text[at..].find('"')?;
    let mut h = crate::fnv::Fnv::new();
    h.bytes(&text.as_bytes()[..at]);
    h.bytes(&text.as_bytes()[end..]);
    Some(h.hex())
}

/// Files being replaced by [`replace`] right now, in this process.
static WRITING: AtomicU64 = AtomicU64::new(0);

/// Whether a file is being replaced right now ([`replace`]): a signal handler that would end
/// the process leaves it alone then, so that a save is never cut short. It only reads an
/// atomic, so a signal handler may call it.
pub fn writing() -> bool {
    WRITING.load(Ordering::SeqCst) > 0
}

/// A file being replaced, for as long as it lives ([`writing`]).
struct Writing;

impl Writing {
    fn begin() -> Writing {
        WRITING.fetch_add(1, Ordering::SeqCst);
        Writing
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        WRITING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// `path` with `suffix` appended to its file name.
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The most bytes of a file's name that the names of its lock and temporary files keep: the
/// rest of them (a hash of the whole name, the process, a counter, a nonce, a suffix) takes at
/// most 55 more, within the 255 bytes a name may have.
const SHORT_NAME_BYTES: usize = 180;

/// `path`'s file name, short enough to build other names from: itself, or past
/// [`SHORT_NAME_BYTES`] its first bytes (at a character's boundary) and a hash of it all, so
/// that two long names never give the same short one.
fn short_name(path: &Path) -> String {
    let mut name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.len() > SHORT_NAME_BYTES {
        let mut h = crate::fnv::Fnv::new();
        h.bytes(name.as_bytes());
        let mut cut = SHORT_NAME_BYTES;
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        name.truncate(cut);
        name = format!("{name}~{}", h.hex());
    }
    name
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
            "the result {} is {what} ({}): the result would replace it and be removed with it              when the shard finishes; write the result to another file",
            output.display(),
            checkpoint.display()
        ))),
        None => Ok(()),
    }
}

/// The lock file of checkpoint `path`: `FILE.lock` beside it ([`short_name`]).
fn lock_path(path: &Path) -> PathBuf {
    path.with_file_name(format!("{}.lock", short_name(path)))
}

/// The prefix of the temporary files that replace `path`: `.NAME.` in its directory, `NAME`
/// its [`short_name`], so that a file of any name can be replaced.
fn tmp_prefix(path: &Path) -> (PathBuf, String) {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    (dir, format!(".{}.", short_name(path)))
}

/// The temporary files left by runs on `path` that were killed while writing it.
pub fn leftovers(path: &Path) -> Vec<PathBuf> {
    let (dir, prefix) = tmp_prefix(path);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_prefix(&prefix)
                .and_then(|rest| rest.strip_suffix(".tmp"))
                .is_some_and(is_tmp_nonce)
        })
        .map(|e| e.path())
        .collect()
}

/// Whether `s` is the middle of one of [`replace`]'s temporary names, `PID.SEQ.NONCE` (two
/// decimal numbers and 8 hex digits): so that the leftovers of `FILE` are never taken for
/// those of `FILE.b` (whose names also start with `.FILE.`).
fn is_tmp_nonce(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    let digits = |p: &str, hex: bool| {
        !p.is_empty()
            && p.chars().all(|c| {
                if hex {
                    c.is_ascii_hexdigit()
                } else {
                    c.is_ascii_digit()
                }
            })
    };
    matches!(parts.as_slice(), [pid, seq, nonce]
        if digits(pid, false) && digits(seq, false) && nonce.len() == 8 && digits(nonce, true))
}

/// Checks that file `path` (of kind `what`) can be written by [`replace`]: its directory
/// exists and takes a new file (one is made and removed), and it is not a directory.
pub fn check_writable(path: &Path, what: &str) -> Result<()> {
    let name = path.display();
    if path.is_dir() {
        return Err(Error::Usage(format!(
            "{what} {name} is a directory: give a file name, e.g. {name}/result.json"
        )));
    }
    let (dir, prefix) = tmp_prefix(path);
    let probe = dir.join(format!("{prefix}{}.probe", std::process::id()));
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| Error::io(format!("cannot write {what} {name}"), e))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Removes checkpoint `path` and its lock file, once what it held is kept elsewhere (a
/// finished shard's result): a run of a million shards leaves no million checkpoints. What
/// cannot be removed is left.
pub fn remove_checkpoint(path: &Path) {
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(lock_path(path));
}

/// Removes the temporary files of killed runs on `path` (call it holding the [`Lock`]: then
/// no live run is writing one).
pub fn remove_leftovers(path: &Path) {
    for p in leftovers(path) {
        let _ = std::fs::remove_file(p);
    }
}

/// Replaces the file `path` with `bytes` atomically (see the module docs); `what` names it in
/// errors.
pub fn replace(path: &Path, bytes: &[u8], what: &str) -> Result<()> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let _writing = Writing::begin();
    let io = |verb: &str, e: std::io::Error| {
        Error::io(format!("cannot {verb} {what} {}", path.display()), e)
    };
    let (dir, prefix) = tmp_prefix(path);
    let mode = std::fs::metadata(path).ok().map(|m| m.permissions());
    let (tmp, mut f) = loop {
        let nonce = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let tmp = dir.join(format!(
            "{prefix}{}.{}.{nonce:08x}.tmp",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io("write", e)),
        }
    };
    let written = (|| {
        if let Some(p) = mode {
            f.set_permissions(p)?;
        }
        f.write_all(bytes)?;
        f.sync_all()
    })();
    drop(f);
    // Only a regular file (or nothing) is ever replaced: a device, a FIFO or a link put there
    // since the target was checked is refused, never turned into a file.
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_file()) {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io_failed(format!(
            "cannot write {what} {}: it is no longer a regular file (a link, a device or a \
             FIFO took its place), and only a regular file is replaced",
            path.display()
        )));
    }
    if let Err(e) = written.and_then(|_| std::fs::rename(&tmp, path)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(io("write", e));
    }
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("nqueens-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_is_never_followed_and_a_symlinked_target_is_written_through() {
        let d = tmpdir("symlink");
        let victim = d.join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let path = d.join("c.ckpt");
        // Every name an attacker could guess for the temporary file.
        for i in 0..4 {
            std::os::unix::fs::symlink(&victim, d.join(format!(".c.ckpt.{i}.tmp"))).unwrap();
        }
        std::os::unix::fs::symlink(&victim, with_suffix(&path, ".tmp")).unwrap();
        replace(&path, b"new", "checkpoint").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        // A checkpoint that is a symlink: its target is replaced, the link stays.
        let real = d.join("real.ckpt");
        std::fs::write(&real, "old").unwrap();
        let link = d.join("link.ckpt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let target = resolve(&link).unwrap();
        replace(&target, b"fresh", "checkpoint").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "fresh");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn read_only_and_oversized_files_are_refused() {
        let d = tmpdir("ro");
        let path = d.join("c.ckpt");
        std::fs::write(&path, "x").unwrap();
        let mut p = std::fs::metadata(&path).unwrap().permissions();
        p.set_readonly(true);
        std::fs::set_permissions(&path, p).unwrap();
        let e = resolve(&path).unwrap_err().to_string();
        assert!(e.contains("is read-only"), "{e}");
        let zero = File::open("/dev/zero").unwrap();
        let e =
            crate::longrun::files::reading::read_bounded(zero, "/dev/zero", "checkpoint", 1 << 20)
                .unwrap_err()
                .to_string();
        assert!(e.contains("larger than 1 MiB"), "{e}");
        let e =
            crate::longrun::files::reading::read_bounded(&[0xff, 0xfe][..], "bad", "shard", 100)
                .unwrap_err();
        assert_eq!(e.exit_code(), 2);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_second_lock_on_one_checkpoint_is_refused() {
        let d = tmpdir("lock");
        let path = d.join("c.ckpt");
        let first = Lock::take(&path).unwrap();
        let e = Lock::take(&path).unwrap_err().to_string();
        assert!(e.contains("another nqueens run is using checkpoint"), "{e}");
        drop(first);
        Lock::take(&path).unwrap();
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// A replace never turns anything but a regular file into one: a link or a FIFO put in
    /// the target's place is refused, and left as it was.
    #[cfg(unix)]
    #[test]
    fn a_replace_refuses_what_is_not_a_regular_file() {
        let dir = std::env::temp_dir().join(format!("nq-replace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("result.json");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid path and mode.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = replace(&fifo, b"x", "result").unwrap_err().to_string();
        assert!(e.contains("no longer a regular file"), "{e}");
        let meta = std::fs::symlink_metadata(&fifo).unwrap();
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
