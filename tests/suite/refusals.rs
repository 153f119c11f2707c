//! Bad input gets a message that points the right way, never a panic or a hang: extreme
//! values, junk between boards, random and mutated input, and work that will be long.

use crate::common;

use common::{assert_refused, bin, json, nqueens};
use std::process::Stdio;

#[test]
fn verify_refuses_junk_between_pairs() {
    for junk in ["7", "junk", "\u{0}"] {
        let board = format!("(1,2) {junk} (2,4) (3,1) (4,3)\n");
        assert_refused(nqueens().arg("verify").write_stdin(board), "is not a pair");
    }
    nqueens()
        .arg("verify")
        .write_stdin("(1,2), (2,4), (3,1), (4,3)\n")
        .assert()
        .success();
}

#[test]
fn extreme_values_are_refused_with_a_message() {
    for args in [
        &["count", "8", "--checkpoint-every", "1e20"][..],
        &["count", "8", "--checkpoint-every", "1e300"],
        &["count", "8", "--checkpoint-every", "1e-9"],
        &["count", "8", "--progress-every", "1e300"],
        &["count", "8", "--shard", "0/4000000000"],
        &["count", "8", "--threads", "100000"],
        &["list", "8", "--limit", "99999999999999999999999"],
        &["trace", "8", "--max-steps", "99999999999999999999999"],
        &["bench", "--warmup", "99999999999999999999999"],
        &["count", " 8"],
        &["count", "+8"],
        &["count", "8", "--place", "1 : 1"],
        &["count", "8", "--quiet", "--progress"],
    ] {
        let out = nqueens().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("too large to fit"), "{args:?}: {err}");
    }
}

