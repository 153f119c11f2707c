//! What the tool shows: install and Rust version in the README, every `list` format
//! checked by `verify`, one JSON shape, bench's numbers and exports, help texts, the progress
//! bar, pictures (SVG boards and charts) and the animated trace.

use crate::common;

use common::{assert_refused, json, nqueens};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("output", name)
}

fn stdout(args: &[&str]) -> String {
    let out = nqueens().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The queens of an SVG document, which must parse as XML.
fn svg_queens(text: &str) -> usize {
    let doc = roxmltree::Document::parse(text).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("queen"))
        .count()
}

#[test]
fn readme_says_how_to_install_and_which_rust() {
    let r = readme();
    assert!(r.contains("cargo install --path ."), "install");
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .unwrap()
        .trim_matches('"');
    assert!(
        r.contains(&format!("Rust {version} or newer")),
        "README must name Rust {version}"
    );
}

/// The README's test command (the quick tier) and CONTRIBUTING's (both tiers) are what CI
/// runs, word for word: a user or a contributor who runs them gets CI's verdict.
#[test]
fn ci_runs_the_readmes_test_commands() {
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    let contributing =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/CONTRIBUTING.md")).unwrap();
    let commands = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("cargo test"))
            .map(|l| l.split(" #").next().unwrap().trim().to_string())
            .collect()
    };
    let users = commands(&readme());
    assert_eq!(users, ["cargo test --profile quick"]);
    let contributors = commands(&contributing);
    assert_eq!(contributors.len(), 2, "{contributors:?}");
    for c in users.iter().chain(&contributors) {
        assert!(ci.lines().any(|l| l.trim() == c), "CI does not run `{c}`");
    }
}

