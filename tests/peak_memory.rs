//! Peak memory of a command, from `wait4` of its process: a test binary of its own, since a
//! child's peak resident size counts what its parent held when it was started (Linux keeps
//! the high-water mark across `exec`), and the suite's one process holds far more than this
//! small one.

use std::process::{Command, Stdio};

/// The built `nqueens` binary.
fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nqueens"))
}

/// A fresh empty directory for one test.
fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("nqueens-peak-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `nqueens ARGS` to its end; its exit code and peak resident size in KiB (from
/// `wait4`, which reaps the child).
#[cfg(target_os = "linux")]
#[allow(clippy::zombie_processes)]
fn exit_and_peak_kib(args: &[&str]) -> (i32, i64) {
    let child = bin()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, filling `status` and `usage`.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    assert!(libc::WIFEXITED(status), "{args:?} did not exit");
    // ru_maxrss is in KiB on Linux.
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

/// `verify` of a stream holds one board at a time: a million boards (3 MB of
/// input) stay within a few tens of MB (they took 1 GB).
#[cfg(target_os = "linux")]
#[test]
fn verify_of_a_million_boards_stays_small() {
    let dir = tmpdir("verify-mem");
    let input = dir.join("many.txt");
    std::fs::write(&input, "1\n\n".repeat(1_000_000)).unwrap();
    let (code, peak) = exit_and_peak_kib(&["verify", input.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(peak < 100 * 1024, "peak {peak} KiB");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A quadrant count refused for memory is refused before its quarter table is
/// built (it peaked at 165 MiB before refusing 64M at N = 21).
#[cfg(target_os = "linux")]
#[test]
fn a_memory_refusal_comes_before_the_table() {
    let (code, peak) = exit_and_peak_kib(&[
        "count",
        "21",
        "-a",
        "quadrants",
        "-t",
        "2",
        "--max-memory",
        "64M",
    ]);
    assert_eq!(code, 2);
    assert!(peak < 100 * 1024, "peak {peak} KiB");
}

/// A limit is a limit for the whole process: when a run's records leave its
/// method less than it was planned with, the method is planned again after the first plan
/// (and its quarter table) is dropped, not beside it (it peaked at 134 MB under 120M).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn a_replanned_count_stays_within_its_memory_limit() {
    let (code, peak) = exit_and_peak_kib(&[
        "count",
        "20",
        "--shard",
        "2/4",
        "-t",
        "1",
        "--max-memory",
        "120M",
    ]);
    assert_eq!(code, 0);
    assert!(peak <= 120 * 1024, "peak {peak} KiB over 120M");
}

/// Commands that count nothing need the plan's identity, not its tables: status
/// of a shard of N = 20 reads it without the 61.5 MiB quarter table (it refused with 200 MB
/// available, "use fewer --threads", a flag status does not have).
#[cfg(target_os = "linux")]
#[test]
fn status_needs_the_plan_not_its_tables() {
    let dir = tmpdir("status-identity");
    let out = bin()
        .args(["count", "20", "--shard", "0/64", "-t", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let shard = dir.join("s0.json");
    std::fs::write(&shard, &out.stdout).unwrap();
    let (code, peak) = exit_and_peak_kib(&["status", shard.to_str().unwrap()]);
    assert_eq!(code, 1, "one shard of 64: not yet");
    assert!(peak < 48 * 1024, "peak {peak} KiB");
    std::fs::remove_dir_all(&dir).unwrap();
}
