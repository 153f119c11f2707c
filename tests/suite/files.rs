//! Nothing lost, nothing of others touched: checkpoints never follow planted links, one run
//! holds a checkpoint, a result that cannot be written is a failure, and inputs that never
//! end or are huge are refused quickly.

use crate::common;

use common::{assert_refused, bin, json, nqueens};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("files", name)
}

#[cfg(unix)]
#[test]
fn checkpoints_never_follow_planted_links_and_respect_their_files() {
    let dir = tmpdir("links");
    let victim = dir.join("victim");
    std::fs::write(&victim, "keep").unwrap();
    let c = dir.join("f.ckpt");
    std::os::unix::fs::symlink(&victim, dir.join("f.ckpt.tmp")).unwrap();
    json(&["count", "12", "--json", "--checkpoint", c.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    // A checkpoint that is a symlink: written through, the link kept.
    let real = dir.join("real.ckpt");
    let link = dir.join("link.ckpt");
    std::fs::copy(&c, &real).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let before = std::fs::read_to_string(&real).unwrap();
    json(&[
        "count",
        "12",
        "--json",
        "--checkpoint",
        link.to_str().unwrap(),
    ]);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), before);
    // Read-only: refused and left as it was (mode included).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = nqueens()
        .args(["count", "12", "--checkpoint", real.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("is read-only"));
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o444);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_run_on_a_held_checkpoint_is_refused_and_the_first_finishes() {
    let dir = tmpdir("lock");
    let c = dir.join("c.ckpt");
    let cs = c.to_str().unwrap();
    let first = bin()
        .args([
            "count",
            "16",
            "-a",
            "symmetric",
            "--kernel",
            "fast",
            "--threads",
            "1",
        ])
        .args(["--json", "--checkpoint", cs])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..500 {
        if c.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = bin()
        .args(["count", "16", "--checkpoint", cs])
        .output()
        .unwrap();
    let out = first.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"], 14_772_512);
    assert_eq!(second.status.code(), Some(1), "{second:?}");
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(
        err.contains("another nqueens run is using checkpoint"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_result_that_cannot_be_written_is_a_failure() {
    let sh = |cmd: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(cmd.replace("NQ", env!("CARGO_BIN_EXE_nqueens")))
            .output()
            .unwrap()
    };
    for cmd in [
        "NQ count 10 --shard 0/2 >&-; echo $?",
        "NQ count 10 >&-; echo $?",
        "NQ solve 8 >/dev/full; echo $?",
        "NQ table 1..4 >&-; echo $?",
    ] {
        let out = sh(cmd);
        let code = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert_eq!(code, "1", "{cmd}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("stdout"),
            "{cmd}: {out:?}"
        );
    }
    // A reader that is gone before the result is written: the result is lost, so it fails.
    let out = sh("(sleep 0.3; NQ count 12 --json; echo $? >&2) | true");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Broken pipe"),
        "{out:?}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).trim().ends_with('1'),
        "{out:?}"
    );
    // A stream whose reader has what it wanted stops quietly.
    let out = sh("NQ list 10 | head -1 >/dev/null; echo ${PIPESTATUS:-0}");
    assert!(out.stderr.is_empty(), "{out:?}");
    let out = sh("NQ list 10 >/dev/full; echo $?");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1");
    // stderr that cannot be written does not cost the result.
    let out = sh("NQ solve 8 2>/dev/full");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1 5 8 6 3 7 2 4\n");
}

#[test]
fn devices_and_oversized_inputs_are_refused_quickly() {
    for dev in ["/dev/zero", "/dev/full"] {
        assert_refused(
            nqueens().args(["count", "8", "--checkpoint", dev]),
            "is not a regular file",
        );
    }
    assert_refused(
        nqueens().args(["merge", "/dev/zero"]),
        "is not a regular file",
    );
    assert_refused(
        nqueens().args(["verify", "/dev/zero"]),
        "larger than 64 MiB",
    );
    let dir = tmpdir("utf8");
    let c = dir.join("bad.ckpt");
    std::fs::write(&c, [b'{', 0xff, 0xfe]).unwrap();
    assert_refused(
        nqueens().args(["count", "8", "--checkpoint", c.to_str().unwrap()]),
        "not text (invalid UTF-8)",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stdout open for reading only (`1</dev/null`) cannot take the result, so the
/// count fails; `1<>/dev/null` is a writable stdout and succeeds.
#[cfg(target_os = "linux")]
#[test]
fn a_read_only_stdout_fails_and_a_read_write_one_is_fine() {
    let sh = |cmd: &str| {
        let out = Command::new("bash")
            .arg("-c")
            .arg(cmd.replace("NQ", env!("CARGO_BIN_EXE_nqueens")))
            .output()
            .unwrap();
        (String::from_utf8_lossy(&out.stdout).trim().to_string(), out)
    };
    for cmd in [
        "NQ count 10 --shard 0/2 1</dev/null; echo $? >&2",
        "NQ count 10 1</dev/null; echo $? >&2",
        "NQ list 6 --unique 1</dev/null; echo $? >&2",
    ] {
        let (_, out) = sh(cmd);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.trim().ends_with('1'), "{cmd}: {err}");
        assert!(err.contains("reading only"), "{cmd}: {err}");
    }
    let (_, out) = sh("NQ count 10 --shard 0/2 1<>/dev/null; echo $? >&2");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim(), "0", "{err}");
}

/// A lock file planted as a link is not followed (its missing target is not
/// created), and the leftovers of a run on `FILE` are told from the temporary files of a run
/// on `FILE.b`.
#[cfg(unix)]
#[test]
fn a_planted_lock_link_is_not_followed_and_others_leftovers_are_kept() {
    let dir = tmpdir("lock-link");
    let c = dir.join("c.ckpt");
    let target = dir.join("made-by-nqueens");
    std::os::unix::fs::symlink(&target, dir.join("c.ckpt.lock")).unwrap();
    let out = nqueens()
        .args(["count", "10", "--checkpoint", c.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(!target.exists(), "the link's target was created");
    std::fs::remove_file(dir.join("c.ckpt.lock")).unwrap();
    // A temporary file of a run on c.ckpt.b (the same prefix, `.c.ckpt.`) and one of a
    // killed run on c.ckpt: only the second is ours to remove.
    let theirs = dir.join(".c.ckpt.b.4242.0.0badf00d.tmp");
    let ours = dir.join(".c.ckpt.4242.0.0badf00d.tmp");
    std::fs::write(&theirs, "theirs").unwrap();
    std::fs::write(&ours, "ours").unwrap();
    json(&["count", "10", "--json", "--checkpoint", c.to_str().unwrap()]);
    assert!(theirs.exists(), "another file's temporary file was deleted");
    assert!(!ours.exists(), "a leftover of this checkpoint was kept");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A FIFO in a run's directory is passed over (reading it would block), and one
/// named on the command line is refused, not read.
#[cfg(unix)]
#[test]
fn status_never_reads_a_fifo() {
    let dir = tmpdir("fifo");
    let files = common::forge::shards(&dir, &["count", "9"], 2);
    let fifo = dir.join("trap.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut child = bin()
        .args(["status", dir.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "status hangs on a FIFO"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_refused(
        nqueens().args(["status", files[0].to_str().unwrap(), fifo.to_str().unwrap()]),
        "not a regular file",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint's name may be as long as the system allows a name (its lock and
/// temporary files took 15 to 45 bytes more and failed past about 225).
#[test]
fn a_checkpoint_of_a_long_name_is_written_and_resumed() {
    let dir = tmpdir("long-name");
    let ckpt = dir.join(format!("{}.ckpt", "n".repeat(250)));
    let c = ckpt.to_str().unwrap();
    let v = json(&["count", "12", "--json", "--checkpoint", c]);
    assert_eq!(v["total"], 14_200);
    let v = json(&["count", "12", "--json", "--checkpoint", c]);
    assert_eq!(v["resumed_tasks"], v["tasks"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