#[test]
fn long_searches_say_they_may_be_long() {
    let mut child = bin()
        .args(["list", "40", "--limit", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let mut first = [0u8; 64];
    let k = std::io::Read::read(&mut err, &mut first).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(String::from_utf8_lossy(&first[..k]).starts_with("note: searching"));
}

#[test]
fn messages_point_the_right_way() {
    let err = |args: &[&str]| {
        let out = nqueens().args(args).output().unwrap();
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    // count reads --place from 0 with --zero-based too: its message offers it.
    assert!(err(&["count", "8", "--place", "0:1"]).contains("--zero-based"));
    assert!(!err(&["merge", "--bogus"]).contains("--zero-based"));
    assert!(err(&["solve", "8", "--place", "0:1"]).contains("--zero-based"));
    // A trace's summary is part of the trace: it ends stdout, after the last step.
    let last_line = |args: &[&str]| {
        let out = nqueens().args(args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines().last().unwrap_or_default().to_string()
    };
    assert!(last_line(&["trace", "3"]).contains("the 3×3 board has no solution"));
    assert!(last_line(&["trace", "2"]).contains("no solution"));
    let out = nqueens()
        .arg("verify")
        .write_stdin("1 5 8 6 3 7 2\n")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a row missing?"));
    let out = nqueens()
        .arg("verify")
        .write_stdin("(1,1) (2,5) (3,8) (4,6) (5,3) (6,7) (7,2)\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("row 8 has no queen"));
}

#[test]
fn parsers_survive_random_and_mutated_input() {
    use nqueens::board::parse::parse_stream;
    use nqueens::longrun::{distributed::merge, files::checkpoint::Checkpoint};
    let seeds = [
        "1 5 8 6 3 7 2 4\n",
        "(1,1) (2,5) (3,8) (4,6) (5,3) (6,7) (7,2) (8,4)\n",
        "Q . .\n. . Q\n",
        "{\"n\":4,\"solution\":[2,4,1,3]}\n",
        "| Q |   |\n+---+---+\n",
        r#"{"format":"nqueens-shard","version":3,"n":8,"algorithm":"plain","split_depth":1,"placed":[],"fingerprint":"0","shard":{"index":0,"count":1},"tasks":1,"plan_tasks":1,"counts":{"total":1,"classes":null,"nodes":1},"kernel":"wide","threads":1,"seconds":0.1,"done":[{"id":0,"counts":{"total":1,"classes":null,"nodes":1}}],"checksum":""}"#,
        r#"{"format":"nqueens-checkpoint","version":3,"n":8,"algorithm":"plain","split_depth":1,"placed":[],"fingerprint":"0","shard":null,"tasks":1,"done":[],"checksum":""}"#,
    ];
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let alphabet = b"0123456789 ,()[]{}:\"Q.|+-\n\x00\xff#ab";
    for i in 0..3000 {
        let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..1 + next() % 6 {
            let at = (next() as usize) % (bytes.len() + 1);
            let c = alphabet[(next() as usize) % alphabet.len()];
            match next() % 3 {
                0 => bytes.insert(at, c),
                1 if at < bytes.len() => bytes[at] = c,
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => {}
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        for (_, b) in parse_stream(&text, i % 2 == 0) {
            if let Err(e) = b {
                assert_eq!(e.exit_code(), 2, "{text:?}: {e}");
            }
        }
        if let Err(e) = merge::parse(&text, "f") {
            assert_eq!(e.exit_code(), 2, "{text:?}: {e}");
        }
        if let Err(e) = Checkpoint::parse(&text, "f") {
            assert_eq!(e.exit_code(), 2, "{text:?}: {e}");
        }
    }
}

/// Plans that cannot be held are refused before they are built (exit 2 and a
/// message), never allocated (they aborted allocating ~166 GB).
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn plans_too_large_to_hold_are_refused_up_front() {
    for args in [
        &["count", "64", "--shard", "0/2"][..],
        &[
            "count",
            "64",
            "--checkpoint",
            "/nonexistent-dir/never-written.ckpt",
        ],
        &["count", "49", "--split-depth", "2"],
        &["table", "64..64", "--split-depth", "2"],
    ] {
        // (Asked for anyway: without --force each is refused sooner, as beyond a lifetime.)
        assert_refused(nqueens().args(args).arg("--force"), "smaller split depth");
    }
}

/// What `--help` says of `auto` is what it does (quadrants from odd N = 17).
#[test]
fn help_says_what_auto_does() {
    let out = nqueens().args(["count", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("odd N >= 17 up to 28"), "{help}");
    let auto = json(&["count", "17", "-t", "1", "--json"]);
    assert_eq!(auto["algorithm"], "quadrants");
}

/// A board with no solution drawn as SVG is a picture (of the empty board), not
/// plain text.
#[test]
fn no_solution_as_svg_is_a_picture() {
    let out = nqueens()
        .args(["solve", "2", "--format", "svg"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("no solution"), "{svg}");
}

/// In a stream, an unreadable board is named with its own line; a 1×1 matrix
/// reads 0-based too.
#[test]
fn verify_names_the_board_that_is_wrong() {
    let out = nqueens()
        .arg("verify")
        .write_stdin("2 4 1 3\n# a comment\n3 1 4 2\n2 4 1 x\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("board 3 (line 4): UNREADABLE: line 4:"),
        "{text}"
    );
    assert!(text.contains("3 boards: 2 solutions"), "{text}");
    for zero in [false, true] {
        let mut cmd = nqueens();
        cmd.arg("verify").write_stdin("1\n");
        if zero {
            cmd.arg("--zero-based");
        }
        cmd.assert().success();
    }
}

/// A count of a board no one has counted says, first and even when stderr is not a
/// terminal, roughly what it will cost (it said nothing for 20 s).
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn a_count_past_the_table_says_what_it_will_cost() {
    let out = nqueens()
        .args(["count", "28", "-a", "quadrants", "-t", "1"])
        .args(["--max-memory", "1M", "--force"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("note: N = 28 is about "), "{err}");
    assert!(err.contains("projected past the known a(27)"), "{err}");
    assert!(err.contains("core-years"), "{err}");
    assert!(err.contains("with algorithm quadrants"), "{err}");
    assert!(err.contains("`nqueens estimate 28`"), "{err}");
    // Past the quadrant method the note prices the backtracker that would run (a checkpoint
    // that cannot be written stops the count after the note, before any work).
    let out = nqueens()
        .args([
            "count",
            "29",
            "-t",
            "1",
            "--checkpoint",
            "/nonexistent/n29.ckpt",
            "--force",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("note: N = 29 is about "), "{err}");
    assert!(err.contains("with algorithm symmetric"), "{err}");
    assert!(!err.contains("nqueens estimate"), "{err}");
}

/// A run keeps the ids of its tasks, and a run that writes a file a record of each task it
/// counts: where those leave the method too little memory, the run is refused before it
/// starts, with the shards that would fit (a whole N = 28 in the plan of 13 parts a
/// combination, the plan before the record plan: 521 million ids, 3.9 GiB; a shard of it in
/// 300: 1.7 million ids and records, 252 MiB, beside a method that needs 644 MiB on one
/// worker).
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn a_run_whose_task_records_do_not_fit_is_refused_with_the_shards_that_would() {
    let whole = ["count", "28", "-t", "1", "--max-memory", "3G", "--force"];
    let nqueens = || {
        let mut c = nqueens();
        c.env("NQUEENS_QUARTER_PARTS", "13");
        c
    };
    assert_refused(
        nqueens().args(whole),
        "a count of N = 28 in one run keeps the ids of its 521515801 tasks, 3.9 GiB, which \
         leaves the method less than the ",
    );
    assert_refused(nqueens().args(whole), "give --max-memory of at least ");
    assert_refused(
        nqueens().args([
            "count",
            "28",
            "--shard",
            "0/300",
            "-t",
            "1",
            "--max-memory",
            "800M",
        ]),
        "shard 0/300 of N = 28 keeps the ids of its 1738387 tasks and a record of each \
         finished one for its file, 252.0 MiB",
    );
}

/// A run whose checkpoint or shard file would pass what resume and merge read (256 MiB) is
/// refused before it counts or writes anything, with the shards that would fit: a whole
/// N = 27 with a checkpoint (the record plan's 5 million tasks), N = 28 in one shard, and a
/// shard of N = 28 in 100 in the plan of 13 parts per combination (521 million tasks).
#[test]
fn a_run_whose_file_could_not_be_read_back_is_refused() {
    let dir = common::tmpdir("refusals", "big-files");
    let ckpt = dir.join("n27.ckpt");
    assert_refused(
        nqueens()
            .args(["count", "27", "-t", "1", "--checkpoint"])
            .arg(&ckpt),
        "a count of N = 27 in one run has 4952720 tasks: its checkpoint or shard file would \
         pass the 256.0 MiB that resume and merge read (about 100 bytes per task); count it in \
         at least 3 shards (--shard I/K)",
    );
    assert!(!ckpt.exists(), "a checkpoint was written");
    assert_refused(
        nqueens().args(["count", "28", "-t", "1", "--shard", "0/1", "--force"]),
        "shard 0/1 of N = 28 has 4457401 tasks",
    );
    assert_refused(
        nqueens()
            .env("NQUEENS_QUARTER_PARTS", "13")
            .args(["count", "28", "-t", "1", "--shard", "3/100"]),
        "shard 3/100 of N = 28 has 5215158 tasks",
    );
}

/// `NQUEENS_QUADRANT_BUILD` caps the quadrant method's build: every name gives the same
/// count (the richest build this CPU runs up to it), an unknown one is refused with the names.
#[test]
fn the_quadrant_build_can_be_capped_and_a_wrong_name_is_refused() {
    for build in ["portable", "avx2", "avx512"] {
        let out = nqueens()
            .args(["count", "13", "-a", "quadrants", "--json"])
            .env("NQUEENS_QUADRANT_BUILD", build)
            .output()
            .unwrap();
        assert!(out.status.success(), "{build}: {out:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["total"].as_u64(), Some(73_712), "{build}: {v}");
    }
    assert_refused(
        nqueens()
            .args(["count", "13", "-a", "quadrants"])
            .env("NQUEENS_QUADRANT_BUILD", "avx1024"),
        "portable, avx2 or avx512",
    );
}

/// What cannot finish in a lifetime (a hundred years on the threads given,
/// by a rough scale) is refused at once, from arithmetic, before any plan is built (`count 47
/// --shard 0/2` took 37 s and 1 GB to refuse; `estimate 40` warned, then counted); `--force`
/// asks for it anyway. A run of the quadrant method whose file could not be read back is
/// refused from its plan's task count alone (`count 28 --shard 0/1` took 10 s and 2 GB). A
/// board the method does not count is refused for that, before its cost.
#[test]
fn what_cannot_finish_is_refused_at_once_from_arithmetic() {
    for (args, says) in [
        (
            &["count", "47", "--shard", "0/2", "-t", "1"][..],
            "more than a lifetime",
        ),
        (&["count", "40"], "more than a lifetime"),
        (&["estimate", "40"], "cannot finish in a lifetime"),
        (
            &["estimate", "48", "-t", "1"],
            "cannot finish in a lifetime",
        ),
        (&["table", "29..30"], "more than a lifetime"),
        (
            &["count", "28", "--shard", "0/1", "-t", "2"],
            "at least 3 shards",
        ),
        (
            &["count", "29", "-a", "quadrants", "--force"],
            "counts boards from 4 to 28",
        ),
    ] {
        assert_refused(nqueens().args(args), says);
        // Refused before anything is built: within 256 MiB of address space, where building
        // these plans took 1 to 2 GB (and the process aborted on the failed allocation).
        let capped = std::process::Command::new("sh")
            .arg("-c")
            .arg(r#"ulimit -v 262144 && exec "$0" "$@""#)
            .arg(env!("CARGO_BIN_EXE_nqueens"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(capped.status.code(), Some(2), "{args:?}: {capped:?}");
        assert!(
            String::from_utf8_lossy(&capped.stderr).contains(says),
            "{args:?}: {capped:?}"
        );
    }
    assert_refused(nqueens().args(["count", "40"]), "--force");
}

/// A count that will take long says its cost before it starts (`count 24` began
/// with "ETA unknown" and no word of its 60 core-hours).
#[test]
fn a_long_count_says_its_cost_before_it_starts() {
    use std::io::BufRead;
    let mut child = bin()
        .args(["count", "24", "-t", "2", "--force"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(first.starts_with("note: N = 24 is about "), "{first}");
    assert!(
        first.contains("core-hours of work") && first.contains("on 2 threads"),
        "{first}"
    );
}

/// A refusal for memory names what would fit (the --max-memory, and a K more than
/// the shard's own; it said "at least 2 shards" to shard 0 of 4).
#[test]
fn a_memory_refusal_names_what_would_fit() {
    let out = nqueens()
        .args([
            "count",
            "20",
            "--shard",
            "0/4",
            "-t",
            "1",
            "--max-memory",
            "118M",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(0) {
        return; // (fits on this machine's plan: nothing to name)
    }
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("give --max-memory of at least"), "{err}");
    if let Some((_, rest)) = err.split_once("K = ") {
        let k: String = rest.chars().take_while(char::is_ascii_digit).collect();
        assert!(k.parse::<u64>().unwrap() > 4, "{err}");
    }
}
