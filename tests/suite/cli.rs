//! The command line, end to end (assert_cmd).

use crate::common;

use common::{assert_bad_input, json, nqueens, solution_of, stdout_of};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn count_8_says_92_and_matches() {
    nqueens()
        .args(["count", "8"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "total      92  (matches A000170(8))",
        ))
        .stdout(predicate::str::contains(
            "unique     12  (matches A002562(8))",
        ));
}

#[test]
fn count_json_has_every_field() {
    for alg in ["plain", "mirror", "symmetric"] {
        let v = json(&[
            "count",
            "10",
            "--json",
            "-t",
            "2",
            "-a",
            alg,
            "--split-depth",
            "2",
        ]);
        assert_eq!(v["n"], 10);
        assert_eq!(v["total"], 724);
        assert_eq!(v["known"], 724);
        assert_eq!(v["matches_known"], true);
        assert_eq!(v["threads"], 2);
        assert_eq!(v["split_depth"], 2);
        assert_eq!(v["algorithm"], alg);
        assert!(v["tasks"].as_u64().unwrap() > 1);
        assert!(v["nodes"].as_u64().unwrap() > 724);
        assert!(v["seconds"].as_f64().unwrap() >= 0.0);
        assert!(v["nodes_per_second"].is_number());
        if alg == "symmetric" {
            assert_eq!(v["unique"], 92);
            assert_eq!(v["known_unique"], 92);
            assert_eq!(v["matches_known_unique"], true);
            assert_eq!(v["solutions_sym90"], 0);
            assert_eq!(v["solutions_sym180"], 12);
        } else {
            assert!(v["unique"].is_null());
            assert!(v["matches_known_unique"].is_null());
        }
    }
}

#[test]
fn count_1_is_one_solution_alone_in_its_class() {
    let v = json(&["count", "1", "--json"]);
    assert_eq!(v["total"], 1);
    assert_eq!(v["unique"], 1);
}

#[test]
fn count_14() {
    let v = json(&["count", "14", "--json"]);
    assert_eq!(v["total"], 365596);
    assert_eq!(v["unique"], 45752);
}

#[test]
fn table_prints_bfile_lines_with_marks() {
    nqueens()
        .args(["table", "1..8"])
        .assert()
        .success()
        .stdout("1 1 ok\n2 0 ok\n3 0 ok\n4 2 ok\n5 10 ok\n6 4 ok\n7 40 ok\n8 92 ok\n");
    nqueens()
        .args(["table", "4..8", "--unique"])
        .assert()
        .success()
        .stdout("4 1 ok\n5 2 ok\n6 1 ok\n7 6 ok\n8 12 ok\n");
}

