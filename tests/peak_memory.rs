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

/// `verify` of one drawn board of 16 million rows (32 MiB of `Q` lines) holds little more
/// than its input: its rows are counted and read again, never held one vector each (it
/// peaked at 1.4 GiB).
#[cfg(target_os = "linux")]
#[test]
fn verify_of_a_tall_drawn_board_stays_near_its_input() {
    let dir = tmpdir("verify-tall");
    let input = dir.join("tall.txt");
    std::fs::write(&input, "Q\n".repeat(16 << 20)).unwrap();
    let (code, peak) = exit_and_peak_kib(&["verify", input.to_str().unwrap()]);
    assert_eq!(code, 2, "not a square board");
    assert!(peak < 128 * 1024, "peak {peak} KiB for 32 MiB of input");
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
/// (and its quarter table) is dropped, not beside it (it peaked at 134 MB under 120M). At
/// N = 20 the first plan fills the limit, so any shard's records force the second plan: one
/// shard of 64 takes about 18 s on one thread (with the first plan kept, it peaked at 131 MB).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn a_replanned_count_stays_within_its_memory_limit() {
    let (code, peak) = exit_and_peak_kib(&[
        "count",
        "20",
        "--shard",
        "2/64",
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
        .args(["count", "20", "--shard", "0/1024", "-t", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let shard = dir.join("s0.json");
    std::fs::write(&shard, &out.stdout).unwrap();
    let (code, peak) = exit_and_peak_kib(&["status", shard.to_str().unwrap()]);
    assert_eq!(code, 1, "one shard of 1,024: not yet");
    assert!(peak < 48 * 1024, "peak {peak} KiB");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `merge`, `status` and `audit` read a list of files a line at a time, each line bounded by
/// the longest path: `--list /dev/zero` is refused at once (exit 2) within a few MiB (it grew
/// to 1.7 GB in 3 s, then aborted with a backtrace under a 1 GiB limit).
#[cfg(target_os = "linux")]
#[test]
fn a_runaway_list_is_refused_within_a_few_mib() {
    for cmd in ["merge", "status", "audit"] {
        let (code, peak) = exit_and_peak_kib(&[cmd, "--list", "/dev/zero"]);
        assert_eq!(code, 2, "{cmd}");
        assert!(peak < 24 * 1024, "{cmd}: peak {peak} KiB");
    }
}

/// Writes `head`, then `piece` `times` times, then `tail` into `path`, a piece at a time: the
/// test process stays small, since a child's peak counts its parent's high-water mark.
fn write_pieces(path: &std::path::Path, head: &str, piece: &str, times: usize, tail: &str) {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    f.write_all(head.as_bytes()).unwrap();
    for _ in 0..times {
        f.write_all(piece.as_bytes()).unwrap();
    }
    f.write_all(tail.as_bytes()).unwrap();
    f.flush().unwrap();
}

/// The three shards of N = 12 written into `dir`, named `s0.json` ... `s2.json`.
#[cfg(target_os = "linux")]
fn three_shards(dir: &std::path::Path) {
    for i in 0..3 {
        let shard = format!("{i}/3");
        let file = dir.join(format!("s{i}.json"));
        let out = bin()
            .args(["count", "12", "-t", "1", "--shard", &shard, "-o"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
}

/// A JSON file of another kind in a run's directory has its `format` looked at only where it
/// is a string: an 8 MB `{"format":[0,0,...]}` is skipped without being built (130 MiB, 16
/// times the file, before), and the run is reported complete.
#[cfg(target_os = "linux")]
#[test]
fn a_large_format_value_is_skipped_without_being_built() {
    let dir = tmpdir("format-value");
    three_shards(&dir);
    // Written a piece at a time: this process's own peak would count as its child's.
    write_pieces(
        &dir.join("notes.json"),
        "{\"format\":[0",
        ",0",
        4_000_000,
        "]}",
    );
    let (code, peak) = exit_and_peak_kib(&["status", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "the run is complete");
    assert!(peak < 48 * 1024, "peak {peak} KiB");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A record holding a number far longer than a count (a 64 MiB `total`) is refused as soon as
/// the number passes 40 digits, by merge and status, within a few MiB (the whole number was
/// held: 70 MiB).
#[cfg(target_os = "linux")]
#[test]
fn a_runaway_number_in_a_record_is_refused_as_soon_as_it_is_seen() {
    let dir = tmpdir("long-number");
    three_shards(&dir);
    let s0 = dir.join("s0.json");
    let text = std::fs::read_to_string(&s0).unwrap();
    // The first record, `[id,total,...]`: its total made 64 MiB of digits.
    let at = text.find("\"done\":[[").expect("a shard's records") + 9;
    let total = text[at..].find(',').expect("a record's total") + at + 1;
    let rest = text[total..].trim_start_matches(|c: char| c.is_ascii_digit());
    write_pieces(&s0, &text[..total], "9999999999999999", 4 << 20, rest);
    for cmd in ["merge", "status"] {
        let (code, peak) = exit_and_peak_kib(&[cmd, dir.to_str().unwrap()]);
        assert_eq!(code, 2, "{cmd}");
        assert!(peak < 40 * 1024, "{cmd}: peak {peak} KiB");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `verify` reads a JSON board as it parses it, each column placed as it comes: a 16 MB
/// `[1,1,...]` stays within ten times its size (the board itself takes 16 bytes per queen;
/// a tree of JSON values took 447 MiB before).
#[cfg(target_os = "linux")]
#[test]
fn a_json_board_is_read_as_it_is_parsed() {
    let dir = tmpdir("json-board");
    let board = dir.join("board.json");
    write_pieces(&board, "[1", ",1", 8_000_000 - 1, "]");
    let (code, peak) = exit_and_peak_kib(&["verify", board.to_str().unwrap()]);
    assert_eq!(code, 1, "not a solution");
    assert!(peak < 200 * 1024, "peak {peak} KiB");
    std::fs::remove_dir_all(&dir).unwrap();
}
