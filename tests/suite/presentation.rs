//! What a person reads and sees: `--zero-based` where coordinates are read or written,
//! messages that name options as typed, no solution drawn alike by `solve` and `list`, advice
//! that fits the work, pictures and charts that say more, and bench's report and warnings.

use crate::common;

use common::{assert_refused, json, nqueens};

fn stdout(args: &[&str]) -> (Option<i32>, String) {
    let out = nqueens().args(args).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// 4: `trace --zero-based` writes rows and columns from 0 in every format; `count --place`
/// reads them from 0 with `--zero-based` (both were refused as unknown options).
#[test]
fn zero_based_works_for_trace_and_count() {
    let (code, text) = stdout(&["trace", "4", "--zero-based", "--max-steps", "2"]);
    assert_eq!(code, Some(0));
    assert!(
        text.starts_with("      1  place     row 0, column 0\n"),
        "{text}"
    );
    let (_, lines) = stdout(&["trace", "4", "--zero-based", "-f", "json", "--all"]);
    let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(
        (first["row"].as_u64(), first["col"].as_u64()),
        (Some(0), Some(0))
    );
    assert!(lines.contains(r#""cols":[1,3,0,2]"#), "{lines}");
    let zero = json(&["count", "8", "--place", "0:1", "--zero-based", "--json"]);
    let one = json(&["count", "8", "--place", "1:2", "--json"]);
    assert_eq!(zero["total"], one["total"]);
    assert_eq!(zero["placed"], serde_json::json!([[0, 1]]));
    assert_eq!(one["placed"], serde_json::json!([[1, 2]]));
    let first = json(&["count", "8", "--first-queen", "0", "--zero-based", "--json"]);
    assert_eq!(first["total"], 4);
}

/// 4: a format is named as typed (`--format grid`, not `Grid`); a board with no solution is a
/// picture with exit 0 in `solve` and `list` alike (list refused it with exit 2).
#[test]
fn formats_are_named_as_typed_and_no_solution_is_drawn_alike() {
    assert_refused(
        nqueens().args(["solve", "2000", "--format", "grid"]),
        "too large to draw as --format grid:",
    );
    for cmd in ["solve", "list"] {
        let (code, svg) = stdout(&[cmd, "3", "--format", "svg"]);
        assert_eq!(code, Some(0), "{cmd}");
        roxmltree::Document::parse(&svg).unwrap();
        assert!(
            svg.contains("<title>no solution: the 3×3 board has none</title>"),
            "{cmd}: {svg}"
        );
    }
}

/// 4: a count no cluster could finish is not advised to be sharded; one a million cores could
/// finish still is.
#[test]
fn shards_are_advised_only_where_they_could_finish() {
    for (n, shards) in [("40", false), ("31", true)] {
        let out = nqueens().args(["count", n, "-t", "2"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.contains("Count it in shards"), shards, "{err}");
        assert_eq!(
            err.contains("a million cores would still take"),
            !shards,
            "{err}"
        );
    }
}

/// 5: a queen placed before the search is marked in `solve` and in a `list` gallery; `verify
/// --svg` joins the attacking pairs and keeps the verdict's exit code; one board only.
#[test]
fn pictures_mark_placed_queens_and_attacks() {
    let (_, one) = stdout(&["solve", "8", "--place", "2:3", "--format", "svg"]);
    roxmltree::Document::parse(&one).unwrap();
    assert_eq!(one.matches(r#"data-placed="true""#).count(), 1, "{one}");
    assert!(
        one.contains(r#"data-square="2:3" data-placed="true""#),
        "{one}"
    );
    let (_, gallery) = stdout(&["list", "6", "--place", "1:2", "--format", "svg"]);
    assert_eq!(gallery.matches("data-placed").count(), 1, "{gallery}");
    let wrong = nqueens()
        .args(["verify", "--svg"])
        .write_stdin("1 2 3 4 5 6 7 8\n")
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(1));
    let svg = String::from_utf8(wrong.stdout).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(svg.matches(r#"class="attack""#).count(), 7, "{svg}");
    let right = nqueens()
        .args(["verify", "--svg"])
        .write_stdin("2 4 1 3\n")
        .output()
        .unwrap();
    assert_eq!(right.status.code(), Some(0));
    assert!(!String::from_utf8(right.stdout).unwrap().contains("attack"));
    nqueens()
        .args(["verify", "--svg"])
        .write_stdin("2 4 1 3\n3 1 4 2\n")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--svg draws one board"));
}

/// The text lines of an SVG chart, trimmed (the document must parse as XML).
fn svg_texts(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

/// 5: a long chart title is broken into lines that fit the picture, not centred past its
/// edges.
#[test]
fn long_chart_titles_fit() {
    let dir = std::env::temp_dir().join(format!("nq-presentation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("unique.svg");
    nqueens()
        .args(["table", "1..8", "--unique", "--plot"])
        .arg(&path)
        .assert()
        .success();
    let lines: Vec<String> = svg_texts(&path)
        .into_iter()
        .filter(|t| t.starts_with("A002562") || t.starts_with("a(n) = 0"))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines.iter().all(|l| l.chars().count() <= 100), "{lines:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 6: `bench --compare OTHER` runs another nqueens binary in turn with this one and gives its
/// times and the ratio; what is not an nqueens binary is refused before anything runs.
#[test]
fn bench_compares_another_binary_in_turn() {
    let me = env!("CARGO_BIN_EXE_nqueens");
    let v = json(&[
        "bench",
        "--n",
        "10",
        "--threads",
        "1,2",
        "--runs",
        "2",
        "--compare",
        me,
        "--json",
    ]);
    assert_eq!(v["compared_with"][0], me);
    for r in v["results"].as_array().unwrap() {
        let c = &r["compare"];
        assert_eq!(c["times_s"].as_array().unwrap().len(), 2, "{v}");
        assert!(c["ratio"].as_f64().unwrap() > 0.0, "{v}");
    }
    assert!(v["warnings"].is_array(), "{v}");
    assert_refused(
        nqueens().args(["bench", "--n", "10", "--compare", "/bin/true"]),
        "does not answer --version as nqueens does",
    );
    assert_refused(
        nqueens().args(["bench", "--n", "10", "--compare", "/no/such/binary"]),
        "cannot run it",
    );
}

/// 6: a machine kept busy by other processes while the benchmark runs is warned of (it said
/// nothing, and printed 147% efficiency).
#[test]
fn bench_warns_of_a_busy_machine() {
    let spin = || {
        std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .unwrap()
    };
    let mut busy = [spin(), spin()];
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "16",
            "--threads",
            "1",
            "--runs",
            "3",
            "--json",
        ])
        .output()
        .unwrap();
    for b in &mut busy {
        b.kill().unwrap();
        b.wait().unwrap();
    }
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warned = v["warnings"].to_string();
    assert!(
        warned.contains("other processes used") || warned.contains("was busy"),
        "{v}"
    );
}

/// Thread counts past the machine's CPUs are warned of, and a chart carries the report's
/// warnings (it drew none: a shared chart then read as poor scaling).
#[test]
fn bench_warns_of_more_threads_than_cpus_in_the_table_and_the_chart() {
    let dir = common::tmpdir("presentation", "oversubscribed");
    let svg = dir.join("bench.svg");
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "8",
            "--threads",
            "1,512",
            "--runs",
            "1",
            "--json",
            "--plot",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warned = v["warnings"].to_string();
    assert!(
        warned.contains("--threads 512: more than this machine's"),
        "{v}"
    );
    let lines = svg_texts(&svg);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("warning: --threads 512: more")),
        "{lines:?}"
    );
    assert!(lines.iter().all(|l| l.chars().count() <= 160), "{lines:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