#[test]
fn table_json_lines() {
    let out = nqueens()
        .args(["table", "7..9", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["n"], 8);
    assert_eq!(lines[1]["value"], 92);
    assert_eq!(lines[1]["sequence"], "A000170");
    assert_eq!(lines[1]["matches_known"], true);
}

/// Every bad input: exit code 2, a message on stderr naming the problem, nothing on stdout.
#[test]
fn bad_input_exits_2_with_a_message_and_empty_stdout() {
    let cases: &[(&[&str], &str)] = &[
        (&["count", "0"], "between 1 and 64"),
        (&["count", "65"], "between 1 and 64"),
        (&["count", "-1"], "between 1 and 64"),
        (&["count", "abc"], "not a board size"),
        (&["count", "8", "--threads", "0"], "at least 1"),
        (&["count", "8", "--split-depth", "9"], "1, 2 or 3"),
        (&["count", "8", "--split-depth", "0"], "1, 2 or 3"),
        (&["table", "5..3"], "after the end"),
        (&["table", "1..x"], "expected A..B"),
        (&["table", "1..65"], "between 1 and 64"),
        (
            &["table", "1..4", "--unique", "-a", "mirror"],
            "--unique needs",
        ),
        (&["count", "8", "--bogus"], "unexpected argument '--bogus'"),
        // The library's message names its options; the command line names the flags.
        (
            &[
                "count",
                "16",
                "-a",
                "quadrants",
                "-t",
                "2",
                "--max-memory",
                "3M",
            ],
            "raise --max-memory, use fewer --threads, or count with --algorithm symmetric",
        ),
        (&["count"], "required arguments were not provided"),
        (&["frobnicate"], "unrecognized subcommand"),
    ];
    assert_bad_input(cases);
}

#[test]
fn help_explains_every_option() {
    let out = nqueens().args(["count", "--help"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for opt in [
        "--threads",
        "--split-depth",
        "--algorithm",
        "--json",
        "1 to 64",
    ] {
        assert!(text.contains(opt), "count --help lacks {opt}:\n{text}");
    }
    nqueens()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes"));
}

#[test]
fn solve_8_is_the_textbook_first_solution() {
    assert_eq!(stdout_of(&["solve", "8"]), "1 5 8 6 3 7 2 4\n");
    assert_eq!(
        stdout_of(&["solve", "8", "--zero-based"]),
        "0 4 7 5 2 6 1 3\n"
    );
    nqueens()
        .args(["solve", "8"])
        .assert()
        .stderr("found by trying columns left to right, row by row (--method lexicographic)\n");
}

#[test]
fn solve_without_solution_is_a_normal_answer() {
    nqueens()
        .args(["solve", "3"])
        .assert()
        .success()
        .stdout("no solution: the 3×3 board has none\n");
    let v = json(&["solve", "2", "--json"]);
    assert!(v["solution"].is_null());
}

#[test]
fn solve_large_boards_by_construction_and_every_answer_is_valid() {
    for n in ["40", "1000", "1000000"] {
        let v = json(&["solve", n, "--json"]);
        assert_eq!(v["method"], "construct");
        let cols = solution_of(&v);
        assert_eq!(cols.len(), n.parse::<usize>().unwrap());
        assert!(nqueens::is_solution(&cols), "n={n}");
    }
}

#[test]
fn list_8_streams_92_distinct_increasing_solutions() {
    let text = stdout_of(&["list", "8"]);
    let sols: Vec<Vec<usize>> = text
        .lines()
        .map(|l| {
            l.split(' ')
                .map(|c| c.parse::<usize>().unwrap() - 1)
                .collect()
        })
        .collect();
    assert_eq!(sols.len(), 92);
    assert!(sols.iter().all(|s| nqueens::is_solution(s)));
    assert!(sols.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(text.lines().next(), Some("1 5 8 6 3 7 2 4"));
}

#[test]
fn list_unique_orbits_cover_all_solutions() {
    use nqueens::board::symmetry::Symmetry;
    let parse = |t: String| -> Vec<Vec<usize>> {
        t.lines()
            .map(|l| l.split(' ').map(|c| c.parse().unwrap()).collect())
            .collect()
    };
    let all = parse(stdout_of(&["list", "8", "--zero-based"]));
    let reps = parse(stdout_of(&["list", "8", "--unique", "--zero-based"]));
    assert_eq!(reps.len(), 12);
    let mut orbits: Vec<Vec<usize>> = reps
        .iter()
        .flat_map(|r| Symmetry::ALL.iter().map(move |s| s.apply(r)))
        .collect();
    orbits.sort();
    orbits.dedup();
    assert_eq!(orbits, all);
}

#[test]
fn list_counts_equal_the_counter_up_to_10() {
    for n in 1..=10u32 {
        let listed = stdout_of(&["list", &n.to_string()]).lines().count() as u64;
        let unique = stdout_of(&["list", &n.to_string(), "--unique"])
            .lines()
            .count() as u64;
        let v = json(&["count", &n.to_string(), "--json"]);
        assert_eq!(Some(listed), v["total"].as_u64(), "n={n}");
        assert_eq!(Some(unique), v["known_unique"].as_u64(), "n={n}");
    }
}

#[test]
fn list_formats_and_limit() {
    assert_eq!(
        stdout_of(&["list", "4", "--format", "pairs"]),
        "(1,2) (2,4) (3,1) (4,3)\n(1,3) (2,1) (3,4) (4,2)\n"
    );
    assert_eq!(
        stdout_of(&["list", "4", "--format", "matrix", "--limit", "1"]),
        "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n"
    );
    assert_eq!(
        stdout_of(&["list", "4", "--format", "dots"]),
        ". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n"
    );
    let lines = stdout_of(&["list", "5", "--format", "json", "--limit", "2"]);
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first["solution"], serde_json::json!([1, 3, 5, 2, 4]));
    assert_eq!(lines.lines().count(), 2);
}

#[test]
fn list_survives_a_closed_pipe() {
    use std::io::Read;
    use std::process::{Command as Std, Stdio};
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["list", "12"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then the pipe closes
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn solve_and_list_bad_input() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "0"], "from 1 to"),
        (&["solve", "abc"], "not a board size"),
        (&["solve", "100", "--method", "lexicographic"], "up to 64"),
        (&["solve", "5000", "--format", "grid"], "too large to draw"),
        (&["list", "65"], "between 1 and 64"),
        (&["list", "8", "--format", "hex"], "invalid value 'hex'"),
    ];
    assert_bad_input(cases);
}

/// `verify` of JSON lines whose second line is cut short names line 2 (it blamed
/// line 1 for "trailing characters at line 2"); a missing file reads "no such file", as in
/// merge; the quadrant method's JSON names no kernel (it has none).
#[test]
fn small_things_say_what_they_are() {
    let list = String::from_utf8(
        nqueens()
            .args(["list", "8", "--limit", "3", "--format", "json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let lines: Vec<&str> = list.lines().collect();
    let cut = format!(
        "{}\n{}\n{}\n",
        lines[0],
        &lines[1][..lines[1].len() / 2],
        lines[2]
    );
    let out = nqueens().arg("verify").write_stdin(cut).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("line 2"), "{err}");
    assert!(!err.contains("line 1:"), "{err}");
    for cmd in ["verify", "merge"] {
        let out = nqueens()
            .args([cmd, "/nonexistent/x.json"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(
            err.contains("no such file") && !err.contains("os error"),
            "{cmd}: {err}"
        );
    }
    let v: Value = serde_json::from_slice(
        &nqueens()
            .args(["count", "12", "-a", "quadrants", "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(v["kernel"], Value::Null, "{v}");
    let v: Value = serde_json::from_slice(
        &nqueens()
            .args(["count", "12", "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(v["kernel"], "wide", "{v}");
}

/// A 0-based board read as 1-based names the option that reads it; a directory
/// given to `verify` is bad input (exit 2), as a missing file is.
#[test]
fn verify_names_zero_based_and_refuses_a_directory_as_bad_input() {
    let listed = stdout_of(&["list", "8", "--zero-based", "--limit", "1"]);
    let out = nqueens()
        .arg("verify")
        .write_stdin(listed.clone())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("'0' is not a column") && err.contains("--zero-based"),
        "{err}"
    );
    let ok = nqueens()
        .args(["verify", "--zero-based"])
        .write_stdin(listed)
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0), "{ok:?}");
    let dir = env!("CARGO_MANIFEST_DIR");
    let out = nqueens().args(["verify", dir]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is a directory"), "{err}");
}

/// `count N -o FILE.json` writes the JSON report (the format from the name, as
/// `bench --export` takes it); another name gets the text.
#[test]
fn count_output_named_json_is_json() {
    let dir = common::tmpdir("cli", "out-json");
    for (name, json) in [("x.json", true), ("x.JSON", true), ("x.txt", false)] {
        let f = dir.join(name);
        nqueens()
            .args(["count", "12", "-t", "1", "-o"])
            .arg(&f)
            .assert()
            .success();
        let text = std::fs::read_to_string(&f).unwrap();
        match serde_json::from_str::<Value>(&text) {
            Ok(v) if json => assert_eq!(v["total"], 14200, "{name}"),
            Err(_) if !json => assert!(text.contains("14200"), "{name}: {text}"),
            other => panic!("{name}: {other:?}: {text}"),
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A shard counted with its standard output on a terminal and no `-o` would be thrown away
/// (its result is the JSON file `merge` reads): it is refused before anything is counted,
/// saying to add `-o FILE` to the same command (the options that make the plan stay as they
/// are). Piped, or with --json, it is the JSON `merge` reads. (The terminal is `script`'s.)
#[test]
fn a_shard_on_a_terminal_without_a_file_is_refused_before_counting() {
    let me = env!("CARGO_BIN_EXE_nqueens");
    let on_tty = |extra: &str| {
        std::process::Command::new("script")
            .args([
                "-qec",
                &format!("{me} count 12 -a plain --kernel simple --shard 0/3 -t 1 {extra}"),
                "/dev/null",
            ])
            .output()
            .unwrap()
    };
    let refused = on_tty("");
    let said = String::from_utf8_lossy(&refused.stdout).to_string();
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(said.contains("add -o FILE to this command"), "{said}");
    assert!(said.contains("nothing was counted"), "{said}");
    assert!(!said.contains("\"format\""), "{said}");
    let shown = on_tty("--json");
    assert!(shown.status.success(), "{shown:?}");
    assert!(String::from_utf8_lossy(&shown.stdout).contains("\"format\":\"nqueens-shard\""));
    let piped = json(&["count", "12", "--shard", "0/3", "-t", "1"]);
    assert_eq!(piped["format"], "nqueens-shard");
}

/// A chart that cannot be written is found out before the table is counted (it
/// computed every row, then failed).
#[test]
fn a_chart_that_cannot_be_written_is_refused_before_the_work() {
    for args in [
        &["table", "1..10", "--plot", "/no/such/dir/x.svg"][..],
        &["bench", "--n", "8", "--plot", "/no/such/dir/x.svg"][..],
    ] {
        let out = nqueens().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: counted first");
        assert!(
            err.contains("cannot write chart /no/such/dir/x.svg"),
            "{err}"
        );
    }
}
