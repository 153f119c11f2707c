//! `nqueens bench`, end to end: every thread count reported and checked, bad input refused,
//! another binary compared in turn.

use crate::common;

use common::{assert_bad_input, json, nqueens, stdout_of};
use serde_json::Value;

#[test]
fn bench_reports_every_thread_count_and_checks_counts() {
    let v = json(&[
        "bench",
        "--n",
        "10",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--threads",
        "1,2",
        "--json",
    ]);
    assert_eq!(v["tool"], "nqueens");
    assert_eq!(v["workload"]["n"], 10);
    assert_eq!(v["workload"]["total"], 724);
    assert_eq!(v["workload"]["unique"], 92);
    assert!(v["machine"]["logical_cores"].as_u64().unwrap() >= 1);
    assert!(v["machine"]["model"].is_string());
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["threads"], 1);
    assert_eq!(rows[0]["speedup"], 1.0);
    assert_eq!(rows[1]["threads"], 2);
    for r in rows {
        assert_eq!(r["times_s"].as_array().unwrap().len(), 2);
        assert!(r["min_s"].as_f64().unwrap() <= r["median_s"].as_f64().unwrap());
        assert!(r["median_s"].as_f64().unwrap() <= r["max_s"].as_f64().unwrap());
        assert!(r["nodes_per_second"].as_f64().unwrap() > 0.0);
    }
    let csv = stdout_of(&[
        "bench",
        "--n",
        "8",
        "--runs",
        "1",
        "--threads",
        "1,2",
        "--csv",
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("threads,split_depth,median_s"));
    assert_eq!(lines.len(), 3);
    let quick = |extra: &[&str]| {
        let mut args = vec!["bench", "--n", "8", "--runs", "1", "--threads", "1"];
        args.extend_from_slice(extra);
        stdout_of(&args)
    };
    assert!(quick(&["--markdown"]).contains("| threads | median (s) |"));
    let dir = std::env::temp_dir().join(format!("nqueens-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("b.json");
    let text = quick(&["--json", "--export", file.to_str().unwrap()]);
    assert!(text.contains("threads    median_s"));
    let exported: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(exported["workload"]["total"], 92);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_bad_input() {
    let cases: &[(&[&str], &str)] = &[
        (&["bench", "--threads", "0"], "not a thread list"),
        (&["bench", "--threads", "1,x"], "not a thread list"),
        (&["bench", "--runs", "0"], "out of range for a run count"),
        (&["bench", "--n", "40"], "known count"),
        (&["bench", "--n", "3"], "known count"),
        (
            &["bench", "--export", "x.xyz"],
            "ending in .json, .csv, .md or .txt",
        ),
        (&["bench", "--json", "--csv"], "cannot be used with"),
        (
            &["bench", "--gpu", "-a", "quadrants"],
            "the quadrant method has no GPU kernel",
        ),
        (
            &["bench", "--gpu", "--compare", "/bin/true"],
            "cannot be used with",
        ),
    ];
    assert_bad_input(cases);
}

/// `bench --compare OTHER` checks the other binary's `n` and `total` against
/// A000170 in this process: one that says `"total":1` with `"matches_known":true` for N = 8
/// is refused (exit 3), not timed.
#[test]
fn bench_compare_checks_the_other_count_itself() {
    let dir = common::tmpdir("cli", "fake-other");
    let version = stdout_of(&["--version"]);
    let fake = dir.join("nqueens");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then printf '%s' '{}'; exit 0; fi\n\
             echo '{{\"n\":8,\"total\":1,\"matches_known\":true,\"seconds\":0.01}}'\n",
            version.trim_end()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "8",
            "--threads",
            "1",
            "--runs",
            "1",
            "--compare",
        ])
        .arg(&fake)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("not A000170(8) = 92"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
