//! Reading and replacing the files of long runs (checkpoints, shard results) so that nothing
//! is lost and nothing outside them is touched.
//!
//! - **Reading** is bounded ([`crate::files::reading`]; a run's files stream, [`crate::files::stream`]): a file
//!   larger than its kind can be (a device, a runaway file) is refused before it fills memory,
//!   and text that is not UTF-8 is a damaged input (exit 2), like any other.
//! - **Replacing** ([`replace`]) writes a temporary file created exclusively under a name
//!   nobody can place in advance (a pre-existing file or symlink of that name makes it pick
//!   another, never follow it), in the target's directory, with the target's permissions;
//!   flushes it to disk, renames it over the target and syncs the directory. A crash at any
//!   instant leaves the previous good file.
//! - **A checkpoint's own file and lock** are in `crate::files::lock`.

use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest checkpoint or shard file read: about 100 bytes per task, so 2 million tasks
/// and more; a run whose file would pass it is refused before it starts
/// (`longrun::files_within`: the largest plans, N = 27 and 28, must be sharded).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

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

/// `path`'s file name, short enough to build other names from, byte for byte (a name that is
/// not UTF-8 keeps its bytes, so that two such names never give the same short one): itself,
/// or past [`SHORT_NAME_BYTES`] its first bytes (at a character's boundary, where it is text)
/// and a hash of it all, so that two long names never give the same short one.
pub(crate) fn short_name(path: &Path) -> OsString {
    let name = path.file_name().map(OsStr::as_bytes).unwrap_or_default();
    if name.len() <= SHORT_NAME_BYTES {
        return OsStr::from_bytes(name).to_os_string();
    }
    let mut h = nqueens_board::fnv::Fnv::new();
    h.bytes(name);
    let mut cut = SHORT_NAME_BYTES;
    if let Ok(text) = std::str::from_utf8(name) {
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
    }
    let mut short = OsStr::from_bytes(&name[..cut]).to_os_string();
    short.push(format!("~{}", h.hex()));
    short
}

/// `parts` joined into one file name.
fn name_of(parts: &[&OsStr]) -> OsString {
    parts.iter().fold(OsString::new(), |mut n, p| {
        n.push(p);
        n
    })
}

/// The prefix of the temporary files that replace `path`: `.NAME.` in its directory, `NAME`
/// its [`short_name`], so that a file of any name can be replaced.
fn tmp_prefix(path: &Path) -> (PathBuf, OsString) {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let prefix = name_of(&[OsStr::new("."), &short_name(path), OsStr::new(".")]);
    (dir, prefix)
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
            let n = e.file_name();
            n.as_bytes()
                .strip_prefix(prefix.as_bytes())
                .and_then(|rest| rest.strip_suffix(b".tmp"))
                .and_then(|rest| std::str::from_utf8(rest).ok())
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
    let name = path.shown();
    if path.is_dir() {
        return Err(Error::Usage(format!(
            "{what} {name} is a directory: give a file name, e.g. {name}/result.json"
        )));
    }
    let (dir, prefix) = tmp_prefix(path);
    let pid = format!("{}.probe", std::process::id());
    let probe = dir.join(name_of(&[&prefix, OsStr::new(&pid)]));
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| Error::io(format!("cannot write {what} {name}"), e))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Removes the temporary files of killed runs on `path` (call it holding the [`Lock`](crate::files::lock::Lock): then
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
        Error::io(format!("cannot {verb} {what} {}", path.shown()), e)
    };
    let (dir, prefix) = tmp_prefix(path);
    let mode = std::fs::metadata(path).ok().map(|m| m.permissions());
    let (tmp, mut f) = loop {
        let nonce = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let rest = format!(
            "{}.{}.{nonce:08x}.tmp",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let tmp = dir.join(name_of(&[&prefix, OsStr::new(&rest)]));
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
            path.shown()
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
    use crate::files::lock::{resolve, Lock};

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
        let e = crate::files::reading::read_bounded(zero, "/dev/zero", "checkpoint", 1 << 20)
            .unwrap_err()
            .to_string();
        assert!(e.contains("larger than 1 MiB"), "{e}");
        let e = crate::files::reading::read_bounded(&[0xff, 0xfe][..], "bad", "shard", 100)
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
        // Two names that are not UTF-8, alike when read lossily, have locks of their own.
        let a = d.join(OsStr::from_bytes(b"a\xff.ckpt"));
        let b = d.join(OsStr::from_bytes(b"a\xfe.ckpt"));
        let _held = Lock::take(&a).unwrap();
        Lock::take(&b).unwrap();
        // And their temporary files are told apart too.
        replace(&a, b"one", "checkpoint").unwrap();
        assert!(leftovers(&b).is_empty());
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
