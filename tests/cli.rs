//! The command line, end to end (assert_cmd).

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = nqueens().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

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
fn count_beyond_the_table_has_null_known() {
    // No board beyond 27 is small enough for a test, so check the field on a known one and
    // rely on the unit test of oeis::check for the null case; here only the shape matters.
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
        (&["count"], "required arguments were not provided"),
        (&["frobnicate"], "unrecognized subcommand"),
    ];
    for (args, msg) in cases {
        nqueens()
            .args(*args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(*msg));
    }
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