#[test]
fn verify_reads_every_format_list_writes() {
    for f in ["list", "pairs", "grid", "dots", "matrix", "json"] {
        let listed = stdout(&["list", "8", "--format", f]);
        let out = nqueens()
            .arg("verify")
            .write_stdin(listed)
            .output()
            .unwrap();
        assert!(out.status.success(), "{f}: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("board 92 "), "{f}: {text}");
        assert!(text.ends_with("92 boards: 92 solutions\n"), "{f}: {text}");
    }
    // One broken board in a stream: named by its position, exit 1.
    let mut boards: Vec<String> = stdout(&["list", "6", "--format", "dots"])
        .split("\n\n")
        .map(str::to_string)
        .collect();
    boards[2] = boards[2].replacen("Q .", ". Q", 1);
    let out = nqueens()
        .arg("verify")
        .write_stdin(boards.join("\n\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("board 3 (line 15): NOT A SOLUTION"), "{text}");
    assert!(
        text.contains("4 boards: 3 solutions, 1 not a solution (board 3)"),
        "{text}"
    );
}

#[test]
fn one_json_shape() {
    let a: Value = serde_json::from_str(&stdout(&["solve", "8", "--json"])).unwrap();
    let b: Value = serde_json::from_str(&stdout(&["solve", "8", "--format", "json"])).unwrap();
    assert_eq!(a, b);
    assert_refused(
        nqueens().args(["solve", "8", "--json", "--format", "grid"]),
        "cannot be used with",
    );
    let line: Value =
        serde_json::from_str(stdout(&["list", "8", "--json", "--limit", "1"]).trim()).unwrap();
    for key in ["n", "placed", "solution"] {
        assert_eq!(line[key], a[key], "{key}");
    }
    assert_eq!(
        stdout(&["list", "6", "--json"]),
        stdout(&["list", "6", "--format", "json"])
    );
}

#[test]
fn bench_numbers_exports_and_words() {
    let dir = tmpdir("bench");
    let out = stdout(&[
        "bench",
        "--n",
        "8",
        "--runs",
        "1",
        "--warmup",
        "0",
        "--threads",
        "1",
    ]);
    assert!(out.contains("1 run after 0 warm-up runs"), "{out}");
    // The row under the table's header (warnings of a busy machine may follow it).
    let row = out
        .lines()
        .skip_while(|l| !l.contains("median_s"))
        .nth(1)
        .unwrap();
    let median = row.split_whitespace().nth(1).unwrap();
    assert!(median != "0.001" && median.len() >= 6, "{row}");
    let f = dir.join("b.json");
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "8",
            "--runs",
            "1",
            "--threads",
            "1",
            "--export",
        ])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
    assert_eq!(v["workload"]["n"], 8);
    let csv = dir.join("b.csv");
    nqueens()
        .args([
            "bench",
            "--n",
            "8",
            "--runs",
            "1",
            "--threads",
            "1",
            "--export",
        ])
        .arg(&csv)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&csv)
        .unwrap()
        .starts_with("date,machine,"));
    assert_refused(
        nqueens().args(["bench", "--export", "b.xyz"]),
        "ending in .json, .csv, .md or .txt",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_says_what_each_command_takes() {
    let help = |c: &str| stdout(&[c, "--help"]);
    assert!(!help("table").contains("placed queens"));
    assert!(help("solve").contains("0-based with --zero-based"));
    assert!(help("bench").contains("(4 to 27)"));
    for c in [
        "count", "table", "bench", "solve", "list", "verify", "trace", "tree", "merge", "audit",
        "status",
    ] {
        assert!(!help(c).contains("card"), "{c}");
    }
}

#[test]
fn a_finished_checkpoint_counts_nothing_and_says_so() {
    let dir = tmpdir("done");
    let c = dir.join("c.ckpt");
    let cs = c.to_str().unwrap();
    json(&["count", "12", "--json", "--checkpoint", cs]);
    let again = json(&["count", "12", "--json", "--checkpoint", cs]);
    assert_eq!(again["total"], 14200);
    assert!(again["nodes_per_second"].is_null(), "{again}");
    let text = stdout(&["count", "12", "--checkpoint", cs]);
    assert!(text.contains("nothing left to count"), "{text}");
    assert!(!text.contains("nodes/s"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shard_script_directory_is_ignored_by_git() {
    let ignore =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.gitignore")).unwrap();
    for pattern in ["/shards-n*-k*/", "/results/", "/checkpoints/", "/logs/"] {
        assert!(ignore.lines().any(|l| l == pattern), "{pattern}");
    }
}

#[test]
fn boards_and_galleries_as_svg() {
    let one = stdout(&["solve", "8", "--format", "svg"]);
    assert_eq!(svg_queens(&one), 8);
    let big = stdout(&["solve", "200", "--format", "svg"]);
    assert_eq!(svg_queens(&big), 200);
    assert_refused(
        nqueens().args(["solve", "300", "--format", "svg"]),
        "too large for a legible picture",
    );
    let gallery = stdout(&["list", "8", "--format", "svg", "--limit", "5"]);
    assert_eq!(svg_queens(&gallery), 40);
    let unique = stdout(&["list", "8", "--unique", "--format", "svg"]);
    assert_eq!(svg_queens(&unique), 12 * 8);
    assert_refused(
        nqueens().args(["list", "10", "--format", "svg"]),
        "--limit K",
    );
}

#[test]
fn charts_as_svg() {
    let dir = tmpdir("charts");
    let b = dir.join("bench.svg");
    nqueens()
        .args([
            "bench",
            "--n",
            "8",
            "--runs",
            "1",
            "--threads",
            "1,2",
            "--plot",
        ])
        .arg(&b)
        .assert()
        .success();
    let text = std::fs::read_to_string(&b).unwrap();
    roxmltree::Document::parse(&text).unwrap();
    assert!(
        text.contains("count 8 by backtracking (symmetric algorithm"),
        "the caption names the workload"
    );
    assert!(text.contains("CPU: "), "the caption names the machine");
    let t = dir.join("table.svg");
    nqueens()
        .args(["table", "1..10", "--plot"])
        .arg(&t)
        .assert()
        .success();
    let text = std::fs::read_to_string(&t).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    // One dot per n with a(n) > 0: n = 1 and 4..10.
    let dots = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "circle")
        .count();
    assert_eq!(dots, 8, "{text}");
    assert_refused(nqueens().args(["table", "1..4", "--plot", "a.png"]), "SVG");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn animate_falls_back_on_a_pipe_and_cleans_up_on_a_terminal() {
    let out = nqueens()
        .args(["trace", "4", "--animate", "--delay", "0"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--animate needs a terminal"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("solution  1: 2 4 1 3"));
    // On a terminal (util-linux `script` gives one), the cursor comes back at the end.
    if Command::new("script")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok()
    {
        let cmd = format!(
            "{} trace 4 --animate --delay 0",
            env!("CARGO_BIN_EXE_nqueens")
        );
        let out = Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        // Hidden while it plays, shown again before the summary line that ends it.
        let shown = text.find("\x1b[?25h").expect("the cursor shown again");
        assert!(text.contains("\x1b[?25l"), "{text:?}");
        assert_eq!(
            text[shown + 6..].trim(),
            "first solution found in 17 steps",
            "{text:?}"
        );
        assert!(text.contains("solution  1: 2 4 1 3"));
    }
}
