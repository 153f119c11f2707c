//! Special files where a file is expected: every path that writes replaces nothing but a
//! regular file (a FIFO or a device is written into as the shell's `>` would; a socket or a
//! link to nothing is refused before the work), and every reader names what it cannot read
//! (a link that leads nowhere, a file that fails the run's checks) instead of hanging on it,
//! passing it over in silence, or giving up on the whole run.

use crate::common;

use common::forge::*;
use common::nqueens;
use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::Path;
use std::process::Command;

fn tmpdir(name: &str) -> std::path::PathBuf {
    common::tmpdir("special", name)
}

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

/// `count -o` onto a FIFO writes the result into it (a reader gets the shard's JSON) and the
/// FIFO stays a FIFO; onto `/dev/null` it writes into the device, which stays a device; onto a
/// link to a file it writes the file and the link stays a link.
#[test]
fn a_result_is_written_into_a_fifo_a_device_or_through_a_link() {
    let dir = tmpdir("into");
    let fifo = dir.join("result.fifo");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = nqueens()
        .args(["count", "12", "--shard", "0/3", "-t", "1", "-o"])
        .arg(&fifo)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let read = reader.join().unwrap();
    assert!(read.contains("\"format\":\"nqueens-shard\""), "{read}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());

    let out = nqueens()
        .args(["count", "10", "-o", "/dev/null"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let null = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device(), "/dev/null was replaced");

    let file = dir.join("real.json");
    let link = dir.join("link.json");
    std::fs::write(&file, "old").unwrap();
    symlink(&file, &link).unwrap();
    let out = nqueens()
        .args(["count", "10", "--json", "-o"])
        .arg(&link)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("\"total\":724"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A socket, a directory and a link to nothing are refused as results, exports and charts
/// before anything is counted (exit 2, the path named), and nothing is made in their place.
#[test]
fn what_cannot_take_a_result_is_refused_before_the_work() {
    let dir = tmpdir("refused");
    let sock = dir.join("s.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let dangling = dir.join("gone.json");
    symlink(dir.join("nowhere"), &dangling).unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "count".into(),
                "10".into(),
                "-o".into(),
                sock.display().to_string(),
            ],
            "socket",
        ),
        (
            vec![
                "count".into(),
                "10".into(),
                "-o".into(),
                dangling.display().to_string(),
            ],
            "symlink to nothing",
        ),
        (
            vec![
                "count".into(),
                "10".into(),
                "-o".into(),
                dir.display().to_string(),
            ],
            "is a directory",
        ),
        (
            vec![
                "bench".into(),
                "--n".into(),
                "8".into(),
                "--runs".into(),
                "1".into(),
                "--threads".into(),
                "1".into(),
                "--export".into(),
                format!("{}/x.json", dangling.display()),
            ],
            "cannot",
        ),
    ];
    for (args, said) in cases {
        let out = nqueens().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: a result was printed");
    }
    assert!(std::fs::symlink_metadata(&sock)
        .unwrap()
        .file_type()
        .is_socket());
    assert!(std::fs::symlink_metadata(&dangling)
        .unwrap()
        .file_type()
        .is_symlink());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `man --dir` refuses a link planted among the pages' names instead of writing through it to
/// whatever it points at, and writes nothing then.
#[test]
fn man_pages_are_not_written_through_a_planted_link() {
    let dir = tmpdir("man");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep").unwrap();
    let pages = dir.join("pages");
    std::fs::create_dir(&pages).unwrap();
    symlink(&victim, pages.join("nqueens-count.1")).unwrap();
    let out = nqueens()
        .args(["man", "--dir"])
        .arg(&pages)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("nqueens-count.1") && err.contains("link"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert!(
        !pages.join("nqueens.1").exists(),
        "a page was written before the refusal"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A link that leads nowhere in a run's directory is named, with why it cannot be read, by
/// status (under damaged) and by merge (an error), not passed over as a missing shard.
#[test]
fn a_broken_link_in_a_run_is_named() {
    let dir = tmpdir("broken");
    let files = shards(&dir, &["count", "12"], 3);
    std::fs::remove_file(&files[2]).unwrap();
    symlink(dir.join("moved-away.json"), &files[2]).unwrap();
    let name = files[2].display().to_string();
    let status = nqueens().arg("status").arg(&dir).output().unwrap();
    let err = String::from_utf8_lossy(&status.stderr);
    assert_eq!(status.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&name) && err.contains("does not exist"),
        "{err}"
    );
    let merge = nqueens().arg("merge").arg(&dir).output().unwrap();
    let err = String::from_utf8_lossy(&merge.stderr);
    assert_eq!(merge.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&name) && err.contains("symbolic link"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One file that fails a check of the run (its sums raised and resealed) no longer blinds
/// status: the file is named as damaged, every other shard is reported on stdout (text and
/// JSON), and the exit is 2.
#[test]
fn a_file_that_fails_the_runs_checks_does_not_blind_status() {
    let dir = tmpdir("blind");
    let files = shards(&dir, &["count", "12"], 3);
    // The sums raised by 8 and resealed: consistent in themselves, not with their tasks.
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let (old, new) = bump(&v["counts"], 8);
    std::fs::write(&files[0], reseal(&text.replacen(&old, &new, 1))).unwrap();
    for json in [false, true] {
        let mut cmd = nqueens();
        cmd.arg("status").arg(&dir);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        let (stdout, err) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(2), "{stdout}{err}");
        assert!(err.contains(&files[0].display().to_string()), "{err}");
        if json {
            let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(v["damaged"].as_array().map(Vec::len), Some(1), "{v}");
            assert_eq!(v["finished"], 2, "{v}");
        } else {
            assert!(stdout.contains("shard   1  finished"), "{stdout}");
            assert!(stdout.contains("shard   2  finished"), "{stdout}");
            assert!(stdout.contains("damaged"), "{stdout}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A list of files that is not text, or whose line passes the longest path, is refused at
/// once (exit 2), by merge, status and audit alike: `--list /dev/zero` reads no further.
#[test]
fn a_list_that_is_not_one_path_per_line_is_refused() {
    let dir = tmpdir("list");
    let binary = dir.join("list.bin");
    // A real shard first: merge and audit read a list as they go, so its bad line is met
    // after the file before it is read.
    std::fs::write(&binary, b"docs/examples/n12/s0.json\n\0b.json\n").unwrap();
    for cmd in ["merge", "status", "audit"] {
        for (list, said) in [
            ("/dev/zero", "longer than 4096 bytes"),
            (binary.to_str().unwrap(), "not text"),
        ] {
            let out = nqueens().args([cmd, "--list", list]).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} {list}: {err}");
            assert!(err.contains(said), "{cmd} {list}: {err}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `-o /dev/stdout` (and `/dev/fd/N`, `/proc/self/fd/N`) is written through the descriptor the
/// shell opened: into a log opened for appending, the result follows what the log held, and
/// what the shell writes after it follows the result; the log is never replaced.
#[test]
fn a_result_to_dev_stdout_is_written_through_the_descriptor() {
    let dir = tmpdir("dev-stdout");
    let log = dir.join("run.log");
    std::fs::write(&log, "earlier\n").unwrap();
    let bin = std::path::PathBuf::from(env!("CARGO_BIN_EXE_nqueens"));
    for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        let script = format!(
            "( '{}' count 8 --json -o {name}; echo later ) >> '{}'",
            bin.display(),
            log.display()
        );
        let status = Command::new("sh").arg("-c").arg(&script).status().unwrap();
        assert!(status.success(), "{name}");
    }
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert_eq!(lines[0], "earlier");
    for pair in lines[1..].chunks(2) {
        assert!(pair[0].contains("\"total\":92"), "{text}");
        assert_eq!(pair[1], "later");
    }
    // A descriptor that is not open for writing is refused before the work.
    let out = nqueens()
        .args(["count", "8", "-o", "/dev/fd/9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A FIFO named by `-o` and swapped for a link to another file while the count runs is not
/// written through: the count refuses at the end, naming it, and the file the link points at
/// is left as it was.
#[test]
fn a_fifo_swapped_for_a_link_during_the_count_is_not_written_through() {
    let dir = tmpdir("fifo-swap");
    let fifo = dir.join("out.json");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me whole\n").unwrap();
    mkfifo(&fifo);
    let child = common::bin()
        .args(["count", "8", "--json", "-t", "1", "-o"])
        .arg(&fifo)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The count of 8 ends at once; then it waits for a reader of the FIFO, which never comes.
    std::thread::sleep(std::time::Duration::from_millis(500));
    std::fs::remove_file(&fifo).unwrap();
    symlink(&victim, &fifo).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no longer the device or pipe"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me whole\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A count whose `-o` FIFO has no reader waits for one, and SIGTERM ends the wait: exit 143,
/// one line saying the result was not written.
#[test]
fn a_signal_ends_the_wait_for_a_fifos_reader() {
    let dir = tmpdir("fifo-signal");
    let fifo = dir.join("out.json");
    mkfifo(&fifo);
    let child = common::bin()
        .args(["count", "8", "-t", "1", "-o"])
        .arg(&fifo)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let kill = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("waiting for a reader"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Names from outside the program are shown escaped, on stdout and stderr alike: a shard file
/// whose name holds a newline and an escape sequence makes no line of its own in `status` and
/// sends no escape to the terminal, and a missing file's name with newlines gives a one-line
/// error.
#[test]
fn names_with_control_characters_are_shown_escaped() {
    let dir = tmpdir("escaped-names");
    let forged = "s2\nshard   1  finished   999999 solutions FORGED\u{1b}[8m.json";
    std::fs::copy("docs/examples/n12/s0.json", dir.join(forged)).unwrap();
    let out = nqueens().arg("status").arg(&dir).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("s2\\nshard   1  finished"), "{text}");
    assert!(
        !text.lines().any(|l| l.starts_with("shard   1  finished")),
        "{text}"
    );
    let out = nqueens()
        .args(["verify", "missing\nerror: everything is fine\n.txt"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("missing\\nerror: everything is fine\\n.txt"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A list is read a line at a time as its files are merged: an endless list naming one shard
/// over and over (`merge --list <(yes s0.json)`) is refused at its second line, the shard
/// given twice, instead of being read whole first.
#[test]
fn an_endless_list_is_refused_at_the_file_given_twice() {
    use std::io::Write as _;
    let shard = std::fs::canonicalize("docs/examples/n12/s0.json").unwrap();
    let mut child = common::bin()
        .args(["merge", "--list", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = format!("{}\n", shard.display());
        // Until merge stops reading (a broken pipe), or far past what it needs.
        for _ in 0..10_000_000 {
            if stdin.write_all(line.as_bytes()).is_err() {
                return true;
            }
        }
        false
    });
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is given twice"), "{err}");
    assert!(writer.join().unwrap(), "merge read the whole list");
}
